import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../support/dev-server";
import { FakeJetimob, redirected } from "../support/fake-jetimob";
import { aLead, LEAD_PATH, uniqueIp } from "../support/leads";
import { eventually } from "../support/net";

// workerd's own network, through `wrangler dev`: wrangler's test harness, which
// the other tests use, hands the worker's outbound requests to Node's fetch,
// which follows a redirect whatever the worker asked.
let fake: FakeJetimob;
let dev: DevServer;

beforeAll(async () => {
  fake = await new FakeJetimob().start();
  dev = await startDevServer({ settings: fake.settings() });
}, 180_000);

afterAll(async () => {
  await dev?.stop();
  await fake?.stop();
});

type Delivery = { delivery_status: string; jetimob_enviado: number; delivery_attempts: number; last_error: string };

describe("a redirect from Jetimob's address", () => {
  it("is a failed attempt, never followed: a page answering the GET it would become does not mark the lead sent", async () => {
    const lead = aLead();
    // Where a login page, or an http-to-https move, would send the POST: the
    // fake answers any request there 200 with an id, as a page answers a GET.
    fake.script(String(lead.email), redirected(`${fake.url}/entrar`));
    const answer = await fetch(dev.url + LEAD_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: dev.url, "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify(lead),
    });
    expect(answer.status).toBe(200);

    const [row] = await eventually(async () => {
      const rows = await dev.sql<Delivery>(
        `SELECT delivery_status, jetimob_enviado, delivery_attempts, last_error FROM leads WHERE email = '${lead.email}'`,
      );
      return rows[0] && rows[0].delivery_attempts >= 1 ? rows : undefined;
    }, 30_000);
    expect(row).toMatchObject({ delivery_status: "pending", jetimob_enviado: 0, delivery_attempts: 1 });
    expect(row?.last_error).toBe("HTTP 302 (redirecionado: confira JETIMOB_BASE_URL)");
    expect(fake.calls.map((c) => c.path)).not.toContain("/entrar");
  });
});
