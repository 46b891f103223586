import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { accepted, FakeJetimob, refused } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { afterTheAttemptsBefore, ageDelivery, LEAD_PATH, ownBrowser, postLead, uniqueIp } from "../support/leads";
import { eventually } from "../support/net";
import { type StaffClient, signedInStaff } from "../support/staff";

// A visitor who corrects a detail must not be lost: every submission is kept,
// the lead shows the newest details, the CRM learns the correction, and the
// staff see the whole story.
let app: App;
let staff: StaffClient;
const DAY = 24 * 60 * 60_000;
const jetimob = new FakeJetimob();
const mail = new FakeMail();

beforeAll(async () => {
  await Promise.all([jetimob.start(), mail.start()]);
  app = await spawnApp({
    vars: {
      ...jetimob.settings(),
      ...mail.settings(),
    },
  });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([jetimob.stop(), mail.stop()]);
});

let n = 0;
/** A person no other test uses, with two WhatsApp numbers to choose from. */
function person(name = "Joana") {
  n += 1;
  const stamp = `${Date.now()}`.slice(-5);
  return {
    name: `${name} Teste ${n}`,
    email: `pessoa.${n}.${stamp}@example.com`,
    first: `(49) 99${stamp.slice(0, 3)}-${String(1000 + n).slice(-4)}`,
    second: `(49) 98${stamp.slice(0, 3)}-${String(2000 + n).slice(-4)}`,
  };
}

const e164 = (display: string) => `+55${display.replace(/\D/g, "")}`;

/** Sends the form from the person's own browser, as a visitor correcting a detail does. */
async function send(body: Record<string, unknown>) {
  const answer = await postLead(app, body, { browser: ownBrowser(body) });
  expect(answer, JSON.stringify(answer.body)).toMatchObject({ status: 200, body: { success: true } });
}

type Lead = Record<string, unknown> & { id: string; name: string; email: string; whatsapp: string };

async function leadByEmail(email: string): Promise<Lead> {
  const [row] = await app.sql<Lead>("SELECT * FROM leads WHERE email = ?1", email);
  if (!row) throw new Error(`no lead ${email}`);
  return row;
}

async function submissionsOf(id: string) {
  return app.sql<{ name: string; email: string; whatsapp: string; origem: string; utm_campaign: string | null }>(
    "SELECT name, email, whatsapp, origem, utm_campaign FROM lead_submissions WHERE lead_id = ?1 ORDER BY id",
    id,
  );
}

/** The lead once its first delivery is over (sent or not) and nothing holds it. */
function settled(email: string): Promise<Lead> {
  return eventually(async () => {
    const lead = await leadByEmail(email);
    return lead.delivery_attempts && lead.lease_until === null && lead.update_lease_until === null ? lead : undefined;
  }, 15_000);
}

describe("a visitor who corrects a detail", () => {
  it("their WhatsApp: the lead shows the new number, both submissions are kept, the earlier number still finds it", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await send({ name: p.name, email: p.email, whatsapp: p.second, utm_campaign: "google-verao" });
    const lead = await leadByEmail(p.email);
    expect(lead).toMatchObject({ whatsapp: e164(p.second), submission_count: 2 });
    expect(await submissionsOf(lead.id)).toEqual([
      expect.objectContaining({ whatsapp: e164(p.first), utm_campaign: null }),
      expect.objectContaining({ whatsapp: e164(p.second), utm_campaign: "google-verao" }),
    ]);
    // The e-mail is in both its search rows: still one lead found, and counted.
    for (const q of [p.first, p.second, p.email]) {
      const found = await staff.call("GET", `/api/leads?q=${encodeURIComponent(q)}`);
      expect(
        (found.body.leads as Lead[]).map((l) => l.id),
        q,
      ).toEqual([lead.id]);
      expect(found.body.total, q).toBe(1);
    }
  });

  it("their name: the lead shows the new name", async () => {
    const p = person("Joanna");
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await send({ name: `${p.name} Souza`, email: p.email, whatsapp: p.first });
    expect((await leadByEmail(p.email)).name).toBe(`${p.name} Souza`);
  });

  it("their e-mail (same WhatsApp): the lead shows the new e-mail", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    const before = await app.sql<{ id: string }>("SELECT id FROM leads WHERE whatsapp = ?1", e164(p.first));
    const corrected = `certo.${p.email}`;
    await send({ name: p.name, email: corrected, whatsapp: p.first });
    const after = await leadByEmail(corrected);
    expect(after.id).toBe(before[0]?.id);
    expect(await app.sql("SELECT id FROM leads WHERE email = ?1", p.email)).toEqual([]);
  });

  it("keeps the first touch on the lead and records the last", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first, utm_source: "instagram", origem: "instagram" });
    await send({ name: p.name, email: p.email, whatsapp: p.first, utm_source: "google", gclid: "g-1" });
    const { leads } = (await staff.call("GET", `/api/leads?q=${encodeURIComponent(p.email)}`)).body as {
      leads: Record<string, unknown>[];
    };
    expect(leads[0]).toMatchObject({
      origem: "instagram",
      utm_source: "instagram",
      gclid: null,
      last_touch: { origem: "google", utm_source: "google", gclid: "g-1" },
    });
  });
});

