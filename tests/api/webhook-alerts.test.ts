import { createHmac } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cronRowCounts } from "../../scripts/local-worker.mjs";
import { nothingDueUntilTomorrow, seedLeadsThrough } from "../../scripts/seed-leads.mjs";
import {
  ALERT,
  attempted,
  banner,
  cronRuns,
  healthOnceItAnswers,
  MINUTE,
  type Scenario,
  scenario,
  stopAfterTest,
  stopScenarios,
  subjects,
  submit,
  WEBHOOK_ALERT,
  WEBHOOK_RECOVERED,
  withWebhook,
} from "../support/alert-scenario";
import { spawnApp } from "../support/app";
import { FakeService } from "../support/fake-http";
import { accepted, FakeJetimob, refused } from "../support/fake-jetimob";
import { aLead } from "../support/leads";

// The alerts' webhook (ALERT_WEBHOOK_URL): every event, in order, signed, at
// the receiver's pace, and its own alert when it keeps refusing.

afterEach(stopScenarios);
afterAll(stopScenarios);

describe("the webhook (ALERT_WEBHOOK_URL)", () => {
  it("gets each lead and each incident as JSON, retried after a failure", async () => {
    const hook = await new FakeService(() => ({ status: 500, body: { error: "fora" } })).start();
    const jetimob = await new FakeJetimob().start();
    const app = await spawnApp({
      vars: {
        ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads`,
        ...jetimob.settings(),
        SITE_ORIGIN: "https://painel.example",
      },
    });
    stopAfterTest(async () => {
      await app.stop();
      await jetimob.stop();
      await hook.stop();
    });
    const events = () =>
      hook.received.map((r) => ({
        path: r.path,
        type: r.headers["content-type"],
        body: JSON.parse(r.body.toString()),
      }));

    jetimob.answerEveryone(refused(401));
    const lead = aLead({ name: "Wanda Webhook", whatsapp: "(49) 98123-0001", utm_campaign: "outono" });
    await submit(app, lead);
    await attempted(app, String(lead.email));
    await app.runCron();
    const first = events();
    expect(first.map((e) => e.body.event).sort()).toEqual(["delivery.incident", "lead.created"]);
    const created = first.find((e) => e.body.event === "lead.created");
    expect(created?.path).toBe("/hooks/leads");
    expect(created?.type).toBe("application/json");
    expect(created?.body.lead).toMatchObject({
      name: "Wanda Webhook",
      email: lead.email,
      whatsapp: "+5549981230001",
      utm_campaign: "outono",
    });
    expect(created?.body.lead.panel_url).toMatch(/^https:\/\/painel\.example\/admin\/leads\/[\w-]+$/);
    expect(first.find((e) => e.body.event === "delivery.incident")?.body).toMatchObject({
      reasons: ["keys_refused"],
      waiting: 1,
    });
    // Without ALERT_WEBHOOK_SECRET, nothing is signed.
    expect(hook.received.map((r) => r.headers["x-webhook-signature"])).toEqual([undefined, undefined]);

    // Both failed (HTTP 500): they wait for their next try, then go again, once each.
    hook.respondWith(() => ({ status: 204 }));
    await app.runCron();
    expect(hook.received).toHaveLength(2);
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    await app.runCron();
    const retried = events().slice(2);
    expect(retried.map((e) => e.body.event).sort()).toEqual(["delivery.incident", "lead.created"]);
    expect(retried.find((e) => e.body.event === "lead.created")?.body).toEqual(created?.body);
    expect(await app.sql("SELECT status, attempts FROM webhook_events ORDER BY id")).toEqual([
      { status: "sent", attempts: 2 },
      { status: "sent", attempts: 2 },
    ]);

    // A correction is lead.updated with what changed; the recovery is delivery.recovered.
    hook.clear();
    jetimob.answerEveryone(accepted());
    await submit(app, { ...lead, whatsapp: "(49) 98123-0002" });
    await app.sql("UPDATE leads SET next_attempt_at = 0");
    await app.runCron();
    await app.runCron();
    const later = events().map((e) => e.body);
    expect(later.map((e) => e.event).sort()).toEqual(["delivery.recovered", "lead.updated"]);
    expect(later.find((e) => e.event === "lead.updated")).toMatchObject({
      lead: { name: "Wanda Webhook", whatsapp: "+5549981230002" },
      before: { whatsapp: "+5549981230001" },
    });
  });
});

describe("the webhook, on a launch-day crowd", () => {
  it("gets every waiting lead in one cron run, and an incident before the leads that waited longer", async () => {
    // The receiver is down while 20 leads arrive: their events wait.
    const s = await withWebhook(() => ({ status: 503 }));
    const emails = await Promise.all(Array.from({ length: 20 }, () => submit(s.app)));
    for (const email of emails) await attempted(s.app, email);
    await s.app.runCron();
    // It is back; Jetimob now refuses our keys, which the next run finds.
    s.hook.clear();
    s.hook.respondWith(() => ({ status: 204 }));
    s.jetimob.answerEveryone(refused(401));
    const refusedLead = await submit(s.app);
    await attempted(s.app, refusedLead);
    await s.app.runCron();
    const events = s.hook.received.map((r) => JSON.parse(r.body.toString()).event as string);
    expect(events[0]).toBe("delivery.incident");
    expect(events.filter((e) => e === "lead.created")).toHaveLength(21);
    expect(await s.app.sql("SELECT count(*) AS n FROM webhook_events WHERE status = 'pending'")).toEqual([{ n: 0 }]);
  });
});

describe("the webhook, after its receiver was down for a day", () => {
  /**
   * 3,000 leads' events made over the last day and refused once or twice, each due `dueAfter`
   * ms after it was made; none of the leads is due at Jetimob this minute.
   */
  async function backlog(s: Scenario, dueAfter: number) {
    await seedLeadsThrough(s.app.db, { count: 3000, seed: 5 });
    await nothingDueUntilTomorrow(s.app.db);
    await s.app.sql(
      `INSERT INTO webhook_events (event, submission_id, created_at, next_attempt_at, attempts, last_error)
       SELECT 'lead.created', id, ?1 - 86400000 + id * 20000, ?1 - 86400000 + id * 20000 + ?2,
              1 + id % 2, 'HTTP 503: {}'
       FROM lead_submissions`,
      Date.now() - 3_600_000,
      dueAfter,
    );
    await s.app.sql(
      "INSERT OR REPLACE INTO cron_state (name, value) VALUES ('webhook_cursor', (SELECT max(id) FROM lead_submissions))",
    );
  }

  it("while it is still down, each run reads a few rows, not the events waiting out their backoff", async () => {
    const s = await withWebhook(() => ({ status: 503 }));
    await backlog(s, 30 * 3_600_000);
    // The first run opens an incident for the seeded leads Jetimob never took; its event is refused.
    await s.app.runCron();
    await s.app.runCron();
    expect(s.hook.received.map((r) => JSON.parse(r.body.toString()).event)).toEqual(["delivery.incident"]);
    // Each claim looks only at what is due, and the watch at events refused three times: a run
    // read 3,071 rows before (every refused event, each minute of the outage).
    expect(cronRowCounts(s.app.logs()).at(-1)?.read).toBeLessThanOrEqual(100);
  }, 120_000);

  it("sends the events in order, each run reading the events it sends, not the thousands waiting", async () => {
    const s = await withWebhook(() => ({ status: 204 }));
    await backlog(s, 300_000);
    const oldestDue = await s.app.sql<{ submission_id: number }>(
      "SELECT submission_id FROM webhook_events ORDER BY next_attempt_at, id LIMIT 30",
    );

    // An incident meanwhile: its event goes before the leads'.
    await s.app.sql(
      `INSERT INTO webhook_events (event, payload, created_at, next_attempt_at, once_key)
       VALUES ('delivery.incident', '{"event":"delivery.incident"}', ?1, ?1, 'incident:9')`,
      Date.now(),
    );
    await s.app.runCron();
    const sent = s.hook.received.map((r) => JSON.parse(r.body.toString()) as { event: string; lead?: { id: string } });
    expect(sent).toHaveLength(30);
    // The incidents (this one, and the one the run opened for the leads Jetimob never took) first.
    const incidents = sent.filter((e) => !e.lead);
    expect(incidents.map((e) => e.event)).toEqual(["delivery.incident", "delivery.incident"]);
    expect(sent.slice(0, 2)).toEqual(incidents);
    const sentIds = (
      await s.app.sql<{ submission_id: number }>(
        "SELECT submission_id FROM webhook_events WHERE status = 'sent' AND submission_id IS NOT NULL ORDER BY submission_id",
      )
    ).map((e) => e.submission_id);
    expect(sentIds).toEqual(
      oldestDue
        .slice(0, 28)
        .map((e) => e.submission_id)
        .sort((a, b) => a - b),
    );

    // A run reads what it sends (about 14 rows an event: its claim, its lead's submissions and
    // its mark as sent) and the watch reads no refused event (none was refused three times),
    // not the 3,000 waiting: each claim sorted them, and the watch read them all (32,969 rows).
    await s.app.runCron();
    const runs = cronRowCounts(s.app.logs());
    expect(s.hook.received).toHaveLength(60);
    expect(runs.at(-1)?.read).toBeLessThanOrEqual(500);
  }, 120_000);
});

describe("the webhook's POSTs, for a receiver that checks them", () => {
  it("carry the same id on every retry, and with ALERT_WEBHOOK_SECRET a signature of their moment and body", async () => {
    const secret = "segredo-do-webhook-de-teste";
    const hook = await new FakeService(() => ({ status: 503, body: { error: `fora; segredo ${secret}` } })).start();
    const app = await spawnApp({
      vars: { ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads`, ALERT_WEBHOOK_SECRET: secret },
    });
    stopAfterTest(async () => {
      await app.stop();
      await hook.stop();
    });
    await submit(app);
    await app.runCron();
    // What is kept of the failure never holds the secret, even when the receiver echoes it.
    const [failed] = await app.sql<{ last_error: string }>(
      "SELECT last_error FROM webhook_events WHERE event = 'lead.created'",
    );
    expect(failed?.last_error).toContain("HTTP 503");
    expect(failed?.last_error).not.toContain(secret);

    hook.respondWith(() => ({ status: 204 }));
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    // The lead's event (no Jetimob keys here, so an incident's event goes beside it).
    const posts = hook.received.filter((r) => JSON.parse(r.body.toString()).event === "lead.created");
    expect(posts).toHaveLength(2);
    const [first, retry] = posts;
    expect(first?.headers["x-webhook-id"]).toMatch(/^\d+$/);
    expect(retry?.headers["x-webhook-id"]).toBe(first?.headers["x-webhook-id"]);
    for (const post of [first, retry]) {
      const timestamp = String(post?.headers["x-webhook-timestamp"]);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      // Computed as a receiver would, from the raw body it got.
      const expected = createHmac("sha256", secret).update(`${timestamp}.${post?.body.toString()}`).digest("hex");
      expect(post?.headers["x-webhook-signature"]).toBe(`v1=${expected}`);
    }
  });
});

