// A copy of the D1 database as SQL, to keep beyond D1's own history (Time
// Travel: 30 days) and to restore into a new database.
//
// `wrangler d1 export` refuses a database with a full-text table (the
// leads' search index, `leads_search`), so this exports the rows of every
// other table by name, without the schema, and reads the search index out
// itself. As the rows go back in, the triggers make the counters and the
// search rows of each lead's current details; then the file puts back the
// index as it was (with the earlier details of corrected leads, which
// 'Buscar' finds too), moves the change counter past where it was (a panel
// open before the restore never takes a new list for the one it holds), and
// sets each AUTOINCREMENT counter where it was (a webhook event made after
// a restore never takes the id of one already sent). The export and the
// reads are not one snapshot: run it at a quiet hour (a lead deleted in its
// seconds comes back without its search rows).
//
//   node scripts/backup.mjs --remote --output backups/d1-2026-11-26.sql
//   node scripts/backup.mjs --local  --output /tmp/d1.sql   (make dev's D1)
//
// Restore: into a database made by `wrangler d1 migrations apply` from the
// same release (the file's header names its last migration), with
// `wrangler d1 execute DB --remote --file <file>`.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const WRANGLER = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

/**
 * Tables the triggers keep from the others: a restore makes them again (the
 * report's daily rows from the leads and visits, its weekly sums and the
 * chart's rows from the daily rows, the weekly spend from the daily spend).
 */
export const KEPT_BY_TRIGGERS = [
  "campaign_daily",
  "campaign_weekly",
  "source_daily",
  "spend_weekly",
  "lead_changes",
  "lead_counters",
  "contact_counters",
  "leads_search_rows",
];
/** Tables whose rows a migration writes (the owners' choices): the backup's rows replace them. */
export const SEEDED_BY_MIGRATIONS = ["panel_settings"];
/**
 * Tables kept for a day only, which a backup (kept for months) must not
 * keep longer: the marks of the networks that visited today (docs/campaigns.md).
 */
export const KEPT_FOR_THE_DAY = ["visit_networks"];
/** The search index's rows read per call. */
const SEARCH_PAGE = 5000;
/** Rows per INSERT of the search index (a D1 statement holds at most 100 KB; a row, under 1 KB). */
const ROWS_PER_INSERT = 50;

/**
 * @param {{ where: "--remote" | "--local", output: string, cwd?: string }} options
 * @returns {Promise<{ tables: string[], lastMigration: string | null }>}
 */
