import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, startDevServer } from "../support/dev-server";
import { aLead, LEAD_PATH, uniqueIp } from "../support/leads";
import { eventually } from "../support/net";

// The other tests start the worker through wrangler's test harness. This one
// runs what `make dev` runs (tests/support/dev-server.ts), on a local D1 of
// its own, and talks to it through the port `wrangler dev` prints.
let dev: DevServer;
let baseUrl = "";
const OWNER = "dona@agencia.example";

beforeAll(async () => {
  dev = await startDevServer({
    // An owner (approved), who gets the new-lead notices and the delivery alerts.
    before: [
      "INSERT INTO staff_users (id, email, password_hash, created_at, confirmed_at, approved_at, role, lead_notices, " +
        `notices_sent_through) VALUES ('dev-owner', '${OWNER}', '!', 0, 0, 0, 'owner', 1, 0)`,
    ],
  });
  baseUrl = dev.url;
}, 180_000);

afterAll(async () => {
  await dev?.stop();
});

describe("make dev's wrangler dev", () => {
  it("serves the landing page with its security headers", async () => {
    const page = await fetch(`${baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await page.text()).toContain("Quero meu acesso antecipado ao lançamento exclusivo");
  });

  it("stores a lead in the local D1 the migrations made, and keeps it there", async () => {
    const lead = aLead({ name: "Dora Desenvolvimento" });
    const answer = await fetch(baseUrl + LEAD_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl, "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify(lead),
    });
    expect(answer.status).toBe(200);
    expect(await dev.sql("SELECT name, email FROM leads")).toEqual([
      { name: "Dora Desenvolvimento", email: lead.email },
    ]);
  });

  it("fires the cron by itself: the lead's notice and the delivery alert are written to the log", async () => {
    await eventually(
      // A notice's subject never carries the lead's words; its text names the lead.
      async () =>
        (dev.output().includes("Subject: Novo lead no site") && dev.output().includes("Dora Desenvolvimento")) ||
        undefined,
      60_000,
    );
    await eventually(
      async () => dev.output().includes("Subject: Leads não estão chegando ao Jetimob") || undefined,
      60_000,
    );
    expect(dev.output()).toContain(`To: ${OWNER}`);
    expect(dev.output()).toContain("A entrega ao Jetimob está desligada");
    // Its links open this local panel, not the live site.
    expect(dev.output()).toMatch(new RegExp(`${baseUrl}/admin/leads/[\\w-]+`));
    expect(dev.output()).toContain(`${baseUrl}/admin`);
  });

  it("runs the cron handler when asked, as Cloudflare will every minute", async () => {
    const cron = await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`);
    expect(cron.status).toBe(200);
  });

  it("upgrades the same local D1 again without complaint: nothing is left to apply", async () => {
    const { stdout } = await dev.make("db");
    expect(stdout).toMatch(/No migrations to apply/);
  });
});
