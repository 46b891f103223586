import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../support/app";
import type { FakeService } from "../support/fake-http";
import type { FakeMail } from "../support/fake-mail";
import {
  alertSubjects,
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 7c63c05 left it: migrations 0001 to 0008 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-7c63c05.sql, every table).
// 0009 is applied as production would get it, then every row is read back,
// and the panel, the cron and the webhook are used on it.
const RELEASE_MIGRATIONS = 8;
const DOMAIN = "altosdaserraimoveis.com.br";
const OWNER = { email: `ana.responsavel@${DOMAIN}`, password: "vinho-tinto-2026" };

let app: App;
let mail: FakeMail;
let hook: FakeService;
let before: Record<string, Rows>;
let after: Record<string, Rows>;
let upgraded: Upgraded | undefined;

beforeAll(async () => {
  upgraded = await upgradeRelease("7c63c05", RELEASE_MIGRATIONS);
  ({ app, mail, hook, before, after } = upgraded);
});

afterAll(() => upgraded?.stop());

/** The subjects of the alerts the owner was e-mailed (new-lead notices left out). */
function alertsToOwner(): string[] {
  return alertSubjects(mail, OWNER.email);
}

/** What the webhook was sent, oldest first. */
function told(): Record<string, unknown>[] {
  return hook.received.map((r) => JSON.parse(r.body.toString()));
}

describe("a database made by release 7c63c05", () => {
  it("was filled in every table: an open incident, its webhook event, the e-mail API's last answers", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
    expect(before.delivery_incidents).toEqual([
      expect.objectContaining({ reasons: "backlog,corrections", resolved_at: null, alerted_at: expect.any(Number) }),
    ]);
    expect(before.webhook_events?.map((e) => e.event)).toContain("delivery.incident");
    const noted = Object.fromEntries((before.cron_state ?? []).map((r) => [r.name, r.value as number]));
    expect(noted.mail_failed_at).toBeLessThan(noted.mail_sent_at ?? 0);
  });

  it("gets the migrations since, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table, ids included; the alerted incident's reasons stand for what its alert named", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(expected[table]);
    expect(after.delivery_incidents?.[0]?.alerted_reasons).toBe("backlog,corrections");
    expect(after.webhook_events?.every((e) => e.once_key === null)).toBe(true);
  });

  it("0009: webhook_events is made again with the same index, and its ids go on from the last one", async () => {
    const [table] = await app.sql<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'webhook_events'",
    );
    expect(table?.sql).toContain("'mail.failing', 'mail.recovered'");
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN SELECT id FROM webhook_events WHERE status = 'pending' AND next_attempt_at <= 1",
    );
    expect(plan.map((p) => p.detail).join(" ")).toContain("webhook_events_due");
    const [sequence] = await app.sql<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'webhook_events'");
    const lastId = Math.max(...(before.webhook_events ?? []).map((e) => e.id as number));
    expect(sequence?.seq).toBe(lastId);
  });
});

describe("after the upgrade, through the API, the cron and the webhook", () => {
  it("the open incident, alerted by the release, is not alerted again, and its end reaches the owner and the webhook once", async () => {
    await app.runCron();
    await app.runCron();
    // Alerted already, and the e-mail API took the last e-mail: only what this release
    // tells and the last did not, once: a lead given up waits for a person.
    expect(told().map((e) => e.event)).toEqual(["delivery.incident"]);
    expect(alertsToOwner()).toEqual(["Leads não estão chegando ao Jetimob"]);

    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const list = await staff.call("GET", "/api/leads?status=falhas");
    const waiting = list.body.leads as { id: string; name: string }[];
    expect(waiting.map((l) => l.name).sort()).toEqual(["Fátima Desistida", "Rui Correção Recusada"]);
    const fatima = waiting.find((l) => l.name === "Fátima Desistida");
    const rui = waiting.find((l) => l.name === "Rui Correção Recusada");
    expect((await staff.call("POST", `/api/leads/${fatima?.id}/resend`, {})).body).toMatchObject({ delivered: true });
    await app.runCron();
    expect((await staff.call("POST", `/api/leads/${rui?.id}/mark-sent`, {})).status).toBe(200);
    await Promise.all([app.runCron(), app.runCron()]);
    await app.runCron();

    expect((await staff.call("GET", "/api/leads")).body.incident).toBeNull();
    // Its last reason was the correction, but the alert spoke of leads too: the recovery does.
    expect(alertsToOwner()).toEqual(["Leads não estão chegando ao Jetimob", "Entrega ao Jetimob normalizada"]);
    const events = told();
    expect(events.map((e) => e.event)).toEqual(["delivery.incident", "delivery.recovered"]);
    expect(events[1]?.message).toMatch(/^Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob/);
    const [row] = await app.sql<{ id: number; once_key: string }>(
      "SELECT id, once_key FROM webhook_events WHERE event = 'delivery.recovered'",
    );
    expect(row?.once_key).toBe("recovered:1");
    expect(row?.id).toBeGreaterThan(Math.max(...(before.webhook_events ?? []).map((e) => e.id as number)));
  });
});
