import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { aLead, Browser, postLead, settledLead } from "../support/leads";
import { eventually } from "../support/net";
import { type StaffClient, signedInStaff } from "../support/staff";

// A correction needs proof: the browser that sent a lead keeps a signed
// cookie naming it, and only with it (or through staff) do the lead's details
// change. A stranger who knows a lead's e-mail or WhatsApp gets 'Sucesso!'
// like anyone, and what he sent waits for staff as a pending change.
let app: App;
let staff: StaffClient;
const mail = new FakeMail();
const jetimob = new FakeJetimob();

type LeadRow = { id: string; name: string; email: string; whatsapp: string; submission_count: number };

async function leadByEmail(email: unknown): Promise<LeadRow | undefined> {
  const [row] = await app.sql<LeadRow>(
    "SELECT id, name, email, whatsapp, submission_count FROM leads WHERE email = ?1",
    email,
  );
  return row;
}

async function submissions(leadId: string): Promise<{ id: number; kind: string; name: string }[]> {
  return app.sql("SELECT id, kind, name FROM lead_submissions WHERE lead_id = ?1 ORDER BY id", leadId);
}

/** A new lead, sent from `browser` (a browser of its own without one); its row once committed. */
async function leadFrom(browser: Browser, extra: Record<string, unknown> = {}) {
  const lead = aLead(extra);
  expect((await postLead(app, lead, { browser })).status).toBe(200);
  const row = await leadByEmail(lead.email);
  if (!row) throw new Error("the lead was not stored");
  return { lead, row };
}

beforeAll(async () => {
  await Promise.all([mail.start(), jetimob.start()]);
  app = await spawnApp({ vars: { ...mail.settings(), ...jetimob.settings() } });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), jetimob.stop()]);
});

describe("the browser that sent a lead", () => {
  it("gets an HttpOnly cookie that names the lead, for a year", async () => {
    const browser = new Browser();
    const lead = aLead();
    const answer = await postLead(app, lead, { browser });
    const row = await leadByEmail(lead.email);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("lead="));
    expect(cookie).toMatch(
      new RegExp(`^lead=${row?.id}\\.[\\w-]{43}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict$`),
    );
  });

  it("corrects its lead at once", async () => {
    const browser = new Browser();
    const { lead, row } = await leadFrom(browser);
    const answer = await postLead(app, { ...lead, name: "Nome Corrigido" }, { browser });
    expect(answer.status).toBe(200);
    expect(await leadByEmail(lead.email)).toMatchObject({ name: "Nome Corrigido", submission_count: 2 });
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "correction"]);
  });

  it("earns no proof of another lead by repeating its exact details: the change after it waits for staff", async () => {
    const attacker = new Browser();
    await leadFrom(attacker);
    const { lead: victim, row } = await leadFrom(new Browser());
    const repeat = await postLead(app, victim, { browser: attacker });
    expect(repeat.status).toBe(200);
    const change = await postLead(
      app,
      { ...victim, name: "Nome Do Atacante", whatsapp: "(48) 97777-0001" },
      {
        browser: attacker,
      },
    );
    expect(change.status).toBe(200);
    expect(await leadByEmail(victim.email)).toMatchObject({ name: row.name, whatsapp: row.whatsapp });
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "repeat", "pending"]);
    await app.runCron();
    expect(jetimob.callsFor(String(victim.email)).every((c) => c.fields.full_name === row.name)).toBe(true);
  });

  it("keeps the proof of its own lead when it repeats another lead's details", async () => {
    const browser = new Browser();
    const { lead: mine, row: myRow } = await leadFrom(browser);
    const { lead: theirs } = await leadFrom(new Browser());
    expect((await postLead(app, theirs, { browser })).status).toBe(200);
    expect((await postLead(app, { ...mine, name: "Meu Nome Corrigido" }, { browser })).status).toBe(200);
    expect((await leadByEmail(mine.email))?.name).toBe("Meu Nome Corrigido");
    expect((await submissions(myRow.id)).map((s) => s.kind)).toEqual(["new", "correction"]);
  });

  it("cannot correct another lead with its cookie", async () => {
    const hers = new Browser();
    const { lead: her } = await leadFrom(hers);
    const { lead: his, row } = await leadFrom(new Browser());
    expect((await postLead(app, { ...his, name: "Trocado Por Ela" }, { browser: hers })).status).toBe(200);
    expect(await leadByEmail(his.email)).toMatchObject({ name: his.name });
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "pending"]);
    // Her own cookie still names hers only.
    expect((await leadByEmail(her.email))?.name).toBe(her.name);
  });
});

