import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { insertLeads, type SeedLead } from "../support/seed";
import { type StaffClient, signedInStaff } from "../support/staff";

// 'Marcar Enviado' stops the automatic delivery; 'Desfazer', within a minute
// and by whoever marked the lead (or an owner), puts it back as it was.
let app: App;
let jetimob: FakeJetimob;
const mail = new FakeMail();
/** The first account confirmed: an owner. */
let owner: Awaited<ReturnType<typeof signedInStaff>>;
let ana: Awaited<ReturnType<typeof signedInStaff>>;
let bruno: Awaited<ReturnType<typeof signedInStaff>>;

beforeAll(async () => {
  await mail.start();
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({ vars: { ...mail.settings(), ...jetimob.settings() } });
  owner = await signedInStaff(app, mail);
  ana = await signedInStaff(app, mail);
  bruno = await signedInStaff(app, mail);
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), jetimob?.stop()]);
});

/** Every column of a lead's delivery to Jetimob, and of its correction's. */
const DELIVERY_COLUMNS = `jetimob_enviado, delivery_status, delivery_attempts, next_attempt_at, lease_until,
  last_error, sent_at, sent_by, jetimob_lead_id, sent_name, sent_email, sent_whatsapp, update_status,
  update_requested_at, update_next_attempt_at, update_attempts, update_lease_until, update_last_error`;

type Delivery = Record<string, unknown> & { delivery_status: string; next_attempt_at: number | null };

async function delivery(id: string): Promise<Delivery> {
  const [row] = await app.sql<Delivery>(`SELECT ${DELIVERY_COLUMNS} FROM leads WHERE id = ?1`, id);
  if (!row) throw new Error(`no lead ${id}`);
  return row;
}

/** A lead that arrived a minute ago; a pending one is due, as the worker stores a new lead. */
async function aLead(lead: SeedLead = {}) {
  const created = Date.now() - 60_000;
  const due = (lead.delivery_status ?? "pending") === "pending" ? { next_attempt_at: created } : {};
  const [seeded] = await insertLeads(app, [{ created_at: created, ...due, ...lead }]);
  if (!seeded) throw new Error("no lead seeded");
  return seeded;
}

function markSent(by: StaffClient, lead: { id: string; name: string; email: string; whatsapp: string }) {
  const { name, email, whatsapp } = lead;
  return by.call("POST", `/api/leads/${lead.id}/mark-sent`, { name, email, whatsapp });
}

function undo(by: StaffClient, id: string) {
  return by.call("POST", `/api/leads/${id}/unmark-sent`, {});
}

async function counts(): Promise<{ attention: number } & Record<string, number>> {
  const answer = await owner.client.call("GET", "/api/leads");
  return answer.body.counts as { attention: number } & Record<string, number>;
}

async function actions(id: string) {
  return app.sql<{ staff_email: string; action: string }>(
    "SELECT staff_email, action FROM audit_log WHERE lead_id = ?1 ORDER BY id",
    id,
  );
}

