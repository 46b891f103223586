import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../support/app";
import type { FakeService } from "../support/fake-http";
import {
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 51c0643 left it: migrations 0001 to 0012 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-51c0643.sql, every table),
// the last lead's webhook event refused by the receiver and waiting. 0013 and
// 0014 are applied as production would get them, then every row is read back,
// the cron sends the waiting event through the new claim, and deleting one of
// the release's possible duplicates takes its WhatsApp out of the other's story.
const RELEASE_MIGRATIONS = 12;
const OWNER = { email: "ana.responsavel@altosdaserraimoveis.com.br", password: "vinho-tinto-2026" };

let app: App;
let hook: FakeService;
let before: Record<string, Rows>;
let after: Record<string, Rows>;
let upgraded: Upgraded | undefined;

beforeAll(async () => {
  upgraded = await upgradeRelease("51c0643", RELEASE_MIGRATIONS);
  ({ app, hook, before, after } = upgraded);
});

afterAll(() => upgraded?.stop());

describe("a database made by release 51c0643", () => {
  it("was filled in every table, with a webhook event waiting after a refusal", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
    expect(before.webhook_events?.filter((e) => e.status === "pending")).toEqual([
      expect.objectContaining({ event: "lead.created", attempts: 1, last_error: "HTTP 503: {}" }),
    ]);
  });

  it("gets 0013 and 0014, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table, ids included", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(after[table], table).toEqual(expected[table]);
  });
});

describe("after the upgrade, the webhook", () => {
  it("sends the event the release left waiting once the receiver takes it again", async () => {
    const waiting = before.webhook_events?.find((e) => e.status === "pending") as { id: number; submission_id: number };
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE id = ?1", waiting.id);
    hook.clear();
    await app.runCron();
    const sent = hook.received.map((r) => JSON.parse(r.body.toString()) as { event: string; lead?: { name: string } });
    expect(sent).toContainEqual(
      expect.objectContaining({ event: "lead.created", lead: expect.objectContaining({ name: "Olga Ouvida Depois" }) }),
    );
    expect(await app.sql("SELECT status, attempts FROM webhook_events WHERE id = ?1", waiting.id)).toEqual([
      { status: "sent", attempts: 2 },
    ]);
  });
});

describe("after the upgrade, deleting a lead", () => {
  it("takes its WhatsApp out of the conflict the release kept on its possible duplicate", async () => {
    type Row = { id: string; lead_id: string; whatsapp: string; kind: string; submission_count: number };
    const conflict = before.lead_submissions?.find((s) => s.kind === "conflict") as unknown as Row;
    const owner = before.leads?.find((l) => l.id === conflict.lead_id) as unknown as Row;
    const other = before.leads?.find((l) => l.whatsapp === conflict.whatsapp) as unknown as Row;
    expect(other.id).not.toBe(owner.id);

    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    expect((await staff.call("DELETE", `/api/leads/${other.id}`)).status).toBe(200);
    expect(await app.sql("SELECT id FROM lead_submissions WHERE whatsapp = ?1", conflict.whatsapp)).toEqual([]);
    expect(await app.sql("SELECT submission_count FROM leads WHERE id = ?1", owner.id)).toEqual([
      { submission_count: owner.submission_count - 1 },
    ]);
  });
});