describe("the answer to a post", () => {
  /** The proof cookie of an answer, its value's lead id and tag made into their shapes. */
  function shapeOf(answer: { headers: Headers }): string[] {
    return answer.headers.getSetCookie().map((c) => c.replace(/^lead=[0-9a-f-]{36}\.[\w-]{43};/, "lead=<id>.<tag>;"));
  }

  it("sets a cookie of the same shape whether the details were a new lead, a lead's own, a change or a bot's", async () => {
    const { lead } = await leadFrom(new Browser());
    const answers = [
      await postLead(app, aLead()),
      await postLead(app, lead),
      await postLead(app, { ...lead, name: "Outro Nome" }),
      await postLead(app, { ...lead, email: `outro.${Date.now()}@example.com` }),
      await postLead(app, aLead({ hp_nao_preencher: "https://spam.example" })),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const shapes = answers.map(shapeOf);
    expect(shapes[0]).toEqual(["lead=<id>.<tag>; Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict"]);
    for (const shape of shapes) expect(shape).toEqual(shapes[0]);
    // A decoy proves no lead: its id is nobody's.
    const ids = answers.slice(1).map((a) => a.headers.getSetCookie()[0]?.slice(5, 41));
    for (const id of ids) expect(await app.sql("SELECT id FROM leads WHERE id = ?1", id)).toEqual([]);
  });

  it("sets no cookie when the post is refused", async () => {
    const refused = await postLead(app, aLead({ email: "não é e-mail" }));
    expect(refused.status).toBe(422);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });
});

describe("a stranger who knows a lead's e-mail or WhatsApp", () => {
  it("sees 'Sucesso!', and the lead keeps its details while his change waits for staff", async () => {
    const { lead, row } = await leadFrom(new Browser());
    const byEmail = await postLead(app, { ...lead, name: "Estranho", whatsapp: "(48) 98765-4321" });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual({ success: true });

    const byWhatsApp = await postLead(app, { ...lead, name: "Outro Estranho", email: "estranho@example.com" });
    expect(byWhatsApp.status).toBe(200);
    expect(await leadByEmail(lead.email)).toEqual(row);
    expect(await leadByEmail("estranho@example.com")).toBeUndefined();
    expect((await submissions(row.id)).map((s) => [s.kind, s.name])).toEqual([
      ["new", lead.name],
      ["pending", "Estranho"],
      ["pending", "Outro Estranho"],
    ]);
    const page = await staff.call("GET", `/api/leads/${row.id}`);
    expect((page.body.lead as { pending_changes: number }).pending_changes).toBe(2);
    const list = await staff.call("GET", "/api/leads?status=alteracoes");
    expect((list.body.leads as { id: string }[]).map((l) => l.id)).toContain(row.id);
  });

  it("who repeats the lead's own details is a repeat, nothing waits", async () => {
    const { lead, row } = await leadFrom(new Browser());
    expect((await postLead(app, lead)).status).toBe(200);
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "repeat"]);
    expect((await leadByEmail(lead.email))?.submission_count).toBe(2);
  });

  it("60 at once from three addresses leave the lead unchanged, one change waiting per address, and the visitor's own still there", async () => {
    const { lead, row } = await leadFrom(new Browser());
    // The visitor, from another device, corrects their number: it waits for staff.
    const own = await postLead(app, { ...lead, whatsapp: "(49) 98888-1234" }, { ip: "198.51.100.77" });
    expect(own.status).toBe(200);
    const addresses = ["203.0.113.21", "203.0.113.22", "203.0.113.23"];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postLead(app, { ...lead, name: `Invasor ${i}` }, { ip: addresses[i % addresses.length] }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await app.sql("SELECT id FROM leads WHERE email = ?1 OR whatsapp = ?2", lead.email, row.whatsapp)).toEqual([
      { id: row.id },
    ]);
    expect(await leadByEmail(lead.email)).toEqual(row);
    const waiting = await app.sql<{ name: string; whatsapp: string }>(
      "SELECT name, whatsapp FROM lead_submissions WHERE lead_id = ?1 AND kind = 'pending' ORDER BY id",
      row.id,
    );
    expect(waiting).toHaveLength(4);
    expect(waiting[0]).toEqual({ name: lead.name, whatsapp: "+5549988881234" });
    // Each address's newest replaced its older ones, kept in the story as refused.
    const replaced = await app.sql(
      "SELECT id FROM lead_submissions WHERE lead_id = ?1 AND kind = 'refused' AND auto_refused = 'replaced'",
      row.id,
    );
    expect(replaced).toHaveLength(57);
    // The lead's page lists every change that waits, apart from its history.
    const page = await staff.call("GET", `/api/leads/${row.id}`);
    const story = page.body as { waiting_changes: { whatsapp: string }[]; submissions: { kind: string }[] };
    expect(story.waiting_changes).toHaveLength(4);
    expect(story.waiting_changes[0]?.whatsapp).toBe("+5549988881234");
    expect(story.submissions.some((s) => s.kind === "pending")).toBe(false);
  });

  it(`keeps at most ${5} changes waiting on a lead: more senders' are kept in its story, refused`, async () => {
    const { lead, row } = await leadFrom(new Browser());
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => postLead(app, { ...lead, name: `Remetente ${i}` })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await leadByEmail(lead.email)).toEqual(row);
    const kinds = (await submissions(row.id)).map((s) => s.kind);
    expect(kinds.filter((k) => k === "pending")).toHaveLength(5);
    expect(
      await app.sql(
        "SELECT count(*) AS n FROM lead_submissions WHERE lead_id = ?1 AND kind = 'refused' AND auto_refused = 'limit'",
        row.id,
      ),
    ).toEqual([{ n: 7 }]);
    // Their senders' newer changes replace them, within the limit.
    expect(
      await app.sql("SELECT count(*) AS n FROM lead_submissions WHERE sender IS NOT NULL AND kind != 'pending'"),
    ).toEqual([{ n: 0 }]);
  });

  it("'Recusar todas' refuses every change that waits, each in the activity, and the lead keeps its details", async () => {
    const { lead, row } = await leadFrom(new Browser());
    for (const name of ["Primeiro Estranho", "Segundo Estranho", "Terceiro Estranho"]) {
      expect((await postLead(app, { ...lead, name })).status).toBe(200);
    }
    const refused = await staff.call("POST", `/api/leads/${row.id}/changes/refuse-all`, {});
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ refused: 3 });
    expect(await leadByEmail(lead.email)).toEqual(row);
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "refused", "refused", "refused"]);
    expect(await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1", row.id)).toEqual([
      { action: "refuse_change" },
      { action: "refuse_change" },
      { action: "refuse_change" },
    ]);
    const again = await staff.call("POST", `/api/leads/${row.id}/changes/refuse-all`, {});
    expect(again.status).toBe(409);
  });
});

