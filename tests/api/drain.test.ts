import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead } from "../support/leads";
import { insertLeads } from "../support/seed";
import { type StaffClient, signedInStaff } from "../support/staff";

// After an outage the backlog drains at Jetimob's pace: each cron run keeps
// sending, six at a time, while Jetimob takes them; a 429 leaves it alone
// for its Retry-After; a Jetimob that slows to a crawl ends the run's
// sending, and nothing waiting is lost or sent twice.
let app: App;
let staff: StaffClient;
const jetimob = new FakeJetimob();
const mail = new FakeMail();

beforeAll(async () => {
  await Promise.all([jetimob.start(), mail.start()]);
  app = await spawnApp({ vars: { ...jetimob.settings(), ...mail.settings() } });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([jetimob.stop(), mail.stop()]);
});

/** `n` leads waiting for Jetimob since an outage, every one due now. */
async function backlog(n: number): Promise<string[]> {
  const now = Date.now();
  const leads = await insertLeads(
    app,
    Array.from({ length: n }, (_, i) => ({
      created_at: now - (n - i) * 1_000,
      delivery_attempts: 1,
      last_error: "HTTP 503: fora do ar",
      next_attempt_at: now - 1,
    })),
  );
  return leads.map((l) => l.email);
}

/** What the health check says of the backlog (its first answer: an isolate keeps one for 10 s). */
async function health(): Promise<{ waiting: number; oldest_pending_minutes: number }> {
  const answer = await fetch(`${app.baseUrl}/api/health`);
  return (await answer.json()) as { waiting: number; oldest_pending_minutes: number };
}

/** How many times each e-mail reached the fake. */
function callsPerEmail(emails: string[]): number[] {
  return emails.map((e) => jetimob.callsFor(e).length);
}

async function sentCount(emails: string[]): Promise<number> {
  const rows = await app.sql<{ n: number }>(
    "SELECT count(*) AS n FROM leads WHERE delivery_status = 'sent' AND email IN (SELECT value FROM json_each(?1))",
    JSON.stringify(emails),
  );
  return rows[0]?.n ?? 0;
}

describe("a backlog after an outage", () => {
  it("of 300 leads reaches Jetimob within two cron runs, none twice, with four runs in parallel", async () => {
    jetimob.answerEveryone({ accept: true });
    const emails = await backlog(300);
    expect((await health()).waiting).toBe(300);
    await Promise.all([app.runCron(), app.runCron(), app.runCron(), app.runCron()]);
    await app.runCron();
    expect(await sentCount(emails)).toBe(300);
    expect(callsPerEmail(emails).every((n) => n === 1)).toBe(true);
  }, 120_000);

  it("serves the newest leads as well as the oldest from the first batch", async () => {
    jetimob.clear();
    jetimob.answerEveryone({ status: 503, body: { error: "fora do ar" } });
    const emails = await backlog(40);
    await app.runCron();
    // Jetimob struggles: one batch, then the run stops sending.
    const tried = emails.filter((e) => jetimob.callsFor(e).length > 0);
    expect(tried).toHaveLength(6);
    expect(tried).toEqual(expect.arrayContaining([...emails.slice(0, 3), ...emails.slice(-3)]));
  });
});

describe("the panel, while a backlog waits", () => {
  it("says how many leads wait and how long the oldest has, and shows it shrink", async () => {
    jetimob.clear();
    jetimob.answerEveryone({ status: 503, body: { error: "fora do ar" } });
    const now = Date.now();
    await insertLeads(
      app,
      Array.from({ length: 12 }, (_, i) => ({
        created_at: now - 40 * 60_000 + i,
        delivery_attempts: 1,
        last_error: "HTTP 503: fora do ar",
        next_attempt_at: now - 1,
      })),
    );
    await app.runCron();
    const before = (await staff.call("GET", "/api/leads")).body.incident as { summary: string; oldest_waiting: string };
    const [waiting] = await app.sql<{ n: number }>(
      "SELECT count(*) AS n FROM leads WHERE delivery_status IN ('pending', 'failed')",
    );
    expect(before.summary).toMatch(new RegExp(` ${waiting?.n} leads esperando envio\\.$`));
    expect(before.oldest_waiting).toBe("O mais antigo espera há 40 minutos.");

    // Jetimob is back: one run later the panel reads the backlog gone.
    jetimob.answerEveryone({ accept: true });
    await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE delivery_status = 'pending'");
    await app.runCron();
    const after = (await staff.call("GET", "/api/leads")).body.incident;
    expect(after).toBeNull();
  });
});

describe("Jetimob answering 429 with Retry-After: 30", () => {
  it("gets nothing more for 30 seconds, new leads included, and then the rest", async () => {
    jetimob.clear();
    jetimob.answerEveryone({ status: 429, body: { error: "rate limit" }, headers: { "Retry-After": "30" } });
    const emails = await backlog(20);
    const before = Date.now();
    await app.runCron();
    expect(jetimob.calls).toHaveLength(6);
    const [pause] = await app.sql<{ value: number }>(
      "SELECT value FROM cron_state WHERE name = 'paused_until:jetimob'",
    );
    expect(pause?.value).toBeGreaterThanOrEqual(before + 30_000);
    expect(pause?.value).toBeLessThanOrEqual(Date.now() + 30_000);

    // Within the 30 seconds: no run, and no new lead's first attempt, calls it.
    jetimob.answerEveryone({ accept: true });
    await app.runCron();
    const fresh = aLead();
    expect((await postLead(app, fresh)).status).toBe(200);
    await app.runCron();
    expect(jetimob.calls).toHaveLength(6);

    // 30 seconds later (the stored times moved back): the rest, the new lead among them.
    await app.sql("UPDATE cron_state SET value = value - 31000 WHERE name = 'paused_until:jetimob'");
    await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE delivery_status = 'pending'");
    await app.runCron();
    expect(await sentCount([...emails, String(fresh.email)])).toBe(21);
    expect(callsPerEmail([...emails, String(fresh.email)]).every((n) => n >= 1)).toBe(true);
  });
});

describe("Jetimob slowing to 5 seconds a request", () => {
  it("stops a run's sending within its budget, and loses nothing", async () => {
    jetimob.clear();
    jetimob.answerEveryone({ accept: true, delayMs: 6_000 });
    const emails = await backlog(30);
    const started = Date.now();
    await app.runCron();
    // One batch timed out (5 s): the run sent nothing more.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(jetimob.calls).toHaveLength(6);
    const rows = await app.sql<{ delivery_status: string; last_error: string | null }>(
      "SELECT delivery_status, last_error FROM leads WHERE email IN (SELECT value FROM json_each(?1))",
      JSON.stringify(emails),
    );
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.delivery_status === "pending")).toBe(true);

    // Back to its pace: everything arrives.
    jetimob.answerEveryone({ accept: true });
    await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE delivery_status = 'pending'");
    await app.runCron();
    expect(await sentCount(emails)).toBe(30);
  }, 60_000);
});