describe("a webhook that keeps refusing (its channel hears nothing)", () => {
  it("is an incident after three refused tries: the owners are e-mailed, the banner says what to check, and it ends once the events go", async () => {
    const s = await withWebhook(() => ({ status: 404, body: { error: "no such hook" } }));
    const { app, mail, owner, hook } = s;
    const retryNow = () => app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");

    // A lead's event is refused, and refused again a minute later: a hiccup, not yet an incident.
    await submit(app);
    await app.runCron();
    await retryNow();
    await app.runCron();
    await cronRuns(app, 1);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([]);

    // The third try is refused too: one alert, however many runs see it.
    await retryNow();
    await app.runCron();
    await cronRuns(app, 3);
    const alerts = mail.messagesTo(owner.email).filter((m) => m.subject === WEBHOOK_ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toMatch(
      /^O webhook do site não está recebendo os avisos desde \d\d\/\d\d\/\d{4} \d\d:\d\d\./,
    );
    expect(alerts[0]?.text).toContain("O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso três vezes");
    expect(alerts[0]?.text).toContain("Confira se o endereço em ALERT_WEBHOOK_URL continua válido");
    const shown = await banner(s);
    expect(shown?.summary).toMatch(/^O webhook do site não está recebendo os avisos desde/);
    expect(shown?.details.map((d) => d.what)).toEqual([
      "O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso três vezes: o canal que o recebe (um chat, uma automação) está sem notícias dos novos leads e dos alertas.",
    ]);
    // A secret to change: an owner's step, which the panel shows everyone else as one to pass on.
    expect(shown?.details.map((d) => d.owners)).toEqual([true]);
    const degraded = await healthOnceItAnswers(app, 503);
    expect(degraded.body.reason).toBe("delivery incident: webhook_failing");

    // The address is fixed: the waiting events go (the incident's own among them), and it ends.
    hook.respondWith(() => ({ status: 204 }));
    await retryNow();
    await app.runCron();
    await cronRuns(app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([WEBHOOK_ALERT, WEBHOOK_RECOVERED]);
    const delivered = await app.sql<{ event: string; status: string }>(
      "SELECT event, status FROM webhook_events ORDER BY id",
    );
    expect(delivered).toEqual([
      { event: "lead.created", status: "sent" },
      { event: "delivery.incident", status: "sent" },
      { event: "delivery.recovered", status: "sent" },
    ]);
    // Every cron run asks it (alerts::incidents' snapshot); the events sent, one per lead
    // for months, are not read, nor those refused fewer times: the first entry of the
    // refused events' partial index (0013) answers it.
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN SELECT min(created_at) FROM webhook_events INDEXED BY webhook_events_refused WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3",
    );
    expect(plan.map((p) => p.detail)).toEqual(["SEARCH webhook_events USING INDEX webhook_events_refused"]);
  });

  it("ends within minutes of the receiver answering again, not after the refused events' backoff (up to 6 hours)", async () => {
    const s = await withWebhook(() => ({ status: 404, body: { error: "no such hook" } }));
    const { app, mail, owner, hook } = s;
    await submit(app);
    for (let i = 0; i < 3; i++) {
      await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
      await app.runCron();
    }
    await cronRuns(app, 2);
    expect(await banner(s)).not.toBeNull();
    const waiting = await app.sql<{ next_attempt_at: number }>(
      "SELECT next_attempt_at FROM webhook_events WHERE status = 'pending' AND attempts >= 3",
    );
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((e) => e.next_attempt_at > Date.now() + 10 * MINUTE)).toBe(true);

    // Fixed; the next lead's event goes through, and the refused ones follow at once.
    hook.respondWith(() => ({ status: 204 }));
    await submit(app);
    await cronRuns(app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([WEBHOOK_ALERT, WEBHOOK_RECOVERED]);
    expect(await app.sql("SELECT status FROM webhook_events WHERE status != 'sent'")).toEqual([]);
    // Asked after each run's first event sent: the pending events only, through their index.
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN UPDATE webhook_events SET next_attempt_at = 1 WHERE status = 'pending' AND next_attempt_at > 1 AND last_error IS NOT NULL",
    );
    expect(plan.map((p) => p.detail)).toEqual([
      "SEARCH webhook_events USING INDEX webhook_events_due (next_attempt_at>?)",
    ]);
  });
});

