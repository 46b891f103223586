import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import {
  asReleaseLeftIt,
  asUpgradedSince,
  everyRow,
  migrationFilesSince,
  migrationsSince,
  type Rows,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 1cbf1e9 left it: migrations 0001 to 0006 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-1cbf1e9.sql, every table).
// The migrations since are applied as production would get them, then every
// row is read back, and the panel is used on it.
const RELEASE_MIGRATIONS = 6;
const OWNER = { email: "ana.responsavel@altosdaserraimoveis.com.br", password: "vinho-tinto-2026" };

let app: App;
let before: Record<string, Rows>;
let after: Record<string, Rows>;

beforeAll(async () => {
  app = await spawnApp({ migrate: false });
  await asReleaseLeftIt(app, "1cbf1e9", RELEASE_MIGRATIONS);
  before = await everyRow(app);
  await app.migrate();
  after = await everyRow(app);
});

afterAll(async () => {
  await app?.stop();
});

describe("a database made by release 1cbf1e9", () => {
  it("was filled in every table", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
  });

  it("gets the migrations since, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table as it was, the counters gaining 'attention' alone", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(before)) {
      if (table === "lead_counters") continue;
      expect(after[table], table).toEqual(expected[table]);
    }
    expect(after.lead_counters?.filter((c) => c.name !== "attention")).toEqual(before.lead_counters);
  });

  it("0007: 'attention' starts as a count of the leads given up, or whose correction was", () => {
    const leads = before.leads ?? [];
    const waiting = leads.filter((l) => l.delivery_status === "failed" || l.update_status === "failed");
    // The release's data has one of each.
    expect(waiting.map((l) => [l.delivery_status, l.update_status]).sort()).toEqual([
      ["failed", null],
      ["sent", "failed"],
    ]);
    expect(after.lead_counters?.find((c) => c.name === "attention")).toEqual({ name: "attention", n: 2 });
  });
});

describe("after the upgrade, through the API", () => {
  it("'Precisam de atenção' and 'Falharam' show both leads, and follow what staff do next", async () => {
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const list = await staff.call("GET", "/api/leads");
    expect(list.body.counts).toMatchObject({ total: 11, sent: 9, pending: 2, failed: 1, attention: 2, duplicates: 2 });
    const failed = await staff.call("GET", "/api/leads?status=falhas");
    const shown = failed.body.leads as { id: string; name: string; update_status: string | null }[];
    expect(failed.body.total).toBe(2);
    expect(shown.map((l) => l.name).sort()).toEqual(["Fátima Desistida", "Rui Correção Recusada"]);

    // 'Marcar Enviado' on the correction: the triggers of 0007 keep the count.
    const rui = shown.find((l) => l.update_status === "failed");
    expect((await staff.call("POST", `/api/leads/${rui?.id}/mark-sent`, {})).status).toBe(200);
    const now = await staff.call("GET", "/api/leads?status=falhas");
    expect((now.body.counts as { attention: number }).attention).toBe(1);
    expect((now.body.leads as { name: string }[]).map((l) => l.name)).toEqual(["Fátima Desistida"]);
  });

  it("'Falharam' is read through its index, not by reading every lead", async () => {
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN SELECT id FROM leads WHERE (delivery_status = 'failed' OR update_status = 'failed') " +
        "ORDER BY created_at DESC, id DESC LIMIT 50",
    );
    expect(plan.map((p) => p.detail)).toEqual(["SCAN leads USING INDEX leads_attention_newest"]);
  });
});