describe("an e-mail of one lead with the WhatsApp of another", () => {
  it("merges and overwrites nothing: the submission goes on the e-mail's lead, and both are possible duplicates", async () => {
    const ana = person("Ana");
    const bia = person("Bia");
    await send({ name: ana.name, email: ana.email, whatsapp: ana.first });
    await send({ name: bia.name, email: bia.email, whatsapp: bia.first });
    await send({ name: ana.name, email: ana.email, whatsapp: bia.first });

    const a = await leadByEmail(ana.email);
    const b = await leadByEmail(bia.email);
    expect(a).toMatchObject({ whatsapp: e164(ana.first), submission_count: 2 });
    expect(b).toMatchObject({ whatsapp: e164(bia.first), submission_count: 1, name: bia.name });
    expect((await submissionsOf(a.id)).map((s) => s.whatsapp)).toEqual([e164(ana.first), e164(bia.first)]);

    const list = await staff.call("GET", "/api/leads?status=duplicados");
    const shown = list.body.leads as { id: string; duplicate_of: string }[];
    expect(shown.find((l) => l.id === a.id)?.duplicate_of).toBe(b.id);
    expect(shown.find((l) => l.id === b.id)?.duplicate_of).toBe(a.id);
    expect((list.body.counts as { duplicates: number }).duplicates).toBeGreaterThanOrEqual(2);
    const story = await staff.call("GET", `/api/leads/${a.id}`);
    expect(story.body.possible_duplicates).toEqual([expect.objectContaining({ id: b.id, name: bia.name })]);
  });
});

