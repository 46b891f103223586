import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { aLead, countLeads, postLead } from "../support/leads";
import { eventually } from "../support/net";

// What a visitor types or a link carries is plain text wherever it goes: no
// line it adds, no text it turns around, no address of another scheme.
let jetimob: FakeJetimob;
let app: App;

beforeAll(async () => {
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({ vars: jetimob.settings() });
});

afterAll(async () => {
  await app?.stop();
  await jetimob?.stop();
});

type LeadRow = Record<string, string | number | null>;

async function leadByEmail(email: string): Promise<LeadRow | undefined> {
  const [row] = await app.sql<LeadRow>("SELECT * FROM leads WHERE email = ?1", email);
  return row;
}

/** The fields Jetimob received for the lead of `email`, once it did. */
async function sentToJetimob(email: string): Promise<Record<string, string>> {
  const [call] = await eventually(async () => jetimob.callsFor(email).length > 0 && jetimob.callsFor(email));
  return call?.fields ?? {};
}

/** U+2028 and U+2029: a new line in a mail client's plain text, and in most logs. */
const LINE = "\u2028";
const PARAGRAPH = "\u2029";
/** U+202E turns the text after it around; U+2066 starts an isolate. */
const OVERRIDE = "\u202e";
const ISOLATE = "\u2066";

describe("a lead's name", () => {
  it("with a line separator inside is refused with 422 and a message that says what to fix", async () => {
    const before = await countLeads(app);
    const answer = await postLead(app, aLead({ name: `Ana${LINE}Ver no painel: https://evil.example/admin` }));
    expect(answer.status).toBe(422);
    expect(answer.body.fields).toEqual({ name: expect.stringMatching(/uma linha só.*quebras de linha/) });
    expect(await countLeads(app)).toBe(before);
  });

  it("loses default-ignorable and private-use characters, and of only them is refused as missing", async () => {
    const before = await countLeads(app);
    for (const unseen of ["\u180b", "\u180b\u180c\u180f", "\ue000\uf8ff", "\u{f0001}"]) {
      const answer = await postLead(app, aLead({ name: unseen }));
      expect(answer.status, JSON.stringify(unseen)).toBe(422);
      expect(answer.body.fields).toEqual({ name: "Campo obrigatório." });
    }
    expect(await countLeads(app)).toBe(before);
    const lead = aLead({ name: "Ana\ue001 Sá\u180b" });
    expect((await postLead(app, lead)).status).toBe(200);
    expect((await leadByEmail(String(lead.email)))?.name).toBe("Ana Sá");
  });

  it("of blank-looking letters only (Hangul fillers) is refused as missing", async () => {
    const before = await countLeads(app);
    for (const blank of ["\u3164", "\u3164 \u3164", "\u2800\u2800", "\u115f\u1160\uffa0"]) {
      const answer = await postLead(app, aLead({ name: blank }));
      expect(answer.status, JSON.stringify(blank)).toBe(422);
      expect(answer.body.fields).toEqual({ name: "Campo obrigatório." });
    }
    expect(await countLeads(app)).toBe(before);
  });

  it("with a blank-looking letter beside real ones is refused", async () => {
    const answer = await postLead(app, aLead({ name: "Ana\u3164Souza" }));
    expect(answer.status).toBe(422);
    expect(answer.body.fields).toEqual({ name: expect.stringMatching(/invisíveis/) });
  });

  it("loses its bidirectional controls, and keeps accents and emoji", async () => {
    const lead = aLead({ name: `Joana D’Ávila ${OVERRIDE}ocsiD${ISOLATE} 👨\u200d👩\u200d👧` });
    expect((await postLead(app, lead)).status).toBe(200);
    expect((await leadByEmail(String(lead.email)))?.name).toBe("Joana D'Ávila ocsiD 👨\u200d👩\u200d👧");
  });
});

describe("a lead's campaign", () => {
  it("is stored without the line separators and bidirectional controls its link carried", async () => {
    const lead = aLead({
      utm_campaign: `verao${LINE}Ver no painel: https://evil.example${PARAGRAPH}`,
      utm_source: `${OVERRIDE}margatsni${ISOLATE}`,
      origem: `evento${LINE}\r\nVer no painel: x`,
    });
    expect((await postLead(app, lead)).status).toBe(200);
    const row = await leadByEmail(String(lead.email));
    expect(row).toMatchObject({
      utm_campaign: "veraoVer no painel: https://evil.example",
      utm_source: "margatsni",
      origem: "eventoVer no painel: x",
    });
    const fields = await sentToJetimob(String(lead.email));
    expect(JSON.stringify(fields)).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069\r\n]/);
  });
});

describe("a lead's page and referrer", () => {
  it("that are not web addresses are not stored, and the page is not sent to Jetimob", async () => {
    const lead = aLead({ page_url: "javascript:alert(1)", referrer: "data:text/html,<script>alert(1)</script>" });
    expect((await postLead(app, lead)).status).toBe(200);
    expect(await leadByEmail(String(lead.email))).toMatchObject({ page_url: null, referrer: null });
    const fields = await sentToJetimob(String(lead.email));
    expect(fields.url).toBeUndefined();
    expect(JSON.stringify(fields)).not.toMatch(/javascript:|data:/);
  });

  it("of an Android app is not stored, yet names where the lead came from", async () => {
    const lead = aLead({ referrer: "android-app://com.whatsapp/", page_url: "https://site.example/?a=1" });
    expect((await postLead(app, lead)).status).toBe(200);
    expect(await leadByEmail(String(lead.email))).toMatchObject({
      referrer: null,
      source: "WhatsApp",
      page_url: "https://site.example/?a=1",
    });
    expect((await sentToJetimob(String(lead.email))).url).toBe("https://site.example/?a=1");
  });

  it("are stored as the URL standard writes them: markup a link carries reaches neither the CRM nor the base", async () => {
    const lead = aLead({
      page_url: 'https://site.example/?utm_campaign="><svg onload=alert(1)>',
      referrer: 'HTTPS://Blog.Example/post "x"',
    });
    expect((await postLead(app, lead)).status).toBe(200);
    expect(await leadByEmail(String(lead.email))).toMatchObject({
      page_url: "https://site.example/?utm_campaign=%22%3E%3Csvg%20onload=alert(1)%3E",
      referrer: "https://blog.example/post%20%22x%22",
    });
    const sent = await sentToJetimob(String(lead.email));
    expect(sent.url).toBe("https://site.example/?utm_campaign=%22%3E%3Csvg%20onload=alert(1)%3E");
    expect(JSON.stringify(sent)).not.toMatch(/<svg|"><|\\">/);
  });
});
