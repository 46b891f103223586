import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { aLead, postLead, uniqueIp } from "../support/leads";
import { sleep } from "../support/net";
import { StaffClient, staffEmail } from "../support/staff";

// The D1 counters (no binding, the default) are covered by lead.test.ts and
// auth.test.ts. Here the local simulation of Cloudflare's Rate Limiting
// binding stands in for the real one, with small limits; the bindings are the
// ones wrangler.toml documents, commented out.
const BINDINGS = [
  { name: "LEAD_RATE_LIMITER", namespace_id: "1001", simple: { limit: 3, period: 60 } },
  { name: "SIGN_IN_RATE_LIMITER", namespace_id: "1002", simple: { limit: 3, period: 60 } },
];

const LEAD_LIMITED = "Muitos envios em pouco tempo. Aguarde alguns minutos e tente novamente.";
const SIGN_IN_LIMITED = "Muitas tentativas de login em pouco tempo. Aguarde um minuto e tente novamente.";

let app: App;

beforeAll(async () => {
  app = await spawnApp({ ratelimits: BINDINGS });
});

afterAll(async () => {
  await app?.stop();
});

/** The local binding counts in windows aligned to the minute: start a burst well inside one. */
async function awayFromMinuteBoundary(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await sleep(left + 250);
}

async function counterKeys(prefix: string): Promise<string[]> {
  const rows = await app.sql<{ key: string }>("SELECT key FROM rate_limits WHERE key LIKE ?1 || '%'", prefix);
  return rows.map((r) => r.key);
}

describe("with the Rate Limiting binding configured", () => {
  it("counts lead submissions per address at the edge and writes no D1 counter", async () => {
    await awayFromMinuteBoundary();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postLead(app, aLead(), { ip })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await postLead(app, aLead(), { ip });
    expect(limited.body.error).toBe(LEAD_LIMITED);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await postLead(app, aLead(), { ip: uniqueIp() })).status).toBe(200);
    expect(await counterKeys("lead:")).toEqual([]);
  });

  it("counts sign-in attempts per address at the edge; the per-e-mail failures stay in D1", async () => {
    await awayFromMinuteBoundary();
    const client = new StaffClient(app);
    const email = staffEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.login(email, "senha-errada")).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await client.login(email, "senha-errada");
    expect(limited.body.error).toBe(SIGN_IN_LIMITED);
    expect(await counterKeys("login-ip:")).toEqual([]);
    expect(await counterKeys("login-email:")).toEqual([`login-email:${email}`]);
  });
});
