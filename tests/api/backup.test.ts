import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backup, KEPT_FOR_THE_DAY } from "../../scripts/backup.mjs";
import { repoRoot } from "../support/paths";

// `make backup` (scripts/backup.mjs) on a database a release filled in every
// table, restored as the README says into a new database made by the
// migrations: every row of every table comes back, the search index with the
// earlier details of corrected leads among them. Both databases are local
// D1s, each in a directory of its own, driven by the wrangler commands the
// README gives for the remote one.
const run = promisify(execFile);
const WRANGLER = join(repoRoot, "node_modules/wrangler/bin/wrangler.js");

type Row = Record<string, unknown>;

type Database = {
  dir: string;
  d1: (...args: string[]) => Promise<string>;
  /** Applies the migrations it does not have yet. */
  upgrade: () => Promise<void>;
};

/** A local D1 made by the migrations: all of them, or the first `release` (as that release left it). */
async function database(release?: number): Promise<Database> {
  const dir = await mkdtemp(join(tmpdir(), "d1-restore-"));
  await cp(join(repoRoot, "wrangler.toml"), join(dir, "wrangler.toml"));
  const d1 = async (...args: string[]) =>
    (await run(process.execPath, [WRANGLER, "d1", ...args], { cwd: dir, maxBuffer: 64 * 1024 * 1024 })).stdout;
  const upgrade = async (upTo?: number) => {
    const files = (await readdir(join(repoRoot, "migrations"))).sort().slice(0, upTo);
    await mkdir(join(dir, "migrations"), { recursive: true });
    for (const file of files) await cp(join(repoRoot, "migrations", file), join(dir, "migrations", file));
    await d1("migrations", "apply", "DB", "--local");
  };
  await upgrade(release);
  return { dir, d1, upgrade: () => upgrade() };
}

