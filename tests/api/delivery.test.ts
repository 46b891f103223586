import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { accepted, FakeJetimob, refused, tooSlow } from "../support/fake-jetimob";
import { afterTheAttemptsBefore, ageDelivery, aLead, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { afterTheCountsBefore } from "../support/visits";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Slack for clocks read on both sides of a wrangler round trip. */
const CLOCK_SLACK = 3_000;

let fake: FakeJetimob;
let app: App;

beforeAll(async () => {
  fake = await new FakeJetimob().start();
  app = await spawnApp({
    vars: fake.settings(),
  });
});

afterAll(async () => {
  await app?.stop();
  await fake?.stop();
});

type LeadRow = {
  id: string;
  jetimob_enviado: number;
  created_at: number;
  delivery_status: "pending" | "sent" | "failed";
  delivery_attempts: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  last_error: string | null;
  sent_at: number | null;
  sent_by: string | null;
  jetimob_lead_id: string | null;
};

async function leadRow(on: App, email: string): Promise<LeadRow> {
  const [row] = await on.sql<LeadRow>("SELECT * FROM leads WHERE email = ?1", email);
  if (!row) throw new Error(`no lead for ${email}`);
  return row;
}

/** The lead once `attempts` attempts have been made and none is in flight. */
function afterAttempts(email: string, attempts: number, timeoutMs = 15_000): Promise<LeadRow> {
  return eventually(async () => {
    const row = await leadRow(app, email);
    return row.delivery_attempts >= attempts && row.lease_until === null ? row : undefined;
  }, timeoutMs);
}

/** Makes the lead due now, as if its backoff had passed. */
async function makeDue(email: string): Promise<void> {
  await app.sql("UPDATE leads SET next_attempt_at = 0 WHERE email = ?1", email);
}

async function submit(lead: Record<string, unknown>): Promise<string> {
  const answer = await postLead(app, lead);
  expect(answer).toMatchObject({ status: 200, body: { success: true } });
  return String(lead.email);
}

describe("a new lead", () => {
  it("is sent at once to the public key's path with the private key and the lead's fields", async () => {
    const lead = aLead({
      name: "Maria da Silva",
      whatsapp: "(49) 98123-4567",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "pre-lancamento",
      utm_term: "condominio",
      gclid: "g-123",
      page_url: "https://recantodasvideiras.com.br/?utm_source=google",
    });
    fake.script(String(lead.email), accepted(98765));
    const email = await submit(lead);

    const [call] = await eventually(async () => fake.callsFor(email).length > 0 && fake.callsFor(email));
    expect(call?.path).toBe("/leads/pub-test");
    expect(call?.authorizationKey).toBe("priv-test");
    expect(call?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call?.fields).toEqual({
      full_name: "Maria da Silva",
      email,
      phone: "+5549981234567",
      message: "Cadastro no pré-lançamento (origem: google)",
      subject: "Pré-lançamento",
      source: "Recanto das Videiras",
      url: "https://recantodasvideiras.com.br/?utm_source=google",
      gclid: "g-123",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "pre-lancamento",
    });
  });

  it("accepted by the CRM is marked sent by the CRM, with the CRM's id", async () => {
    const lead = aLead();
    fake.script(String(lead.email), accepted("L-42"));
    const before = Date.now();
    const email = await submit(lead);

    const row = await eventually(async () => {
      const r = await leadRow(app, email);
      return r.delivery_status === "sent" ? r : undefined;
    });
    expect(row).toMatchObject({
      jetimob_enviado: 1,
      delivery_status: "sent",
      sent_by: "crm",
      jetimob_lead_id: "L-42",
      delivery_attempts: 1,
      next_attempt_at: null,
      lease_until: null,
      last_error: null,
    });
    expect(Number(row.sent_at)).toBeGreaterThanOrEqual(before - CLOCK_SLACK);
    expect(Number(row.sent_at)).toBeLessThanOrEqual(Date.now() + CLOCK_SLACK);
    expect(fake.callsFor(email)).toHaveLength(1);
  });

  it("submitted again with the same details after it was sent is not sent again", async () => {
    const lead = aLead();
    const email = await submit(lead);
    await eventually(async () => (await leadRow(app, email)).delivery_status === "sent");

    await submit({ ...lead, utm_campaign: "segunda-visita" });
    await app.runCron();
    await afterTheAttemptsBefore(app, fake);
    expect(fake.callsFor(email)).toHaveLength(1);
    expect(await leadRow(app, email)).toMatchObject({ submission_count: 2, delivery_attempts: 1 });
  });

  it("submitted again while its first attempt is in flight is delivered once", async () => {
    const lead = aLead();
    fake.script(String(lead.email), accepted("once", 2_000));
    const email = await submit(lead);
    await eventually(async () => fake.callsFor(email).length > 0);

    await submit({ ...lead });
    await app.runCron();
    const row = await afterAttempts(email, 1);
    expect(row).toMatchObject({ delivery_status: "sent", jetimob_lead_id: "once", delivery_attempts: 1 });
    expect(fake.callsFor(email)).toHaveLength(1);
  });
});

describe("a lead the CRM does not take", () => {
  it("records a 500 with its status and the answer, and is retried after 1 then 5 minutes until it is accepted", async () => {
    const lead = aLead();
    fake.script(
      String(lead.email),
      refused(500, { error: "Internal Server Error" }),
      refused(503, "Service Unavailable"),
      accepted(777),
    );
    const sentAt = Date.now();
    const email = await submit(lead);

    const first = await afterAttempts(email, 1);
    expect(first).toMatchObject({ delivery_status: "pending", jetimob_enviado: 0, delivery_attempts: 1 });
    expect(first.last_error).toBe('HTTP 500: {"error":"Internal Server Error"}');
    expect(Number(first.next_attempt_at)).toBeGreaterThanOrEqual(sentAt + MINUTE - CLOCK_SLACK);
    expect(Number(first.next_attempt_at)).toBeLessThanOrEqual(Date.now() + MINUTE + CLOCK_SLACK);

    await makeDue(email);
    const cronAt = Date.now();
    await app.runCron();
    const second = await leadRow(app, email);
    expect(second).toMatchObject({ delivery_status: "pending", delivery_attempts: 2, lease_until: null });
    expect(second.last_error).toBe("HTTP 503: Service Unavailable");
    expect(Number(second.next_attempt_at)).toBeGreaterThanOrEqual(cronAt + 5 * MINUTE - CLOCK_SLACK);
    expect(Number(second.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 5 * MINUTE + CLOCK_SLACK);

    await makeDue(email);
    await app.runCron();
    expect(await leadRow(app, email)).toMatchObject({
      delivery_status: "sent",
      jetimob_enviado: 1,
      jetimob_lead_id: "777",
      delivery_attempts: 3,
      next_attempt_at: null,
    });
    expect(fake.callsFor(email)).toHaveLength(3);
  });

  it("waiting hours for its next try after an outage goes within a minute of Jetimob taking a lead again", async () => {
    const [outage, refusedForItsData, triedMinutesAgo] = [aLead(), aLead(), aLead()];
    fake.script(String(outage.email), refused(503, "Service Unavailable"), accepted());
    fake.script(String(refusedForItsData.email), refused(422, { error: "telefone inválido" }), accepted());
    fake.script(String(triedMinutesAgo.email), refused(503, "Service Unavailable"), accepted());
    const emails = [outage, refusedForItsData, triedMinutesAgo].map((l) => String(l.email));
    for (const lead of [outage, refusedForItsData, triedMinutesAgo]) await submit(lead);
    for (const email of emails) await afterAttempts(email, 1);
    // Hours into the outage: each waits on the 6-hour step, two last tried an hour ago.
    const sixHours = Date.now() + 6 * 60 * MINUTE;
    for (const email of emails)
      await app.sql("UPDATE leads SET next_attempt_at = ?1 WHERE email = ?2", sixHours, email);
    for (const email of emails.slice(0, 2)) {
      await app.sql(
        "UPDATE crm_attempts SET at = at - ?1 WHERE lead_id = (SELECT id FROM leads WHERE email = ?2)",
        60 * MINUTE,
        email,
      );
    }

    // Jetimob is back: the next visitor's lead goes at once, and the backlog with the next run.
    const fresh = await submit(aLead());
    expect(await afterAttempts(fresh, 1)).toMatchObject({ delivery_status: "sent" });
    await app.runCron();
    expect(await leadRow(app, emails[0] ?? "")).toMatchObject({ delivery_status: "sent", delivery_attempts: 2 });
    // Refused for its data (Jetimob's state changes nothing), or tried minutes ago: each waits its turn.
    for (const email of emails.slice(1)) {
      expect(await leadRow(app, email)).toMatchObject({ delivery_status: "pending", next_attempt_at: sixHours });
      expect(fake.callsFor(email)).toHaveLength(1);
    }
  });

  it("is not retried before its next attempt is due", async () => {
    const lead = aLead();
    fake.script(String(lead.email), refused(500));
    const email = await submit(lead);
    await afterAttempts(email, 1);

    await app.runCron();
    expect(await leadRow(app, email)).toMatchObject({ delivery_status: "pending", delivery_attempts: 1 });
    expect(fake.callsFor(email)).toHaveLength(1);
  });

  it("counts a 429 and a 401 as failures, and never records the keys", async () => {
    const limited = aLead();
    const unauthorized = aLead();
    fake.script(String(limited.email), refused(429, { message: "Too Many Requests" }));
    fake.script(
      String(unauthorized.email),
      refused(401, { message: "Authorization-Key priv-test is not valid for pub-test" }),
    );
    await submit(limited);
    await submit(unauthorized);

    const limitedRow = await afterAttempts(String(limited.email), 1);
    expect(limitedRow.delivery_status).toBe("pending");
    expect(limitedRow.last_error).toMatch(/^HTTP 429 \(limite de envios\): .*Too Many Requests/);

    const unauthorizedRow = await afterAttempts(String(unauthorized.email), 1);
    expect(unauthorizedRow.delivery_status).toBe("pending");
    expect(unauthorizedRow.last_error).toMatch(/^HTTP 401 \(chaves recusadas\): .*\[chave\] is not valid/);
    expect(unauthorizedRow.last_error).not.toMatch(/priv-test|pub-test/);
    expect(app.logs()).not.toMatch(/priv-test/);
  });

  it("within a long answer records at most 200 characters of it", async () => {
    const lead = aLead();
    fake.script(String(lead.email), refused(502, `<html>${"Bad Gateway ".repeat(100)}</html>`));
    const email = await submit(lead);
    const row = await afterAttempts(email, 1);
    expect(row.last_error).toMatch(/^HTTP 502: <html>Bad Gateway/);
    expect([...String(row.last_error)].length).toBeLessThanOrEqual(200);
  });

  it("answered after the timeout counts as a failed attempt", async () => {
    const lead = aLead();
    fake.script(String(lead.email), tooSlow());
    const sentAt = Date.now();
    const email = await submit(lead);

    const row = await afterAttempts(email, 1, 20_000);
    expect(row).toMatchObject({ delivery_status: "pending", jetimob_enviado: 0, delivery_attempts: 1 });
    expect(row.last_error).toBe("Sem resposta do Jetimob em 5 s");
    expect(Number(row.next_attempt_at)).toBeGreaterThanOrEqual(sentAt + MINUTE);
    expect(fake.callsFor(email)).toHaveLength(1);
  });

  it("past the seven-day retry window is marked failed and left for a person", async () => {
    const lead = aLead();
    fake.script(String(lead.email), refused(500), refused(500, "still down"));
    const email = await submit(lead);
    await afterAttempts(email, 1);

    await ageDelivery(app, email, 7 * DAY);
    await app.runCron();
    expect(await leadRow(app, email)).toMatchObject({
      delivery_status: "failed",
      jetimob_enviado: 0,
      delivery_attempts: 2,
      next_attempt_at: null,
      lease_until: null,
      last_error: "HTTP 500: still down",
    });

    await app.runCron();
    expect(fake.callsFor(email)).toHaveLength(2);
    expect((await leadRow(app, email)).delivery_status).toBe("failed");
  });

  it("first tried days after it arrived (it waited for Jetimob's keys) still gets its week of retries", async () => {
    const lead = aLead();
    fake.script(String(lead.email), refused(500), refused(500, "still down"));
    const email = await submit(lead);
    await afterAttempts(email, 1);
    // It arrived eight days before that first attempt: the week counts from the attempt.
    await app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 8 * DAY, email);
    await makeDue(email);
    await app.runCron();
    const row = await afterAttempts(email, 2);
    expect(row).toMatchObject({ delivery_status: "pending", last_error: "HTTP 500: still down" });
    // Tried again after its backoff (5 minutes after a second failure), not handed to a person.
    expect(row.next_attempt_at).toBeGreaterThan(Date.now() + 4 * MINUTE);
  });
});

describe("concurrent attempts", () => {
  it("a cron run racing the immediate attempt sends the lead once", async () => {
    const lead = aLead();
    fake.script(String(lead.email), accepted("raced", 1_500));
    const email = await submit(lead);
    await Promise.all([app.runCron(), app.runCron()]);

    const row = await afterAttempts(email, 1);
    expect(row).toMatchObject({ delivery_status: "sent", jetimob_lead_id: "raced", delivery_attempts: 1 });
    expect(fake.callsFor(email)).toHaveLength(1);
  });

  it("two overlapping cron runs send each due lead exactly once", async () => {
    const emails: string[] = [];
    for (let i = 0; i < 8; i++) {
      const lead = aLead();
      fake.script(String(lead.email), refused(500), accepted(`batch-${i}`, 1_500));
      emails.push(await submit(lead));
    }
    const ours = "email IN (SELECT value FROM json_each(?1))";
    const list = JSON.stringify(emails);
    await eventually(async () => {
      const [row] = await app.sql<{ settled: number }>(
        `SELECT count(*) AS settled FROM leads WHERE ${ours} AND delivery_attempts = 1 AND lease_until IS NULL`,
        list,
      );
      return row?.settled === emails.length;
    }, 20_000);
    await app.sql(`UPDATE leads SET next_attempt_at = 0 WHERE ${ours}`, list);

    await Promise.all([app.runCron(), app.runCron()]);

    const rows = await app.sql<LeadRow & { email: string }>(`SELECT * FROM leads WHERE ${ours}`, list);
    expect(rows).toHaveLength(emails.length);
    for (const [i, email] of emails.entries()) {
      expect(fake.callsFor(email)).toHaveLength(2);
      expect(rows.find((r) => r.email === email)).toMatchObject({
        delivery_status: "sent",
        jetimob_lead_id: `batch-${i}`,
        delivery_attempts: 2,
      });
    }
  });
});

describe("the cron", () => {
  it("drops rate-limit counters whose window ended over a day ago", async () => {
    const now = Date.now();
    await app.sql(
      "INSERT INTO rate_limits (key, window_start, count) VALUES ('test:old', ?1, 3), ('test:recent', ?2, 3)",
      now - 2 * DAY,
      now - 60 * MINUTE,
    );
    await app.runCron();
    const keys = await app.sql<{ key: string }>("SELECT key FROM rate_limits WHERE key LIKE 'test:%' ORDER BY key");
    expect(keys.map((r) => r.key)).toEqual(["test:recent"]);
  });
});

describe("without Jetimob keys", () => {
  let bare: App;

  beforeAll(async () => {
    bare = await spawnApp({ vars: { JETIMOB_BASE_URL: fake.url } });
  });

  afterAll(async () => {
    await bare?.stop();
  });

  it("leaves every lead pending and untouched, and calls nothing", async () => {
    const lead = aLead();
    const email = String(lead.email);
    expect((await postLead(bare, lead)).status).toBe(200);
    await bare.sql("UPDATE leads SET next_attempt_at = 0 WHERE email = ?1", email);
    await bare.runCron();
    await bare.runCron();
    // Without keys no lead of this site can be the marker: a visit counted after the
    // submission's answer is, and an attempt would have claimed the lead before it.
    await afterTheCountsBefore(bare);

    expect(await leadRow(bare, email)).toMatchObject({
      delivery_status: "pending",
      jetimob_enviado: 0,
      delivery_attempts: 0,
      next_attempt_at: 0,
      lease_until: null,
      last_error: null,
    });
    expect(fake.callsFor(email)).toHaveLength(0);
  });
});
