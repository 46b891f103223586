import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { aLead, Browser, LEAD_PATH, postLead, uniqueIp } from "../support/leads";
import { type StaffClient, signedInStaff } from "../support/staff";

// What a visitor tells us beyond the three fields: a landline typed as
// WhatsApp is kept and marked 'fixo', and the two optional questions after
// 'Sucesso!' are kept on the lead the browser proved it sent, and only there.
let app: App;
let staff: StaffClient;
const mail = new FakeMail();

const ANSWERS_PATH = "/functions/v1/lead-answers";

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

type Answered = { status: number; body: Record<string, unknown>; location: string | null };

/** Answers a question from `browser`, as the page's script does (or as a plain form post). */
async function answer(
  browser: Browser | null,
  fields: Record<string, string>,
  options: { ip?: string; form?: boolean } = {},
): Promise<Answered> {
  const cookie = browser?.header();
  const response = await fetch(app.baseUrl + ANSWERS_PATH, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": options.form ? "application/x-www-form-urlencoded" : "application/json",
      "CF-Connecting-IP": options.ip ?? uniqueIp(),
      Origin: app.baseUrl,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: options.form ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body, location: response.headers.get("Location") };
}

/** A new lead sent from a browser of its own, which keeps its proof. */
async function sentLead(extra: Record<string, unknown> = {}) {
  const browser = new Browser();
  const lead = aLead(extra);
  expect((await postLead(app, lead, { browser })).status).toBe(200);
  const [row] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", lead.email);
  if (!row) throw new Error("the lead was not stored");
  return { browser, lead, id: row.id };
}

async function answersOf(id: string) {
  const [row] = await app.sql<{ answers: string | null; answers_at: number | null }>(
    "SELECT answers, answers_at FROM leads WHERE id = ?1",
    id,
  );
  return { answers: row?.answers ? (JSON.parse(row.answers) as Record<string, string>) : null, at: row?.answers_at };
}

describe("a landline typed as WhatsApp", () => {
  it("is accepted and marked 'fixo'; a mobile is not", async () => {
    const fixo = await sentLead({ whatsapp: "(48) 3333-4444" });
    const mobile = await sentLead();
    const rows = await app.sql<{ id: string; landline: number }>(
      "SELECT id, landline FROM leads WHERE id IN (?1, ?2)",
      fixo.id,
      mobile.id,
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.landline]))).toEqual({ [fixo.id]: 1, [mobile.id]: 0 });
  });

  it("is accepted from a browser without JavaScript (a plain form post) and marked the same", async () => {
    const lead = aLead({ whatsapp: "11 2345-6789" });
    const response = await fetch(app.baseUrl + LEAD_PATH, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": uniqueIp(),
        Origin: app.baseUrl,
      },
      body: new URLSearchParams(lead as Record<string, string>).toString(),
    });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get("Location") ?? "").pathname).toBe("/obrigado");
    expect(await app.sql("SELECT whatsapp, landline FROM leads WHERE email = ?1", lead.email)).toEqual([
      { whatsapp: "+551123456789", landline: 1 },
    ]);
  });

  it("loses the mark when the visitor corrects it to a mobile, and the panel says which it is", async () => {
    const { browser, lead, id } = await sentLead({ whatsapp: "(49) 3522-1100" });
    const read = async () => (await staff.call("GET", `/api/leads/${id}`)).body.lead as Record<string, unknown>;
    expect(await read()).toMatchObject({ landline: true, whatsapp_display: "(49) 3522-1100" });
    const corrected = { ...lead, whatsapp: `(49) 9${String(Date.now()).slice(-4)}-0${String(Date.now()).slice(-3)}` };
    expect((await postLead(app, corrected, { browser })).status).toBe(200);
    expect(await read()).toMatchObject({ landline: false });
  });

  it("reads as an old mobile when it has eight digits starting 6 to 9: refused with the ninth digit asked for", async () => {
    const refused = await postLead(app, aLead({ whatsapp: "(49) 9999-8888" }));
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toEqual({
      whatsapp: "Celulares têm 9 dígitos depois do DDD, começando por 9. Confira o número.",
    });
  });
});