describe("staff deciding a waiting change", () => {
  async function waitingChange(extra: Record<string, unknown> = {}) {
    const { lead, row } = await leadFrom(new Browser());
    // Jetimob has it already.
    await app.runCron();
    await eventually(async () => jetimob.callsFor(String(lead.email)).length === 1);
    await settledLead(app, String(lead.email));
    expect((await postLead(app, { ...lead, name: "Nome Novo", ...extra })).status).toBe(200);
    const change = (await submissions(row.id)).find((s) => s.kind === "pending");
    if (!change) throw new Error("no change waits");
    return { lead, row, change };
  }

  it("'Aceitar' gives the lead the new details, tells Jetimob once, and is in the activity", async () => {
    const { lead, row, change } = await waitingChange();
    const accepted = await staff.call("POST", `/api/leads/${row.id}/changes/${change.id}/accept`, {});
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await leadByEmail(lead.email))?.name).toBe("Nome Novo");
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "correction"]);
    await eventually(async () => jetimob.callsFor(String(lead.email)).length === 2);
    await settledLead(app, String(lead.email));
    await app.runCron();
    expect(jetimob.callsFor(String(lead.email))).toHaveLength(2);
    expect(jetimob.callsFor(String(lead.email))[1]?.fields).toMatchObject({ full_name: "Nome Novo" });
    const [audit] = await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1 ORDER BY id DESC", row.id);
    expect(audit).toEqual({ action: "accept_change" });
    // Decided once: a second 'Aceitar' changes nothing.
    const again = await staff.call("POST", `/api/leads/${row.id}/changes/${change.id}/accept`, {});
    expect(again.status).toBe(409);
  });

  it("'Recusar' leaves the lead as it was, and Jetimob hears nothing", async () => {
    const { lead, row, change } = await waitingChange();
    const refused = await staff.call("POST", `/api/leads/${row.id}/changes/${change.id}/refuse`, {});
    expect(refused.status).toBe(200);
    expect(await leadByEmail(lead.email)).toEqual(row);
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "refused"]);
    await app.runCron();
    expect(jetimob.callsFor(String(lead.email))).toHaveLength(1);
    const [audit] = await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1 ORDER BY id DESC", row.id);
    expect(audit).toEqual({ action: "refuse_change" });
  });

  it("cannot accept a change whose e-mail another lead took meanwhile", async () => {
    const taken = `tomado.${Date.now()}@example.com`;
    const { lead, row, change } = await waitingChange({ email: taken });
    await leadFrom(new Browser(), { email: taken });
    const accepted = await staff.call("POST", `/api/leads/${row.id}/changes/${change.id}/accept`, {});
    expect(accepted.status).toBe(409);
    expect(accepted.body.error).toMatch(/outro lead/);
    expect(await leadByEmail(lead.email)).toEqual(row);
  });

  it("is for staff only", async () => {
    const { row, change } = await waitingChange();
    const response = await fetch(`${app.baseUrl}/api/leads/${row.id}/changes/${change.id}/accept`, {
      method: "POST",
      headers: { Origin: app.baseUrl },
    });
    expect(response.status).toBe(401);
    expect((await submissions(row.id)).map((s) => s.kind)).toEqual(["new", "pending"]);
  });
});