/** Every table's rows (sqlite_sequence without the migrations' own), and the search index's. */
async function everything(d1: (...args: string[]) => Promise<string>): Promise<Record<string, Row[]>> {
  const ask = async (sql: string) =>
    (JSON.parse(await d1("execute", "DB", "--local", "--json", "--command", sql)) as { results: Row[] }[]).map(
      (r) => r.results,
    );
  const [tables] = await ask(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'leads\\_search%' ESCAPE '\\'
       AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name != 'd1_migrations' ORDER BY name`,
  );
  const names = (tables as { name: string }[]).map((t) => t.name);
  const rows = await ask(
    [
      ...names.map((name) =>
        name === "sqlite_sequence"
          ? "SELECT * FROM sqlite_sequence WHERE name != 'd1_migrations' ORDER BY name"
          : `SELECT * FROM "${name}" ORDER BY 1, 2`,
      ),
      "SELECT rowid, lead_id, body FROM leads_search ORDER BY rowid",
      "SELECT * FROM leads_search_rows ORDER BY search_rowid",
    ].join("; "),
  );
  return Object.fromEntries([...names, "leads_search", "leads_search_rows"].map((name, i) => [name, rows[i] ?? []]));
}

let made: Database;
let restored: Database;
let file: string;

beforeAll(async () => {
  // Filled by release 14fd90c (its 17 migrations), then upgraded to this one.
  [made, restored] = await Promise.all([database(17), database()]);
  await made.d1("execute", "DB", "--local", "--file", join(repoRoot, "tests/fixtures/release-14fd90c.sql"));
  await made.upgrade();
  // The newest webhook event and attempt were pruned: their ids stay taken.
  // And a campaign's visits were counted, a network's past its day's limit.
  await made.d1(
    "execute",
    "DB",
    "--local",
    "--command",
    "DELETE FROM webhook_events WHERE id = (SELECT max(id) FROM webhook_events); " +
      "DELETE FROM crm_attempts WHERE id = (SELECT max(id) FROM crm_attempts); " +
      "INSERT INTO visit_counts (day, source, campaign, content, n) " +
      "VALUES ('2026-11-20', 'Instagram', 'verao', 'video-1', 7); " +
      "INSERT INTO campaign_daily (day, source, campaign, content, visits) " +
      "VALUES ('2026-11-20', 'Instagram', 'verao', 'video-1', 7); " +
      // What the ad spent that day, imported from a spreadsheet.
      "INSERT INTO spend_imports (token, at, staff_email, kind, file_name, lines, first_day, last_day, cents, " +
      "added, added_cents) VALUES ('planilha-1', 1763650000000, 'dono@vinhedo.com.br', 'planilha', 'gastos.csv', " +
      "1, '2026-11-20', '2026-11-20', 5000, 1, 5000); " +
      "INSERT INTO spend_import_rows (import_id, day, source, campaign, content, cents) " +
      "SELECT id, '2026-11-20', 'Instagram', 'verao', 'video-1', 5000 FROM spend_imports; " +
      "INSERT INTO campaign_spend (day, source, campaign, content, cents, import_id) " +
      "SELECT '2026-11-20', 'Instagram', 'verao', 'video-1', 5000, id FROM spend_imports; " +
      "INSERT INTO visit_networks (day, network, visits, new_keys) " +
      "VALUES ('2026-11-20', '0123456789abcdef0123456789abcdef', 203, 1); " +
      "INSERT INTO visits_uncounted (day, n) VALUES ('2026-11-20', 3); " +
      // A lead sent to Meta, another still waiting for it.
      "INSERT INTO deliveries (lead_id, destination, status, event_at, attempts, sent_at) " +
      "SELECT id, 'meta', 'sent', created_at, 1, created_at + 1000 FROM leads ORDER BY id LIMIT 1; " +
      "INSERT INTO deliveries (lead_id, destination, event_at, next_attempt_at, last_error) " +
      "SELECT id, 'meta', created_at, created_at + 60000, 'Meta recusou (HTTP 503)' FROM leads ORDER BY id DESC LIMIT 1; " +
      // Two leads waiting for their first contact, one a broker already called;
      // an owner's target for the time to first contact.
      "UPDATE leads SET contact_tracked = 1 WHERE id IN (SELECT id FROM leads ORDER BY id LIMIT 3); " +
      "UPDATE leads SET first_contact_at = created_at + 240000, first_contact_by = (SELECT id FROM staff_users LIMIT 1) " +
      "WHERE id = (SELECT id FROM leads ORDER BY id LIMIT 1); " +
      "UPDATE panel_settings SET value = 10 WHERE name = 'contact_target_minutes'",
  );
  file = join(made.dir, "backup.sql");
  await backup({ where: "--local", output: file, cwd: made.dir });
  await restored.d1("execute", "DB", "--local", "--file", file);
}, 120_000);

afterAll(async () => {
  await Promise.all([made?.dir, restored?.dir].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

describe("a backup restored into a new database", () => {
  it("brings back every row of every table, ids and the search index's earlier details included", async () => {
    const [before, after] = await Promise.all([everything(made.d1), everything(restored.d1)]);
    for (const [table, rows] of Object.entries(before)) {
      if (table === "lead_changes") continue;
      expect(rows.length, table).toBeGreaterThan(0);
      // What is kept for a day only is not kept in a backup.
      expect(after[table], table).toEqual(KEPT_FOR_THE_DAY.includes(table) ? [] : rows);
    }
    // The id counters stay past the pruned rows: a new webhook event never takes a sent one's id.
    const seq = (rows: Row[] | undefined, name: string) => rows?.find((r) => r.name === name)?.seq;
    const maxId = (rows: Row[] | undefined) => Math.max(...(rows ?? []).map((r) => Number(r.id)));
    expect(Number(seq(after.sqlite_sequence, "webhook_events"))).toBeGreaterThan(maxId(after.webhook_events));
    expect(Number(seq(after.sqlite_sequence, "crm_attempts"))).toBeGreaterThan(maxId(after.crm_attempts));
    // A lead corrected by its visitor is found by its old WhatsApp too.
    expect(before.leads_search?.filter((r) => String(r.body).startsWith("Marta Corrigindo"))).toHaveLength(2);
  });

  it("moves the change counter past where it was, so a panel open before never keeps a stale list", async () => {
    const [before, after] = await Promise.all([everything(made.d1), everything(restored.d1)]);
    expect(Number(after.lead_changes?.[0]?.n)).toBeGreaterThan(Number(before.lead_changes?.[0]?.n));
  });

  it("says what it is and how to restore it, and holds no schema", async () => {
    const text = await readFile(file, "utf8");
    const last = (await readdir(join(repoRoot, "migrations")))
      .filter((f) => f.endsWith(".sql"))
      .sort()
      .at(-1);
    expect(text.split("\n")[0]).toMatch(/^-- D1 backup made \S+ by scripts\/backup\.mjs, at migration /);
    expect(text.split("\n")[0]).toContain(`at migration ${last}.`);
    expect(text).toContain("wrangler d1 execute DB --remote --file");
    expect(text).not.toMatch(/CREATE (TABLE|INDEX|TRIGGER)/);
  });
});