describe("a webhook switched off (ALERT_WEBHOOK_URL removed) while it was refusing", () => {
  it("is no incident: what waited for it is marked failed, and a URL set later starts afresh", async () => {
    const s = await scenario({ keys: true });
    // What a refusing webhook left when its URL was removed: a lead's event refused three
    // times, and the cursor of the submissions already turned into events.
    await submit(s.app);
    const [submission] = await s.app.sql<{ id: number }>("SELECT max(id) AS id FROM lead_submissions");
    await s.app.batch([
      [
        "INSERT INTO webhook_events (event, submission_id, created_at, next_attempt_at, attempts, last_error) VALUES ('lead.created', ?1, ?2, 0, 3, 'HTTP 404: no such hook')",
        submission?.id,
        Date.now() - 30 * MINUTE,
      ],
      ["INSERT INTO cron_state (name, value) VALUES ('webhook_cursor', ?1)", submission?.id],
    ]);
    await cronRuns(s.app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([]);
    expect(await s.app.sql("SELECT status, last_error FROM webhook_events")).toEqual([
      { status: "failed", last_error: "webhook desligado (sem ALERT_WEBHOOK_URL)" },
    ]);
    expect(await s.app.sql("SELECT value FROM cron_state WHERE name = 'webhook_cursor'")).toEqual([]);
  });
});

describe("the webhook while the e-mail API refuses (the alerts themselves are e-mails)", () => {
  it("hears the incident and the e-mail trouble, once each, and then each end", async () => {
    const { app, mail, jetimob, owner, hook } = await withWebhook(() => ({ status: 204 }));
    /** The events that are not leads, as the webhook got them. */
    const told = () =>
      hook.received
        .map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>)
        .filter((e) => !String(e.event).startsWith("lead."));
    await cronRuns(app, 1);
    expect(told()).toEqual([]);

    // The e-mail API's key is revoked, and Jetimob refuses ours: no alert e-mail can go.
    mail.respondWith(() => ({ status: 401, body: { message: "API key is invalid" } }));
    jetimob.answerEveryone(refused(401));
    const email = await submit(app);
    await attempted(app, email);
    await cronRuns(app, 3);
    const during = told();
    expect(during.map((e) => e.event).sort()).toEqual(["delivery.incident", "mail.failing"]);
    expect(during.find((e) => e.event === "delivery.incident")).toMatchObject({
      reasons: ["keys_refused"],
      waiting: 1,
      message: expect.stringMatching(/^Leads não estão chegando ao Jetimob desde/),
    });
    const failing = during.find((e) => e.event === "mail.failing");
    expect(failing?.message).toMatch(
      /^Os e-mails do site não estão saindo: o último envio, em \d\d\/\d\d\/\d{4} \d\d:\d\d, foi recusado\.$/,
    );
    // The alert was claimed once; the API refused the owner's copy, which waits for its retry.
    expect(mail.messagesTo(owner.email).filter((m) => m.subject === ALERT)).toHaveLength(1);
    const [incident] = await app.sql<{ alerted_at: number | null }>("SELECT alerted_at FROM delivery_incidents");
    expect(incident?.alerted_at).toEqual(expect.any(Number));
    expect(await app.sql("SELECT kind, status, attempts FROM alert_mails")).toEqual([
      { kind: "alert", status: "pending", attempts: 1 },
    ]);

    // Jetimob takes our keys again while the e-mail API still refuses: the incident ends, and the webhook hears it.
    jetimob.answerEveryone(accepted());
    await app.sql("UPDATE leads SET next_attempt_at = 0");
    await cronRuns(app, 3);
    const ended = told().slice(during.length);
    expect(ended.map((e) => e.event)).toEqual(["delivery.recovered"]);
    expect(ended[0]?.message).toMatch(/^Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob/);

    // The key is fixed: the owner's own reset request goes, and the webhook hears that e-mail works again.
    const refusedTries = mail.messagesTo(owner.email).length;
    mail.respondWith(() => ({ status: 200, body: { id: "mail-ok" } }));
    expect((await owner.client.requestReset(owner.email)).status).toBe(200);
    await cronRuns(app, 3);
    const back = told().slice(during.length + ended.length);
    expect(back.map((e) => e.event)).toEqual(["mail.recovered"]);
    expect(back[0]).toMatchObject({
      since: failing?.since,
      message: expect.stringMatching(/^Os e-mails do site voltaram a sair \(o problema começou em /),
    });
    // The owners were never alerted by e-mail, so neither the alert (dropped when the incident
    // ended) nor its 'normalizada' follows, however long after.
    await app.sql("UPDATE alert_mails SET next_attempt_at = 0 WHERE status = 'pending'");
    await cronRuns(app, 2);
    expect(subjects(mail.messagesTo(owner.email).slice(refusedTries))).toEqual([]);
    expect(await app.sql("SELECT kind, status FROM alert_mails")).toEqual([{ kind: "alert", status: "failed" }]);
  });
});