describe("the CRM", () => {
  it("gets nothing more for a repeat with nothing new", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await settled(p.email);
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await app.runCron();
    await afterTheAttemptsBefore(app, jetimob);
    expect(jetimob.callsFor(p.email)).toHaveLength(1);
    expect((await leadByEmail(p.email)).submission_count).toBe(2);
  });

  it("gets nothing more when the name typed on an iPhone (D’Ávila, invisible marks) comes again from a computer", async () => {
    const p = person();
    const iphone = `\u200E${p.name} D\u2019Ávila\u200B`;
    await send({ name: iphone, email: p.email, whatsapp: p.first });
    expect((await settled(p.email)).name).toBe(`${p.name} D'Ávila`);
    await send({ name: `${p.name} D'Ávila`, email: p.email, whatsapp: p.first });
    await app.runCron();
    await afterTheAttemptsBefore(app, jetimob);
    expect(jetimob.callsFor(p.email)).toHaveLength(1);
    const lead = await leadByEmail(p.email);
    expect(lead).toMatchObject({ submission_count: 2, update_status: null });
    const kinds = await app.sql("SELECT kind FROM lead_submissions WHERE lead_id = ?1 ORDER BY id", lead.id);
    expect(kinds).toEqual([{ kind: "new" }, { kind: "repeat" }]);
  });

  it("gets exactly one more post when a delivered lead is corrected, saying what changed", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    expect((await settled(p.email)).delivery_status).toBe("sent");
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    await eventually(async () => jetimob.callsFor(p.email).length === 2);
    await app.runCron();
    await afterTheAttemptsBefore(app, jetimob);

    const calls = jetimob.callsFor(p.email);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.fields).toMatchObject({
      full_name: p.name,
      phone: e164(p.second),
      message: `Dados atualizados pelo visitante: WhatsApp ${p.second} (antes ${p.first})`,
    });
    const lead = await settled(p.email);
    expect(lead).toMatchObject({ update_status: null, sent_whatsapp: e164(p.second) });
    const story = await staff.call("GET", `/api/leads/${lead.id}`);
    expect((story.body.attempts as { kind: string; outcome: string }[]).map((a) => [a.kind, a.outcome])).toEqual([
      ["lead", "sent"],
      ["update", "sent"],
    ]);
  });

  it("corrected while its first delivery is in flight: no double send, the newest details win", async () => {
    const p = person();
    jetimob.script(p.email, accepted("lento", 1_500));
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await eventually(async () => jetimob.callsFor(p.email).length === 1);
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    // The first post (the old number) lands; then the correction is due.
    await eventually(async () => (await leadByEmail(p.email)).delivery_status === "sent");
    await app.runCron();
    await app.runCron();
    await afterTheAttemptsBefore(app, jetimob);

    const calls = jetimob.callsFor(p.email);
    expect(calls.map((c) => c.fields.phone)).toEqual([e164(p.first), e164(p.second)]);
    expect(calls[1]?.fields.message).toMatch(/^Dados atualizados pelo visitante: WhatsApp/);
  });

  it("corrected before it was ever delivered gets only the newest details, as a new lead", async () => {
    const p = person();
    jetimob.script(p.email, refused(503));
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await settled(p.email);
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE email = ?1", p.email);
    await app.runCron();
    await afterTheAttemptsBefore(app, jetimob);
    const calls = jetimob.callsFor(p.email);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.fields).toMatchObject({ phone: e164(p.second), message: expect.stringMatching(/^Cadastro no/) });
    expect((await leadByEmail(p.email)).update_status).toBeNull();
  });

  it("retries a refused correction with backoff, like a lead", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await settled(p.email);
    jetimob.script(p.email, refused(500, "fora do ar"));
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    const failed = await eventually(async () => {
      const lead = await leadByEmail(p.email);
      return lead.update_attempts === 1 && lead.update_lease_until === null ? lead : undefined;
    });
    expect(failed).toMatchObject({ update_status: "pending", update_last_error: "HTTP 500: fora do ar" });
    expect(Number(failed.update_next_attempt_at)).toBeGreaterThan(Date.now() + 30_000);
    await app.sql("UPDATE leads SET update_next_attempt_at = 0 WHERE email = ?1", p.email);
    await app.runCron();
    expect((await leadByEmail(p.email)).update_status).toBeNull();
    expect(jetimob.callsFor(p.email)).toHaveLength(3);
  });
});

describe("'Marcar Enviado' on a lead the visitor corrected after the panel showed it", () => {
  /** A lead Jetimob refused (so still pending), as the panel showed it, then corrected by its visitor. */
  async function correctedWhileShown() {
    const p = person();
    jetimob.script(p.email, refused(503));
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    const shown = await settled(p.email);
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    expect(await leadByEmail(p.email)).toMatchObject({ whatsapp: e164(p.second), delivery_status: "pending" });
    const answer = await staff.call("POST", `/api/leads/${shown.id}/mark-sent`, {
      name: shown.name,
      email: shown.email,
      whatsapp: shown.whatsapp,
    });
    expect(answer.status).toBe(200);
    return { p, id: shown.id };
  }

  it("takes what it showed as entered in Jetimob, and sends the correction", async () => {
    const { p } = await correctedWhileShown();
    expect(await leadByEmail(p.email)).toMatchObject({
      delivery_status: "sent",
      sent_by: "staff",
      sent_whatsapp: e164(p.first),
      update_status: "pending",
    });
    await app.runCron();
    const calls = jetimob.callsFor(p.email);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.fields).toMatchObject({
      phone: e164(p.second),
      message: `Dados atualizados pelo visitante: WhatsApp ${p.second} (antes ${p.first})`,
    });
    expect(await leadByEmail(p.email)).toMatchObject({ update_status: null, sent_whatsapp: e164(p.second) });
  });

  it("again, with the corrected details shown: the correction was entered by hand, nothing more is sent", async () => {
    const { p, id } = await correctedWhileShown();
    const now = await leadByEmail(p.email);
    const answer = await staff.call("POST", `/api/leads/${id}/mark-sent`, {
      name: now.name,
      email: now.email,
      whatsapp: now.whatsapp,
    });
    expect(answer.status).toBe(200);
    expect(await leadByEmail(p.email)).toMatchObject({ update_status: null, sent_whatsapp: e164(p.second) });
    await app.runCron();
    expect(jetimob.callsFor(p.email)).toHaveLength(1);
    const audit = await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1", id);
    expect(audit).toEqual([{ action: "mark_sent" }, { action: "mark_sent" }]);
    // With nothing left for Jetimob, a third is refused.
    expect((await staff.call("POST", `/api/leads/${id}/mark-sent`, {})).status).toBe(409);
  });

  it("with a detail that is not text is refused, and changes nothing", async () => {
    const p = person();
    jetimob.script(p.email, refused(503));
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    const lead = await settled(p.email);
    const answer = await staff.call("POST", `/api/leads/${lead.id}/mark-sent`, { whatsapp: 49999 });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("Requisição inválida: envie os dados em JSON.");
    expect(await leadByEmail(p.email)).toMatchObject({ delivery_status: "pending", sent_by: null });
  });
});

