import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { accepted, FakeJetimob, refused } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { ageDelivery, aLead, ownBrowser, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { type StaffClient, signedInStaff } from "../support/staff";

// The panel's counters are kept by triggers (migration 0005) instead of
// counted on every load. Whatever changes a lead, they must say what a count
// of the table says: the lead endpoint, the delivery engine (sent, retried,
// given up), 'Marcar Enviado', 'Reenviar', 'Excluir', and possible duplicates.
// 'Precisam de atenção' (migration 0007) counts the leads given up and those
// whose correction was given up, once each.
const DAY = 24 * 60 * 60_000;

let mail: FakeMail;
let jetimob: FakeJetimob;
let app: App;
let staff: StaffClient;

beforeAll(async () => {
  mail = await new FakeMail().start();
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({
    vars: {
      ...mail.settings(),
      ...jetimob.settings(),
    },
  });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await jetimob?.stop();
  await mail?.stop();
});

type Counts = {
  total: number;
  sent: number;
  pending: number;
  failed: number;
  attention: number;
  duplicates: number;
  delivered: number;
  uncontacted: number;
  mine: number;
};

/** The counters as a count of the tables says they must be. */
async function counted(): Promise<Counts> {
  const [row] = await app.sql<Counts>(
    `SELECT count(*) AS total,
       count(*) FILTER (WHERE delivery_status = 'sent') AS sent,
       count(*) FILTER (WHERE delivery_status = 'pending') AS pending,
       count(*) FILTER (WHERE delivery_status = 'failed') AS failed,
       count(*) FILTER (WHERE delivery_status = 'failed' OR update_status = 'failed') AS attention,
       (SELECT count(DISTINCT lead_id) FROM lead_links) AS duplicates,
       count(*) FILTER (WHERE delivery_status = 'sent' AND update_status IS NOT 'failed') AS delivered,
       count(*) FILTER (WHERE first_contact_at IS NULL AND contact_tracked = 1) AS uncontacted,
       0 AS mine
     FROM leads`,
  );
  if (!row) throw new Error("no count");
  return row;
}

/** What the panel shows, checked against the count; returns it. */
async function panelCounts(): Promise<Counts> {
  const list = await staff.call("GET", "/api/leads");
  expect(list.status).toBe(200);
  const shown = list.body.counts as Counts;
  expect(shown).toEqual(await counted());
  return shown;
}

async function submit(lead: Record<string, unknown>) {
  expect((await postLead(app, lead, { browser: ownBrowser(lead) })).status).toBe(200);
  return String(lead.email);
}

async function leadOf(email: string) {
  return eventually(async () => {
    const [row] = await app.sql<{ id: string; delivery_status: string; lease_until: number | null }>(
      "SELECT id, delivery_status, lease_until FROM leads WHERE email = ?1",
      email,
    );
    return row && row.lease_until === null ? row : undefined;
  }, 15_000);
}

describe("the panel's counters", () => {
  it("start at zero, count new leads and the engine's deliveries, in parallel too", async () => {
    expect(await panelCounts()).toEqual({
      total: 0,
      sent: 0,
      pending: 0,
      failed: 0,
      attention: 0,
      duplicates: 0,
      delivered: 0,
      uncontacted: 0,
      mine: 0,
    });
    const leads = Array.from({ length: 12 }, () => aLead());
    for (const lead of leads.slice(6)) jetimob.script(String(lead.email), refused(500));
    await Promise.all(leads.map(submit));
    for (const lead of leads) await leadOf(String(lead.email));
    expect(await panelCounts()).toMatchObject({ total: 12, sent: 6, pending: 6, failed: 0 });
  });

  it("follow the engine giving up on a lead after its week of retries", async () => {
    const lead = aLead();
    const email = String(lead.email);
    jetimob.script(email, refused(500), refused(500));
    await submit(lead);
    await leadOf(email);
    await ageDelivery(app, email, 8 * DAY);
    await app.runCron();
    expect((await leadOf(email)).delivery_status).toBe("failed");
    expect((await panelCounts()).failed).toBeGreaterThanOrEqual(1);
  });

  it("follow 'Marcar Enviado', 'Reenviar' and 'Excluir'", async () => {
    const waiting = aLead();
    jetimob.script(String(waiting.email), refused(500));
    const pendingId = (await leadOf(await submit(waiting))).id;
    const before = await panelCounts();

    expect((await staff.call("POST", `/api/leads/${pendingId}/mark-sent`, {})).status).toBe(200);
    expect(await panelCounts()).toMatchObject({ sent: before.sent + 1, pending: before.pending - 1 });

    const [failed] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE delivery_status = 'failed' LIMIT 1");
    jetimob.answerEveryone(accepted());
    expect((await staff.call("POST", `/api/leads/${failed?.id}/resend`, {})).status).toBe(200);
    await eventually(async () => {
      const [row] = await app.sql<{ delivery_status: string }>(
        "SELECT delivery_status FROM leads WHERE id = ?1",
        failed?.id,
      );
      return row?.delivery_status === "sent" || undefined;
    }, 15_000);
    const afterResend = await panelCounts();
    expect(afterResend.failed).toBe(before.failed - 1);

    expect((await staff.call("DELETE", `/api/leads/${pendingId}`)).status).toBe(200);
    expect(await panelCounts()).toMatchObject({ total: afterResend.total - 1, sent: afterResend.sent - 1 });
  });

  it("count a lead whose correction the CRM refused for a week as needing attention, until a person acts", async () => {
    /** A lead in the CRM whose visitor corrected their WhatsApp, refused until the cron gave up. */
    async function correctionGivenUp() {
      const lead = aLead();
      const email = await submit(lead);
      const { id } = await leadOf(email);
      await eventually(async () => {
        const [row] = await app.sql<{ delivery_status: string }>("SELECT delivery_status FROM leads WHERE id = ?1", id);
        return row?.delivery_status === "sent" || undefined;
      }, 15_000);
      jetimob.script(email, refused(500), refused(500));
      await submit({ ...lead, whatsapp: aLead().whatsapp });
      await eventually(async () => {
        const [row] = await app.sql<{ update_attempts: number; update_lease_until: number | null }>(
          "SELECT update_attempts, update_lease_until FROM leads WHERE id = ?1",
          id,
        );
        return (row?.update_attempts === 1 && row.update_lease_until === null) || undefined;
      }, 15_000);
      await ageDelivery(app, email, 8 * DAY, "update");
      await app.runCron();
      const [row] = await app.sql<{ update_status: string }>("SELECT update_status FROM leads WHERE id = ?1", id);
      expect(row?.update_status).toBe("failed");
      return id;
    }
    const failedIds = async () => {
      const list = await staff.call("GET", "/api/leads?status=falhas");
      expect(list.body.total).toBe((list.body.counts as Counts).attention);
      return (list.body.leads as { id: string }[]).map((l) => l.id);
    };

    jetimob.answerEveryone(accepted());
    const before = await panelCounts();
    const [toMark, toResend, toDelete] = [
      await correctionGivenUp(),
      await correctionGivenUp(),
      await correctionGivenUp(),
    ];
    // Still in the CRM (with the old number): counted as sent, and as needing a person.
    expect(await panelCounts()).toMatchObject({ sent: before.sent + 3, attention: before.attention + 3 });
    expect(await failedIds()).toEqual(expect.arrayContaining([toMark, toResend, toDelete]));

    expect((await staff.call("POST", `/api/leads/${toMark}/mark-sent`, {})).status).toBe(200);
    expect((await panelCounts()).attention).toBe(before.attention + 2);
    expect((await staff.call("POST", `/api/leads/${toResend}/resend`, {})).status).toBe(200);
    expect((await panelCounts()).attention).toBe(before.attention + 1);
    expect((await staff.call("DELETE", `/api/leads/${toDelete}`)).status).toBe(200);
    expect(await panelCounts()).toMatchObject({ attention: before.attention, sent: before.sent + 2 });
    const left = await failedIds();
    for (const id of [toMark, toResend, toDelete]) expect(left).not.toContain(id);
  });

  it("count a possible duplicate once, and forget it with its lead", async () => {
    const before = await panelCounts();
    const ana = aLead({ name: "Ana Dupla" });
    const bia = aLead({ name: "Bia Dupla" });
    await submit(ana);
    await submit(bia);
    // Ana's e-mail with Bia's WhatsApp, twice: two leads tied, counted once each.
    await submit({ ...ana, whatsapp: bia.whatsapp });
    await submit({ ...ana, whatsapp: bia.whatsapp });
    expect(await panelCounts()).toMatchObject({ duplicates: before.duplicates + 2, total: before.total + 2 });

    const duplicates = await staff.call("GET", "/api/leads?status=duplicados");
    expect(duplicates.body.total).toBe(before.duplicates + 2);

    const anaId = (await leadOf(String(ana.email))).id;
    expect((await staff.call("DELETE", `/api/leads/${anaId}`)).status).toBe(200);
    expect((await panelCounts()).duplicates).toBe(before.duplicates);
  });

  it("stay right when many visitors and the cron change leads at once", async () => {
    jetimob.answerEveryone(refused(503));
    const leads = Array.from({ length: 16 }, () => aLead());
    await Promise.all([...leads.map(submit), app.runCron(), app.runCron()]);
    for (const lead of leads) await leadOf(String(lead.email));
    jetimob.answerEveryone(accepted());
    await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE delivery_status = 'pending'");
    await Promise.all([app.runCron(), app.runCron(), app.runCron()]);
    const counts = await panelCounts();
    expect(counts.total).toBe((await counted()).total);
  });
});

describe("paging", () => {
  it("'Próxima' and 'Anterior' give the same pages as the page numbers, newest first", async () => {
    // Enough leads for three pages.
    const more = Array.from({ length: 110 }, () => aLead());
    for (const lead of more) await submit(lead);
    const byNumber = async (page: number) => {
      const answer = await staff.call("GET", `/api/leads?page=${page}`);
      return answer.body as { leads: { id: string }[]; first: string; last: string; page: number };
    };
    const one = await byNumber(1);
    const two = await byNumber(2);
    const three = await byNumber(3);
    expect(one.leads).toHaveLength(50);

    const next = (await staff.call("GET", `/api/leads?page=2&after=${encodeURIComponent(one.last)}`)).body;
    expect((next.leads as { id: string }[]).map((l) => l.id)).toEqual(two.leads.map((l) => l.id));
    const third = (await staff.call("GET", `/api/leads?page=3&after=${encodeURIComponent(two.last)}`)).body;
    expect((third.leads as { id: string }[]).map((l) => l.id)).toEqual(three.leads.map((l) => l.id));
    const back = (await staff.call("GET", `/api/leads?page=2&before=${encodeURIComponent(three.first)}`)).body;
    expect((back.leads as { id: string }[]).map((l) => l.id)).toEqual(two.leads.map((l) => l.id));
    expect(back.page).toBe(2);
  });

  it("reads a deep page reached with 'Próxima' for what the first page costs", async () => {
    const rowsRead = (call: { headers: Headers }) => Number(call.headers.get("d1-rows-read"));
    const one = await staff.call("GET", "/api/leads");
    const two = await staff.call("GET", `/api/leads?page=2&after=${encodeURIComponent(String(one.body.last))}`);
    const three = await staff.call("GET", `/api/leads?page=3&after=${encodeURIComponent(String(two.body.last))}`);
    const threeByNumber = await staff.call("GET", "/api/leads?page=3");
    expect(rowsRead(one)).toBeGreaterThan(50);
    expect(rowsRead(three)).toBeLessThanOrEqual(rowsRead(one) + 5);
    // By its number alone (a reload), the page is found by skipping the 100 before it.
    expect(rowsRead(threeByNumber)).toBeGreaterThan(rowsRead(three) + 90);
  });
});
