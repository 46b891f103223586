import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob, refused } from "../support/fake-jetimob";
import { aLead, Browser, postLead, uniqueIp } from "../support/leads";

// The two optional questions after 'Sucesso!' reach Jetimob (a fake that
// parses the multipart form as Jetimob does) as an update of the lead it
// has: the lead's details with the message 'Respostas do visitante: …',
// once per change, never twice under parallel cron runs, and only once
// Jetimob has the lead.
let app: App;
const jetimob = new FakeJetimob();

const ANSWERS_PATH = "/functions/v1/lead-answers";
const PREFIX = "Respostas do visitante: ";

beforeAll(async () => {
  await jetimob.start();
  app = await spawnApp({ vars: jetimob.settings() });
});

afterAll(async () => {
  await app?.stop();
  await jetimob.stop();
});

/** A lead sent from its own browser, which keeps its proof, and that Jetimob took. */
async function leadInJetimob() {
  const browser = new Browser();
  const lead = aLead();
  const email = String(lead.email);
  expect((await postLead(app, lead, { browser })).status).toBe(200);
  await vi.waitFor(
    async () => {
      const [row] = await app.sql<{ delivery_status: string }>(
        "SELECT delivery_status FROM leads WHERE email = ?1",
        email,
      );
      expect(row?.delivery_status).toBe("sent");
    },
    { timeout: 10_000, interval: 100 },
  );
  const [row] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", email);
  return { browser, email, id: String(row?.id) };
}

async function answer(browser: Browser, question: string, option: string): Promise<void> {
  const response = await fetch(app.baseUrl + ANSWERS_PATH, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": uniqueIp(),
      Origin: app.baseUrl,
      Cookie: browser.header() ?? "",
    },
    body: JSON.stringify({ question, answer: option }),
  });
  expect(response.status, await response.text()).toBe(200);
}

/** What Jetimob was told of this person's answers, in order. */
const answersSent = (email: string) =>
  jetimob
    .callsFor(email)
    .map((c) => c.fields.message ?? "")
    .filter((m) => m.startsWith(PREFIX));

describe("the visitor's answers", () => {
  it("reach Jetimob once per change, with every answer as it stands, under four cron runs at once", async () => {
    const { browser, email, id } = await leadInJetimob();
    await answer(browser, "finalidade", "Para investir");
    await Promise.all([app.runCron(), app.runCron(), app.runCron(), app.runCron()]);
    expect(answersSent(email)).toEqual([`${PREFIX}Para morar ou investir? Para investir`]);
    const [call] = jetimob.callsFor(email).slice(-1);
    // An update of the lead Jetimob has: its details, as for a correction.
    expect(call?.fields).toMatchObject({ email, full_name: expect.any(String), phone: expect.any(String) });

    await answer(browser, "prazo", "Em até 1 ano");
    // The same answer again changes nothing, and tells Jetimob nothing.
    await answer(browser, "finalidade", "Para investir");
    await Promise.all([app.runCron(), app.runCron()]);
    await app.runCron();
    expect(answersSent(email)).toEqual([
      `${PREFIX}Para morar ou investir? Para investir`,
      `${PREFIX}Para morar ou investir? Para investir; Quando pretende comprar? Em até 1 ano`,
    ]);
    const [delivery] = await app.sql<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM deliveries WHERE lead_id = ?1 AND destination = 'jetimob_answers'",
      id,
    );
    expect(delivery).toEqual({ status: "sent", attempts: 1 });
  });

  it("wait until Jetimob has the lead", async () => {
    const { browser, email, id } = await leadInJetimob();
    // As if Jetimob had not taken the lead yet: its next attempt is tomorrow.
    await app.sql(
      "UPDATE leads SET delivery_status = 'pending', sent_at = NULL, sent_by = NULL, next_attempt_at = ?2 WHERE id = ?1",
      id,
      Date.now() + 86_400_000,
    );
    await answer(browser, "finalidade", "Os dois");
    await app.runCron();
    expect(answersSent(email)).toEqual([]);

    await app.sql(
      "UPDATE leads SET delivery_status = 'sent', sent_at = ?2, sent_by = 'crm' WHERE id = ?1",
      id,
      Date.now(),
    );
    await app.runCron();
    expect(answersSent(email)).toEqual([`${PREFIX}Para morar ou investir? Os dois`]);
  });

  it("are tried again when Jetimob refuses them, and go once it takes them", async () => {
    const { browser, email, id } = await leadInJetimob();
    jetimob.script(email, refused(503));
    await answer(browser, "prazo", "Ainda não sei");
    await app.runCron();
    const [waiting] = await app.sql<{ status: string; last_error: string | null; next_attempt_at: number }>(
      "SELECT status, last_error, next_attempt_at FROM deliveries WHERE lead_id = ?1 AND destination = 'jetimob_answers'",
      id,
    );
    expect(waiting?.status).toBe("pending");
    expect(waiting?.last_error).toContain("503");
    expect(waiting?.next_attempt_at).toBeGreaterThan(Date.now());

    // Its next attempt comes (and Jetimob's pause after the 503 is over).
    await app.sql(
      "UPDATE deliveries SET next_attempt_at = ?2 WHERE lead_id = ?1 AND destination = 'jetimob_answers'",
      id,
      Date.now() - 1,
    );
    await app.sql("DELETE FROM cron_state WHERE name LIKE 'paused_until:%'");
    await app.runCron();
    expect(answersSent(email)).toEqual([
      `${PREFIX}Quando pretende comprar? Ainda não sei`,
      `${PREFIX}Quando pretende comprar? Ainda não sei`,
    ]);
    const [sent] = await app.sql<{ status: string }>(
      "SELECT status FROM deliveries WHERE lead_id = ?1 AND destination = 'jetimob_answers'",
      id,
    );
    expect(sent?.status).toBe("sent");
  });
});