describe("Desfazer, right after 'Marcar Enviado'", () => {
  it("puts a pending lead back exactly as it was, and the cron then delivers it", async () => {
    const lead = await aLead({ delivery_attempts: 2, last_error: "HTTP 503: indisponível", next_attempt_at: 0 });
    const before = await delivery(lead.id);
    const countsBefore = await counts();

    expect((await markSent(ana.client, lead)).status).toBe(200);
    expect(await delivery(lead.id)).toMatchObject({ delivery_status: "sent", sent_by: "staff", jetimob_enviado: 1 });
    expect(jetimob.callsFor(lead.email)).toEqual([]);

    const undone = await undo(ana.client, lead.id);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body).toMatchObject({ delivery_status: "pending" });
    expect(await delivery(lead.id)).toEqual(before);
    expect(await counts()).toEqual(countsBefore);
    expect(await actions(lead.id)).toEqual([
      { staff_email: ana.email, action: "mark_sent" },
      { staff_email: ana.email, action: "unmark_sent" },
    ]);

    await app.runCron();
    expect(jetimob.callsFor(lead.email)).toHaveLength(1);
    expect(await delivery(lead.id)).toMatchObject({ delivery_status: "sent", sent_by: "crm", jetimob_enviado: 1 });
  });

  it("makes a lead that waited for its next retry due now", async () => {
    const later = Date.now() + 6 * 3_600_000;
    const lead = await aLead({ delivery_attempts: 5, last_error: "HTTP 500: erro interno", next_attempt_at: later });
    const before = await delivery(lead.id);

    expect((await markSent(ana.client, lead)).status).toBe(200);
    expect((await undo(ana.client, lead.id)).status).toBe(200);
    const after = await delivery(lead.id);
    expect({ ...after, next_attempt_at: later }).toEqual(before);
    expect(Number(after.next_attempt_at)).toBeLessThanOrEqual(Date.now());

    await app.runCron();
    expect(jetimob.callsFor(lead.email)).toHaveLength(1);
  });

  it("puts a lead Jetimob kept refusing back to failed, where a person handles it", async () => {
    const lead = await aLead({ delivery_status: "failed", delivery_attempts: 32 });
    const before = await delivery(lead.id);
    const countsBefore = await counts();

    expect((await markSent(ana.client, lead)).status).toBe(200);
    expect((await counts()).attention).toBe(countsBefore.attention - 1);
    const undone = await undo(ana.client, lead.id);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body).toMatchObject({ delivery_status: "failed" });
    expect(await delivery(lead.id)).toEqual(before);
    expect(await counts()).toEqual(countsBefore);

    await app.runCron();
    expect(jetimob.callsFor(lead.email)).toEqual([]);
  });

  it("by another colleague is 409; by an owner it goes", async () => {
    const lead = await aLead();
    const before = await delivery(lead.id);
    expect((await markSent(ana.client, lead)).status).toBe(200);

    const colleague = await undo(bruno.client, lead.id);
    expect(colleague.status).toBe(409);
    expect(String(colleague.body.error)).toBe(
      "Só quem marcou o lead como enviado (ou um responsável) pode desfazer a marcação.",
    );
    expect(await delivery(lead.id)).toMatchObject({ delivery_status: "sent", sent_by: "staff" });

    expect((await undo(owner.client, lead.id)).status).toBe(200);
    expect(await delivery(lead.id)).toEqual(before);
    expect(await actions(lead.id)).toEqual([
      { staff_email: ana.email, action: "mark_sent" },
      { staff_email: owner.email, action: "unmark_sent" },
    ]);
  });

  it("more than a minute after the mark is 409, and the lead stays sent", async () => {
    const lead = await aLead();
    expect((await markSent(ana.client, lead)).status).toBe(200);
    // As if the mark had been made 61 seconds ago.
    await app.batch([
      ["UPDATE leads SET sent_at = sent_at - 61000 WHERE id = ?1", lead.id],
      ["UPDATE audit_log SET at = at - 61000 WHERE lead_id = ?1 AND action = 'mark_sent'", lead.id],
    ]);
    const marked = await delivery(lead.id);

    const late = await undo(ana.client, lead.id);
    expect(late.status).toBe(409);
    expect(String(late.body.error)).toBe(
      "Não dá mais para desfazer: o lead foi marcado como enviado há mais de 1 minuto.",
    );
    expect(await delivery(lead.id)).toEqual(marked);
    expect(await actions(lead.id)).toEqual([{ staff_email: ana.email, action: "mark_sent" }]);
  });

  it("pressed twice at once puts the lead back once", async () => {
    const lead = await aLead();
    const before = await delivery(lead.id);
    expect((await markSent(ana.client, lead)).status).toBe(200);

    const answers = await Promise.all([undo(ana.client, lead.id), undo(ana.client, lead.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await delivery(lead.id)).toEqual(before);
    expect((await actions(lead.id)).filter((a) => a.action === "unmark_sent")).toHaveLength(1);
  });

  it("is 409 for a lead not marked sent by staff: pending, or delivered by the integration", async () => {
    const pending = await aLead();
    const sent = await aLead({ delivery_status: "sent" });
    await app.sql("UPDATE leads SET sent_by = 'crm', sent_at = ?2 WHERE id = ?1", sent.id, Date.now());
    for (const lead of [pending, sent]) {
      const answer = await undo(owner.client, lead.id);
      expect(answer.status).toBe(409);
      expect(String(answer.body.error)).toBe(
        "Este lead não está marcado como enviado pela equipe: não há o que desfazer.",
      );
      expect(await actions(lead.id)).toEqual([]);
    }
    expect((await undo(owner.client, "nao-existe")).status).toBe(404);
  });

  it("is 409 once an attempt in flight when the lead was marked reached Jetimob after all", async () => {
    const lead = await aLead();
    expect((await markSent(ana.client, lead)).status).toBe(200);
    await app.sql(
      "INSERT INTO crm_attempts (lead_id, at, kind, outcome, detail) VALUES (?1, ?2, 'lead', 'sent', '5001')",
      lead.id,
      Date.now(),
    );
    const answer = await undo(ana.client, lead.id);
    expect(answer.status).toBe(409);
    expect(String(answer.body.error)).toMatch(/já levou este lead ao Jetimob/);
    expect(await delivery(lead.id)).toMatchObject({ delivery_status: "sent", sent_by: "staff" });
  });

  it("needs a session and our own Origin, and only answers POST", async () => {
    const lead = await aLead();
    expect((await markSent(ana.client, lead)).status).toBe(200);
    const anonymous = await fetch(`${app.baseUrl}/api/leads/${lead.id}/unmark-sent`, {
      method: "POST",
      headers: { Origin: app.baseUrl },
    });
    expect(anonymous.status).toBe(401);
    const elsewhere = await ana.client.call(
      "POST",
      `/api/leads/${lead.id}/unmark-sent`,
      {},
      {
        Origin: "https://evil.example",
      },
    );
    expect(elsewhere.status).toBe(403);
    expect((await ana.client.call("GET", `/api/leads/${lead.id}/unmark-sent`)).status).toBe(405);
    expect(await delivery(lead.id)).toMatchObject({ delivery_status: "sent", sent_by: "staff" });
  });
});

