import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { applyMigrationsUpTo, asReleaseLeftIt } from "../support/release";

// Migration 0026 makes `deliveries` again (a CHECK cannot change in place)
// to take the visitor's answers to Jetimob. On a database release 14fd90c
// filled, upgraded to 0025 and given Meta deliveries of every state, it keeps
// every row, its triggers still count what reached Meta, and the answers of
// the last week become due. The database is the worker's own local D1, its
// migrations applied as `wrangler d1 migrations apply` applies them.
type Row = Record<string, unknown>;

let app: App;
const sql = async (command: string): Promise<Row[][]> => {
  const rows: Row[][] = [];
  for (const statement of command.split(/;\s*/).filter((s) => s.trim())) rows.push(await app.sql(statement));
  return rows;
};

const DELIVERIES = "SELECT * FROM deliveries ORDER BY lead_id, destination";
const META_SENT = "SELECT sum(meta_sent) AS n FROM campaign_daily";
let before: Row[];
let leads: string[];
const answeredAt = Date.now() - 3_600_000;

beforeAll(async () => {
  app = await spawnApp({ migrate: false });
  await asReleaseLeftIt(app, "14fd90c", 17);
  await applyMigrationsUpTo(app, 25);
  leads = ((await sql("SELECT id FROM leads ORDER BY id LIMIT 4"))[0] ?? []).map((r) => String(r.id));
  const [a, b, c, d] = leads;
  await sql(
    "INSERT INTO deliveries (lead_id, destination, status, event_at, attempts, sent_at) " +
      `SELECT id, 'meta', 'sent', created_at, 1, created_at + 1000 FROM leads WHERE id = '${a}'; ` +
      "INSERT INTO deliveries (lead_id, destination, event_at, attempts, next_attempt_at, last_error) " +
      `SELECT id, 'meta', created_at, 2, created_at + 60000, 'Meta recusou (HTTP 503)' FROM leads WHERE id = '${b}'; ` +
      "INSERT INTO deliveries (lead_id, destination, status, event_at, attempts, last_error) " +
      `SELECT id, 'meta', 'expired', created_at, 5, 'Não enviado' FROM leads WHERE id = '${c}'; ` +
      `UPDATE leads SET answers = '{"finalidade":"Para morar"}', answers_at = ${answeredAt} WHERE id = '${d}'; ` +
      `UPDATE leads SET answers = '{"prazo":"Ainda não sei"}', answers_at = ${Date.now() - 8 * 86_400_000} ` +
      `WHERE id = '${c}'`,
  );
  before = (await sql(DELIVERIES))[0] ?? [];
  await app.migrate();
  expect((await app.sql<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id")).at(-1)?.name).toMatch(
    /^0026_/,
  );
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe("0026 on a database with Meta's deliveries", () => {
  it("keeps every delivery as it was, and makes the answers of the last week due for Jetimob", async () => {
    const [after] = await sql(DELIVERIES);
    expect(before).toHaveLength(3);
    expect(after?.filter((r) => r.destination === "meta")).toEqual(before);
    expect(after?.filter((r) => r.destination === "jetimob_answers")).toEqual([
      expect.objectContaining({
        lead_id: leads[3],
        status: "pending",
        event_at: answeredAt,
        next_attempt_at: answeredAt,
        attempts: 0,
      }),
    ]);
  });

  it("still counts what reaches Meta, and a lead deleted takes its count and its deliveries", async () => {
    const [[start]] = (await sql(META_SENT)) as [[Row]];
    await sql(`UPDATE deliveries SET status = 'sent' WHERE lead_id = '${leads[1]}' AND destination = 'meta'`);
    const [[sent]] = (await sql(META_SENT)) as [[Row]];
    expect(Number(sent?.n)).toBe(Number(start?.n) + 1);
    await sql(`DELETE FROM leads WHERE id = '${leads[0]}'`);
    const [[deleted]] = (await sql(META_SENT)) as [[Row]];
    expect(Number(deleted?.n)).toBe(Number(sent?.n) - 1);
    const [gone] = await sql(`SELECT count(*) AS n FROM deliveries WHERE lead_id = '${leads[0]}'`);
    expect(gone).toEqual([{ n: 0 }]);
  });

  it("refuses a destination it does not know", async () => {
    const refused = await sql(
      `INSERT INTO deliveries (lead_id, destination, event_at) VALUES ('${leads[2]}', 'tiktok', 1)`,
    ).catch((e: Error) => String(e.message));
    expect(refused).toMatch(/CHECK constraint failed/);
  });
});