describe("a correction the CRM refused for good", () => {
  /** `p` delivered with its first number, then corrected to its second, which Jetimob refused for a week. */
  async function givenUp(p: ReturnType<typeof person>): Promise<Lead> {
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    await settled(p.email);
    jetimob.script(p.email, refused(500, "fora do ar"), refused(500, "fora do ar"));
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    await eventually(async () => (await leadByEmail(p.email)).update_attempts === 1);
    // A week of refusals later (the clock moved by SQL), the cron gives up.
    await ageDelivery(app, p.email, 8 * DAY, "update");
    await app.runCron();
    const failed = await leadByEmail(p.email);
    expect(failed).toMatchObject({ update_status: "failed", sent_whatsapp: e164(p.first) });
    return failed;
  }

  it("is sent again at once by 'Reenviar', which the audit trail records", async () => {
    const p = person();
    const failed = await givenUp(p);

    const answer = await staff.call("POST", `/api/leads/${failed.id}/resend`, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ delivered: true, lead: { update_status: null } });
    const calls = jetimob.callsFor(p.email);
    expect(calls).toHaveLength(4);
    expect(calls[3]?.fields).toMatchObject({ phone: e164(p.second) });
    expect(await leadByEmail(p.email)).toMatchObject({ update_status: null, sent_whatsapp: e164(p.second) });
    const audit = await app.sql("SELECT action FROM audit_log WHERE lead_id = ?1", failed.id);
    expect(audit).toEqual([{ action: "resend" }]);
  });

  it("sent again by 'Reenviar' and refused again, is retried like a new correction: a minute later, not six hours", async () => {
    const p = person();
    const failed = await givenUp(p);
    jetimob.script(p.email, refused(500, "ainda fora do ar"));
    const before = Date.now();
    const answer = await staff.call("POST", `/api/leads/${failed.id}/resend`, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ delivered: false });
    const lead = await leadByEmail(p.email);
    expect(lead).toMatchObject({ update_status: "pending", update_attempts: 1 });
    expect(Number(lead.update_next_attempt_at)).toBeGreaterThanOrEqual(before + 60_000 - 3_000);
    expect(Number(lead.update_next_attempt_at)).toBeLessThanOrEqual(Date.now() + 60_000 + 3_000);
  });

  it("is dropped when the visitor goes back to what Jetimob has: nothing is left for a person to do", async () => {
    const p = person();
    await givenUp(p);
    const attentionBefore = await staff.call("GET", `/api/leads?q=${encodeURIComponent(p.email)}&status=falhas`);
    expect(attentionBefore.body).toMatchObject({ total: 1 });

    // The visitor sends the number Jetimob has again.
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    expect(await leadByEmail(p.email)).toMatchObject({
      whatsapp: e164(p.first),
      update_status: null,
      update_last_error: null,
      update_next_attempt_at: null,
    });
    const attentionAfter = await staff.call("GET", `/api/leads?q=${encodeURIComponent(p.email)}&status=falhas`);
    expect(attentionAfter.body).toMatchObject({ total: 0 });
    const [counted] = await app.sql<{ n: number }>("SELECT n FROM lead_counters WHERE name = 'attention'");
    const [actual] = await app.sql<{ n: number }>(
      "SELECT count(*) AS n FROM leads WHERE delivery_status = 'failed' OR update_status = 'failed'",
    );
    expect(counted?.n).toBe(actual?.n);
    // And Jetimob is sent nothing more (the lead, then the correction twice): it has these details.
    await app.runCron();
    expect(jetimob.callsFor(p.email)).toHaveLength(3);
  });
});