describe("the badge of a lead marked sent", () => {
  it("names who marked it, with the time of the mark; nobody once undone or delivered by the integration", async () => {
    const lead = await aLead({ name: "Helena Quem Marcou" });
    expect((await markSent(ana.client, lead)).status).toBe(200);

    const story = await owner.client.call("GET", `/api/leads/${lead.id}`);
    const marked = story.body.lead as Record<string, unknown>;
    const [row] = await app.sql<{ sent_at: number }>("SELECT sent_at FROM leads WHERE id = ?1", lead.id);
    expect(marked).toMatchObject({ marked_by: ana.email, sent_by: "staff" });
    expect(marked.sent_at).toBe(new Date(Number(row?.sent_at)).toISOString());
    const listed = await owner.client.call("GET", `/api/leads?q=${encodeURIComponent("Helena Quem Marcou")}`);
    expect(listed.body.leads).toMatchObject([{ id: lead.id, marked_by: ana.email }]);

    expect((await undo(ana.client, lead.id)).status).toBe(200);
    const undone = await owner.client.call("GET", `/api/leads/${lead.id}`);
    expect(undone.body.lead).toMatchObject({ marked_by: null, sent_by: null, sent_at: null });

    await app.runCron();
    const delivered = await owner.client.call("GET", `/api/leads/${lead.id}`);
    expect(delivered.body.lead).toMatchObject({ marked_by: null, sent_by: "crm", jetimob_enviado: true });
  });
});
