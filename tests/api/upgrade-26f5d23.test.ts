import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../support/app";
import type { FakeService } from "../support/fake-http";
import { postLead } from "../support/leads";
import { eventually } from "../support/net";
import {
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 26f5d23 left it: migrations 0001 to 0014 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-26f5d23.sql, every
// table), the last lead's webhook event refused by the receiver and waiting.
// 0015 and later are applied as production would get them. 0016 rebuilds
// lead_submissions (for its new kinds) and the activity (for its new
// actions): every row comes back with its id, the webhook events tied to the
// submissions stay (dropping the old table cascades to them), and each id
// counter stays where it was.
const RELEASE_MIGRATIONS = 14;
const OWNER = { email: "ana.responsavel@altosdaserraimoveis.com.br", password: "vinho-tinto-2026" };

let app: App;
let hook: FakeService;
let before: Record<string, Rows>;
let after: Record<string, Rows>;
let sequencesBefore: Rows;
let upgraded: Upgraded | undefined;

beforeAll(async () => {
  upgraded = await upgradeRelease("26f5d23", RELEASE_MIGRATIONS, async (release) => {
    sequencesBefore = await release.sql("SELECT name, seq FROM sqlite_sequence ORDER BY name");
  });
  ({ app, hook, before, after } = upgraded);
});

afterAll(() => upgraded?.stop());

describe("a database made by release 26f5d23", () => {
  it("was filled in every table, with a webhook event waiting after a refusal", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
    expect(before.webhook_events?.filter((e) => e.status === "pending")).toEqual([
      expect.objectContaining({ event: "lead.created", attempts: 1, last_error: "HTTP 503: {}" }),
    ]);
  });

  it("gets every migration since, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table, ids included, the webhook events of the rebuilt submissions among them", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(after[table], table).toEqual(expected[table]);
    expect(after.webhook_events?.filter((e) => e.submission_id !== null).length).toBeGreaterThan(0);
  });

  it("keeps each id counter where it was, past the rows pruned", async () => {
    const now = await app.sql("SELECT name, seq FROM sqlite_sequence WHERE name != 'd1_migrations' ORDER BY name");
    expect(now).toEqual(sequencesBefore.filter((s) => s.name !== "d1_migrations"));
  });
});

describe("after the upgrade", () => {
  it("the webhook sends the event the release left waiting, tied to a rebuilt submission", async () => {
    const waiting = before.webhook_events?.find((e) => e.status === "pending") as { id: number };
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE id = ?1", waiting.id);
    hook.clear();
    await app.runCron();
    expect(await app.sql("SELECT status, attempts FROM webhook_events WHERE id = ?1", waiting.id)).toEqual([
      { status: "sent", attempts: 2 },
    ]);
  });

  it("a visitor of that release who changes their details waits for staff, the lead unchanged until accepted", async () => {
    const lead = before.leads?.find((l) => l.delivery_status === "sent") as { id: string; name: string; email: string };
    const whatsapp = "(49) 98765-0000";
    expect((await postLead(app, { name: lead.name, email: lead.email, whatsapp })).status).toBe(200);
    const [row] = await app.sql<{ whatsapp: string }>("SELECT whatsapp FROM leads WHERE id = ?1", lead.id);
    expect(row?.whatsapp).not.toBe("+5549987650000");
    const [change] = await app.sql<{ id: number }>(
      "SELECT id FROM lead_submissions WHERE lead_id = ?1 AND kind = 'pending'",
      lead.id,
    );
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    expect((await staff.call("POST", `/api/leads/${lead.id}/changes/${change?.id}/accept`, {})).status).toBe(200);
    await eventually(async () => {
      const [now] = await app.sql<{ whatsapp: string; update_status: string | null }>(
        "SELECT whatsapp, update_status FROM leads WHERE id = ?1",
        lead.id,
      );
      return now?.whatsapp === "+5549987650000";
    });
  });

  it("staff of that release are all approved, with both permissions", async () => {
    const staff = await app.sql("SELECT approved_at IS NOT NULL AS approved, can_export, can_delete FROM staff_users");
    const confirmed = before.staff_users?.filter((u) => u.confirmed_at !== null).length;
    expect(staff.filter((u) => u.approved === 1)).toHaveLength(confirmed ?? -1);
    expect(staff.every((u) => u.can_export === 1 && u.can_delete === 1)).toBe(true);
  });
});