describe("the lead's story", () => {
  it("shows its submissions, delivery attempts and the staff actions on it", async () => {
    const p = person();
    jetimob.script(p.email, refused(500));
    await send({ name: p.name, email: p.email, whatsapp: p.first, utm_campaign: "verao" });
    const lead = await settled(p.email);
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    expect((await staff.call("POST", `/api/leads/${lead.id}/mark-sent`, {})).status).toBe(200);

    const story = await staff.call("GET", `/api/leads/${lead.id}`);
    expect(story.status).toBe(200);
    expect(story.body.lead).toMatchObject({ id: lead.id, whatsapp: e164(p.second), delivery_status: "sent" });
    expect(story.body.submissions).toEqual([
      expect.objectContaining({ whatsapp_display: p.first, utm_campaign: "verao" }),
      expect.objectContaining({ whatsapp_display: p.second }),
    ]);
    expect(story.body.attempts).toEqual([
      expect.objectContaining({ kind: "lead", outcome: "failed", detail: expect.stringMatching(/HTTP 500/) }),
    ]);
    expect(story.body.actions).toEqual([expect.objectContaining({ action: "mark_sent" })]);
    expect(story.body.hidden).toEqual({ submissions: 0, attempts: 0, actions: 0 });
    expect((await staff.call("GET", "/api/leads/nao-existe")).status).toBe(404);
  });

  it("of a lead sent hundreds of times shows its first submission and the newest 50, and says how many it leaves out", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first, utm_campaign: "primeiro-toque" });
    const lead = await settled(p.email);
    const start = Date.now();
    await app.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 299)
       INSERT INTO lead_submissions (lead_id, submitted_at, name, email, whatsapp, origem, kind)
       SELECT ?1, ?2 + i * 1000, 'Nome ' || i, ?3, ?4, 'site', 'correction' FROM n`,
      lead.id,
      start,
      p.email,
      e164(p.first),
    );
    await app.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
       INSERT INTO crm_attempts (lead_id, at, kind, outcome, detail)
       SELECT ?1, ?2 + i * 1000, 'update', 'failed', 'HTTP 503 ' || i FROM n`,
      lead.id,
      start,
    );
    const story = await staff.call("GET", `/api/leads/${lead.id}`);
    const submissions = story.body.submissions as { name: string; utm_campaign: string | null }[];
    expect(submissions).toHaveLength(51);
    expect(submissions[0]).toMatchObject({ name: p.name, utm_campaign: "primeiro-toque" });
    expect(submissions.slice(1).map((s) => s.name)).toEqual(Array.from({ length: 50 }, (_, i) => `Nome ${250 + i}`));
    const attempts = story.body.attempts as { detail: string }[];
    expect(attempts).toHaveLength(50);
    expect(attempts.at(-1)?.detail).toBe("HTTP 503 200");
    const attemptsInAll = await app.sql<{ n: number }>(
      "SELECT count(*) AS n FROM crm_attempts WHERE lead_id = ?1",
      lead.id,
    );
    expect(story.body.hidden).toEqual({ submissions: 249, attempts: (attemptsInAll[0]?.n ?? 0) - 50, actions: 0 });
  });
});

describe("deleting a lead", () => {
  it("deletes its submissions, attempts, links and search rows; the audit trail keeps only its id", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first });
    const lead = await settled(p.email);
    await send({ name: p.name, email: p.email, whatsapp: p.second });
    // Searchable by both numbers until then.
    expect(await app.sql("SELECT lead_id FROM leads_search WHERE lead_id = ?1", lead.id)).toHaveLength(2);
    expect((await staff.call("DELETE", `/api/leads/${lead.id}`)).status).toBe(200);
    expect(await app.sql("SELECT lead_id FROM leads_search WHERE lead_id = ?1", lead.id)).toEqual([]);
    for (const table of ["lead_submissions", "crm_attempts", "lead_links", "leads_search_rows"]) {
      expect(await app.sql(`SELECT * FROM ${table} WHERE lead_id = ?1`, lead.id), table).toEqual([]);
    }
    const audit = await app.sql("SELECT * FROM audit_log WHERE lead_id = ?1", lead.id);
    expect(JSON.stringify(audit)).not.toContain(p.email);
    expect(JSON.stringify(audit)).not.toContain(p.name);
  });
});

