import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/paths";

// Migration 0026 makes `deliveries` again (a CHECK cannot change in place)
// to take the visitor's answers to Jetimob. On a database release 14fd90c
// filled, upgraded to 0025 and given Meta deliveries of every state, it keeps
// every row, its triggers still count what reached Meta, and the answers of
// the last week become due.
const run = promisify(execFile);
const WRANGLER = join(repoRoot, "node_modules/wrangler/bin/wrangler.js");
type Row = Record<string, unknown>;

let dir: string;
const d1 = async (...args: string[]) =>
  (await run(process.execPath, [WRANGLER, "d1", ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 })).stdout;
const sql = async (command: string): Promise<Row[][]> =>
  (JSON.parse(await d1("execute", "DB", "--local", "--json", "--command", command)) as { results: Row[] }[]).map(
    (r) => r.results,
  );

async function migrateTo(count?: number): Promise<void> {
  const files = (await readdir(join(repoRoot, "migrations"))).sort().slice(0, count);
  await mkdir(join(dir, "migrations"), { recursive: true });
  for (const file of files) await cp(join(repoRoot, "migrations", file), join(dir, "migrations", file));
  await d1("migrations", "apply", "DB", "--local");
}

const DELIVERIES = "SELECT * FROM deliveries ORDER BY lead_id, destination";
const META_SENT = "SELECT sum(meta_sent) AS n FROM campaign_daily";
let before: Row[];
let leads: string[];
const answeredAt = Date.now() - 3_600_000;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "d1-0026-"));
  await cp(join(repoRoot, "wrangler.toml"), join(dir, "wrangler.toml"));
  await migrateTo(17);
  await d1("execute", "DB", "--local", "--file", join(repoRoot, "tests/fixtures/release-14fd90c.sql"));
  await migrateTo(25);
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
  await migrateTo();
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
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
    ).catch((e: { stdout?: string; stderr?: string }) => `${e.stdout}${e.stderr}`);
    expect(refused).toMatch(/CHECK constraint failed/);
  });
});