export async function backup({ where, output, cwd = process.cwd() }) {
  const wrangler = (...args) =>
    run(process.execPath, [WRANGLER, "d1", ...args], { cwd, maxBuffer: 256 * 1024 * 1024, env: process.env });
  const query = async (sql) =>
    JSON.parse((await wrangler("execute", "DB", where, "--json", "--command", sql)).stdout).map((r) => r.results);
  const [schema, sequences, migrations, changes] = await query(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid; " +
      "SELECT name, seq FROM sqlite_sequence ORDER BY name; " +
      "SELECT name FROM d1_migrations ORDER BY id DESC LIMIT 1; " +
      "SELECT n FROM lead_changes WHERE id = 1",
  );
  const virtual = schema.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name);
  const tables = schema
    .map((t) => t.name)
    .filter(
      (name) =>
        !/^(sqlite_|_cf_|d1_migrations$)/.test(name) &&
        !virtual.some((v) => name === v || name.startsWith(`${v}_`)) &&
        !KEPT_BY_TRIGGERS.includes(name) &&
        !KEPT_FOR_THE_DAY.includes(name),
    );
  const scratch = await mkdtemp(join(tmpdir(), "d1-backup-"));
  try {
    const rows = join(scratch, "rows.sql");
    await wrangler(
      "export",
      "DB",
      where,
      "--no-schema",
      ...tables.flatMap((t) => ["--table", t]),
      "--output",
      rows,
      "--skip-confirmation",
    );
    const lastMigration = migrations[0]?.name ?? null;
    const quote = (s) => `'${String(s).replaceAll("'", "''")}'`;
    const value = (v) => (v === null ? "NULL" : typeof v === "number" ? String(v) : quote(v));
    // Rows of the search index whose lead is in the file: one made while the
    // export ran (its search rows read, its lead not exported) is left out.
    const inserts = (table, columns, rows) => {
      const out = [];
      const picked = columns.map((_, i) => `column${i + 1}`).join(", ");
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => `(${columns.map((c) => value(r[c])).join(", ")})`);
        out.push(
          `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${picked} FROM (VALUES ${values.join(", ")}) ` +
            "WHERE column2 IN (SELECT id FROM leads);",
        );
      }
      return out;
    };
    // The search index, and the lead of each of its rows, a page at a time.
    const all = async (table, key, columns) => {
      const rows = [];
      for (let after = -1; ; ) {
        const [page] = await query(
          `SELECT ${columns.join(", ")} FROM ${table} WHERE ${key} > ${after} ORDER BY ${key} LIMIT ${SEARCH_PAGE}`,
        );
        rows.push(...page);
        if (page.length < SEARCH_PAGE) return rows;
        after = page.at(-1)[key];
      }
    };
    const search = await all("leads_search", "rowid", ["rowid", "lead_id", "body"]);
    const searchRows = await all("leads_search_rows", "search_rowid", ["search_rowid", "lead_id"]);
    const index = [
      "DELETE FROM leads_search;",
      ...inserts("leads_search", ["rowid", "lead_id", "body"], search),
      "DELETE FROM leads_search_rows;",
      ...inserts("leads_search_rows", ["search_rowid", "lead_id"], searchRows),
      `UPDATE lead_changes SET n = n + ${Number(changes[0]?.n ?? 0)} WHERE id = 1;`,
      // The report's visits, from the counters they were added from (its leads came back with them).
      "INSERT INTO campaign_daily (day, source, campaign, content, visits) " +
        "SELECT day, source, campaign, content, sum(n) FROM visit_counts WHERE true GROUP BY 1, 2, 3, 4 " +
        "ON CONFLICT (day, source, campaign, content) DO UPDATE SET visits = visits + excluded.visits;",
    ];
    const counters = sequences
      .filter(({ name }) => name !== "d1_migrations")
      .flatMap(({ name, seq }) => [
        `UPDATE sqlite_sequence SET seq = max(seq, ${Number(seq)}) WHERE name = ${quote(name)};`,
        `INSERT INTO sqlite_sequence (name, seq) SELECT ${quote(name)}, ${Number(seq)} ` +
          `WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${quote(name)});`,
      ]);
    const header = [
      `-- D1 backup made ${new Date().toISOString()} by scripts/backup.mjs, at migration ${lastMigration ?? "(none)"}.`,
      "-- Every table's rows, then the search index as it was (the triggers make the counters again).",
      "-- Restore into a database made by `wrangler d1 migrations apply` from the same release:",
      "--   wrangler d1 execute DB --remote --file <this file>",
      "-- It holds every lead's personal data: keep it where only the agency can read it.",
    ];
    const seeded = SEEDED_BY_MIGRATIONS.filter((t) => tables.includes(t)).map((t) => `DELETE FROM ${t};`);
    const tail = [...index, ...counters].join("\n");
    await writeFile(output, `${[...header, ...seeded].join("\n")}\n${await readFile(rows, "utf8")}\n${tail}\n`);
    return { tables, lastMigration };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const where = process.argv.includes("--local") ? "--local" : "--remote";
  const at = process.argv.indexOf("--output");
  const output = at > 0 ? process.argv[at + 1] : undefined;
  if (!output) {
    console.error("usage: node scripts/backup.mjs --remote|--local --output FILE");
    process.exit(2);
  }
  if (where === "--remote") {
    console.log("D1 answers no query while it exports (seconds for a launch's leads): run it at a quiet hour.");
  }
  const { tables, lastMigration } = await backup({ where, output: resolve(output) });
  console.log(`${tables.length} tables (at ${lastMigration}) written to ${output}`);
}