describe("the questions after 'Sucesso!'", () => {
  it("keep each answer on the lead the browser sent, with when they changed", async () => {
    const { browser, id } = await sentLead();
    expect(await answersOf(id)).toEqual({ answers: null, at: null });
    const before = Date.now();
    const first = await answer(browser, { question: "finalidade", answer: "Para investir" });
    expect(first).toMatchObject({ status: 200, body: { success: true } });
    expect((await answer(browser, { question: "prazo", answer: "Ainda não sei" })).status).toBe(200);
    const kept = await answersOf(id);
    expect(kept.answers).toEqual({ finalidade: "Para investir", prazo: "Ainda não sei" });
    expect(kept.at).toBeGreaterThanOrEqual(before);
  });

  it("move answers_at only when an answer changes, so the CRM hears each change once", async () => {
    const { browser, id } = await sentLead();
    await answer(browser, { question: "finalidade", answer: "Para morar" });
    const once = await answersOf(id);
    await app.sql("UPDATE leads SET answers_at = 1 WHERE id = ?1", id);
    expect((await answer(browser, { question: "finalidade", answer: "Para morar" })).status).toBe(200);
    expect(await answersOf(id)).toEqual({ answers: once.answers, at: 1 });
    expect((await answer(browser, { question: "finalidade", answer: "Os dois" })).status).toBe(200);
    const changed = await answersOf(id);
    expect(changed.answers).toEqual({ finalidade: "Os dois" });
    expect(changed.at).toBeGreaterThan(1);
  });

  it("accept only agency.json's questions and their options, word for word", async () => {
    const { browser, id } = await sentLead();
    for (const fields of [
      { question: "finalidade", answer: "Para alugar" },
      { question: "prazo", answer: "Para morar" },
      { question: "orcamento", answer: "Para morar" },
      { question: "finalidade", answer: "" },
      { question: "$.finalidade", answer: "Para morar" },
    ]) {
      const refused = await answer(browser, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(422);
      expect(refused.body.error).toBe("Escolha uma das opções.");
    }
    expect(await answersOf(id)).toEqual({ answers: null, at: null });
  });

  it("are refused, and nothing kept, from a browser that holds no proof of a lead", async () => {
    const { lead, id } = await sentLead();
    const stranger = new Browser();
    const refused = await answer(stranger, { question: "finalidade", answer: "Para morar" });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Não encontramos o seu cadastro neste navegador. Sua resposta não foi salva.");
    // A proof made up for this lead (not signed by the worker) proves nothing either.
    stranger.cookies.set("lead", `${id}.${"A".repeat(43)}`);
    expect((await answer(stranger, { question: "finalidade", answer: "Para morar" })).status).toBe(403);
    // Nor does sending the lead's own details again from another browser.
    expect((await postLead(app, lead, { browser: stranger })).status).toBe(200);
    expect(await answersOf(id)).toEqual({ answers: null, at: null });
  });

  it("answer success and keep nothing for a proof that names no lead, as for a real one", async () => {
    const { browser, id } = await sentLead();
    expect((await staff.call("DELETE", `/api/leads/${id}`)).status).toBe(200);
    const answered = await answer(browser, { question: "finalidade", answer: "Para morar" });
    expect(answered).toMatchObject({ status: 200, body: { success: true } });
    expect(await app.sql("SELECT id FROM leads WHERE id = ?1", id)).toEqual([]);
  });

  it("come as a plain form post too, back to the questions on /obrigado", async () => {
    const { browser, id } = await sentLead();
    const posted = await answer(browser, { question: "prazo", answer: "Em até 1 ano" }, { form: true });
    expect(posted.status).toBe(303);
    expect(new URL(posted.location ?? "").pathname + new URL(posted.location ?? "").hash).toBe("/obrigado#perguntas");
    expect((await answersOf(id)).answers).toEqual({ prazo: "Em até 1 ano" });
  });

  it("are limited per address, counted before anything is written, however many come at once", async () => {
    const { browser, id } = await sentLead();
    const ip = "2001:db8:48::1";
    const options = ["Para morar", "Para investir", "Os dois"];
    const answers = await Promise.all(
      Array.from({ length: 26 }, (_, i) =>
        answer(browser, { question: "finalidade", answer: options[i % 3] ?? "" }, { ip }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    // Another network is not held back.
    expect((await answer(browser, { question: "prazo", answer: "Ainda não sei" })).status).toBe(200);
    expect((await answersOf(id)).answers?.prazo).toBe("Ainda não sei");
  });

  it("narrow the list, its counters and its CSV to the leads who chose an option", async () => {
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const [a, b, c] = [await sentLead(), await sentLead(), await sentLead()];
    await answer(a.browser, { question: "finalidade", answer: "Os dois" });
    await answer(a.browser, { question: "prazo", answer: "Em até 1 ano" });
    await answer(b.browser, { question: "finalidade", answer: "Os dois" });
    await answer(c.browser, { question: "prazo", answer: "Em até 1 ano" });
    const listed = async (query: string) => {
      const page = await staff.call("GET", `/api/leads?de=${today}&ate=${today}&${query}`);
      expect(page.status).toBe(200);
      const ids = (page.body.leads as { id: string }[])
        .map((l) => l.id)
        .filter((id) => [a.id, b.id, c.id].includes(id));
      return { ids: ids.sort(), total: (page.body.counts as { total: number }).total };
    };
    const both = await listed("resposta=finalidade%3AOs+dois");
    expect(both.ids).toEqual([a.id, b.id].sort());
    // Two questions: both answers, as chosen.
    expect((await listed("resposta=finalidade%3AOs+dois&resposta=prazo%3AEm+at%C3%A9+1+ano")).ids).toEqual([a.id]);
    // The counters count what the list shows: nobody else today chose 'Os dois'.
    const everyone = await staff.call("GET", "/api/leads?resposta=finalidade%3AOs+dois");
    expect((everyone.body.counts as { total: number }).total).toBe(everyone.body.total);
    // An option agency.json does not offer narrows nothing.
    expect((await listed("resposta=finalidade%3AAlugar")).ids).toEqual([a.id, b.id, c.id].sort());
    const csv = await fetch(`${app.baseUrl}/api/leads/export.csv?resposta=prazo%3AEm+at%C3%A9+1+ano`, {
      headers: { Authorization: `Bearer ${staff.accessToken}`, Origin: app.baseUrl },
    });
    const text = await csv.text();
    expect(text).toContain(String(a.lead.email));
    expect(text).toContain(String(c.lead.email));
    expect(text).not.toContain(String(b.lead.email));
  });

  it("show in the panel's lead and in the leads' CSV, one column per question", async () => {
    const { browser, id, lead } = await sentLead({ whatsapp: "(47) 3344-5566" });
    await answer(browser, { question: "finalidade", answer: "Para investir" });
    const story = await staff.call("GET", `/api/leads/${id}`);
    expect(story.body.lead).toMatchObject({
      landline: true,
      answers: { finalidade: "Para investir" },
      answers_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const csv = await fetch(`${app.baseUrl}/api/leads/export.csv`, {
      headers: { Authorization: `Bearer ${staff.accessToken}`, Origin: app.baseUrl },
    });
    const lines = (await csv.text()).split("\r\n");
    const header = lines[0]?.split(";") ?? [];
    // The questions' columns follow 'Fixo', then when the answers changed.
    const from = header.indexOf("Fixo");
    expect(header.slice(from, from + 4)).toEqual([
      "Fixo",
      "Para morar ou investir?",
      "Quando pretende comprar?",
      "Respostas em",
    ]);
    const row = lines.find((l) => l.includes(String(lead.email)))?.split(";") ?? [];
    expect(row.slice(from, from + 3)).toEqual(["Sim", "Para investir", ""]);
    expect(row[from + 3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);
  });
});