describe("deleting a lead at its visitor's request", () => {
  it("takes its WhatsApp out of the lead a form with another's e-mail left it on, and that lead's count with it", async () => {
    const ana = person("Ana");
    const bia = person("Bia");
    await send({ name: ana.name, email: ana.email, whatsapp: ana.first });
    await settled(ana.email);
    await send({ name: bia.name, email: bia.email, whatsapp: bia.first });
    const biaLead = await settled(bia.email);
    // Someone sends Ana's e-mail with Bia's WhatsApp: kept on Ana's lead, the two marked 'Possível duplicado'.
    await send({ name: ana.name, email: ana.email, whatsapp: bia.first });
    const anaLead = await leadByEmail(ana.email);
    expect((await submissionsOf(anaLead.id)).map((s) => s.whatsapp)).toEqual([e164(ana.first), e164(bia.first)]);
    expect(anaLead.submission_count).toBe(2);

    expect((await staff.call("DELETE", `/api/leads/${biaLead.id}`)).status).toBe(200);
    // Nothing of Bia's number is left anywhere; Ana's lead and her own submission stay.
    expect(await submissionsOf(anaLead.id)).toEqual([expect.objectContaining({ whatsapp: e164(ana.first) })]);
    expect(await app.sql("SELECT id FROM lead_submissions WHERE whatsapp = ?1", e164(bia.first))).toEqual([]);
    const page = await staff.call("GET", `/api/leads/${anaLead.id}`);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).not.toContain(e164(bia.first).slice(3));
    expect((await leadByEmail(ana.email)).submission_count).toBe(1);
  });
});

describe("the CSV", () => {
  it("has the newest details, the first and last touch, the submission count and the possible duplicate", async () => {
    const p = person();
    await send({ name: p.name, email: p.email, whatsapp: p.first, utm_source: "instagram", utm_campaign: "a" });
    await send({ name: p.name, email: p.email, whatsapp: p.second, utm_source: "google", utm_campaign: "b" });
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv?q=${encodeURIComponent(p.email)}`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    const [header, row] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    const cells = Object.fromEntries((header ?? "").split(";").map((h, i) => [h, (row ?? "").split(";")[i]]));
    expect(cells).toMatchObject({
      WhatsApp: e164(p.second),
      "Envios do formulário": "2",
      "UTM Source": "instagram",
      "UTM Campaign": "a",
      "UTM Source do último cadastro": "google",
      "UTM Campaign do último cadastro": "b",
      "Possível duplicado": "",
    });
    expect(cells["Último cadastro em"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);
  });
});

describe("small defects", () => {
  it("a NUL byte in the search is an unmatched term, not a 500", async () => {
    for (const q of ["%00", "silva%00", "%00%00%00"]) {
      const answer = await staff.call("GET", `/api/leads?q=${q}`);
      expect(answer.status, q).toBe(200);
    }
  });

  it("the honeypot autofill cannot fill is named apart, and both it and the old one are counted in the log", async () => {
    const p = person();
    for (const field of ["hp_nao_preencher", "website"]) {
      const answer = await postLead(app, { name: p.name, email: p.email, whatsapp: p.first, [field]: "x" });
      expect(answer.status).toBe(200);
    }
    expect(await app.sql("SELECT id FROM leads WHERE email = ?1", p.email)).toEqual([]);
    expect(app.logs()).toMatch(/honeypot hit \(hp_nao_preencher filled\)/);
    expect(app.logs()).toMatch(/honeypot hit \(website filled\)/);
  });

  it("a refused plain form post logs why", async () => {
    const response = await fetch(app.baseUrl + LEAD_PATH, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": uniqueIp(),
        Origin: app.baseUrl,
      },
      body: new URLSearchParams({ name: "Ana", email: "ana@example", whatsapp: "(49) 99999-1234" }).toString(),
    });
    expect(response.status).toBe(303);
    expect(app.logs()).toMatch(/lead: form post refused \(422\): Confira os campos destacados/);
  });
});
