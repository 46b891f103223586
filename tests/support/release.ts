import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type App, spawnApp } from "./app";
import { FakeService } from "./fake-http";
import { FakeJetimob } from "./fake-jetimob";
import { FakeMail } from "./fake-mail";
import { repoRoot } from "./paths";
import { statementsOf } from "./schema";

export type Rows = Record<string, unknown>[];

/** Every table's rows (D1's and wrangler's own left out), each table's in one stable order. */
export async function everyRow(app: App): Promise<Record<string, Rows>> {
  const tables = await app.sql<{ name: string }>(
    `SELECT name FROM sqlite_master WHERE type = 'table'
       AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name != 'd1_migrations'
     ORDER BY name`,
  );
  const all: Record<string, Rows> = {};
  for (const { name } of tables) all[name] = ordered(await app.sql<Record<string, unknown>>(`SELECT * FROM "${name}"`));
  return all;
}

/** Rows in one stable order, whatever order they were read in. */
function ordered(rows: Rows): Rows {
  return rows
    .map((r) => JSON.stringify(r))
    .sort()
    .map((r) => JSON.parse(r));
}

/**
 * Makes the app's empty D1 what a release left: its first `migrations`
 * applied the way `wrangler d1 migrations apply` applies them (each with its
 * `d1_migrations` row), then `tests/fixtures/release-<commit>.sql` loaded:
 * rows that release's own worker wrote (tests/fixtures/release.make.ts).
 */
export async function asReleaseLeftIt(app: App, commit: string, migrations: number): Promise<void> {
  const files = (await readdir(join(repoRoot, "migrations"))).filter((f) => f.endsWith(".sql")).sort();
  await app.sql(
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
       applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
  );
  for (const file of files.slice(0, migrations)) {
    const statements = await statementsOf(join(repoRoot, "migrations", file));
    await app.batch([...statements.map((s): [string] => [s]), ["INSERT INTO d1_migrations (name) VALUES (?1)", file]]);
  }
  const fixture = join(repoRoot, `tests/fixtures/release-${commit}.sql`);
  await app.batch((await statementsOf(fixture)).map((s): [string] => [s]));
}

/** The migrations applied after the release's own, by name. */
export async function migrationsSince(app: App, migrations: number): Promise<string[]> {
  const applied = await app.sql<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id");
  return applied.map((m) => m.name).slice(migrations);
}

/** Columns migrations added to existing tables, by migration: what each holds on a release's row. */
const COLUMNS_ADDED: Record<number, Record<string, (row: Rows[number]) => Rows[number]>> = {
  // What an incident's alert named: its reasons then, for one alerted already.
  9: {
    delivery_incidents: (row) => ({ alerted_reasons: row.alerted_at === null ? null : row.reasons }),
    webhook_events: () => ({ once_key: null }),
  },
};

/**
 * Tables migrations added, by migration: what each holds on a release's
 * database once migrated, read from that database (null: nothing).
 */
const TABLES_ADDED: Record<number, Record<string, string | null>> = {
  // Each owner's copy of an incident's e-mails.
  10: { alert_mails: null },
  // Which lead each row of the search index belongs to, filled from the index.
  11: { leads_search_rows: "SELECT rowid AS search_rowid, lead_id FROM leads_search" },
  // The change counter the panel's reloads are tagged with, from nought.
  12: { lead_changes: "SELECT 1 AS id, 0 AS n" },
};

/**
 * A release's rows (from {@link everyRow}) as they should read after the
 * migrations since its first `migrations`: unchanged, but for the columns
 * added since, and the tables added since (what each should hold, read from
 * `app`, upgraded), every table in {@link everyRow}'s order.
 */
export async function asUpgradedSince(
  app: App,
  rows: Record<string, Rows>,
  migrations: number,
): Promise<Record<string, Rows>> {
  const since = <T>(byMigration: Record<number, T>) =>
    Object.entries(byMigration)
      .filter(([migration]) => Number(migration) > migrations)
      .map(([, added]) => added);
  const out: Record<string, Rows> = { ...rows };
  for (const [table, columns] of since(COLUMNS_ADDED).flatMap((tables) => Object.entries(tables))) {
    out[table] = (out[table] ?? []).map((row) => ({ ...row, ...columns(row) }));
  }
  for (const [table, source] of since(TABLES_ADDED).flatMap((tables) => Object.entries(tables))) {
    out[table] = source ? ordered(await app.sql<Record<string, unknown>>(source)) : [];
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((table) => [table, out[table] ?? []]),
  );
}

/** A release's database, upgraded, on a worker whose Jetimob, e-mail API and webhook are fakes. */
export type Upgraded = {
  app: App;
  jetimob: FakeJetimob;
  mail: FakeMail;
  hook: FakeService;
  /** Every table's rows as the release left them, and after the migrations since. */
  before: Record<string, Rows>;
  after: Record<string, Rows>;
  stop(): Promise<void>;
};

/**
 * Starts a worker on an empty D1, makes it what release `commit` left
 * ({@link asReleaseLeftIt}: its first `migrations`, then its fixture), reads
 * every row, applies the migrations since as production gets them, and reads
 * every row again.
 */
export async function upgradeRelease(commit: string, migrations: number): Promise<Upgraded> {
  const [jetimob, mail, hook] = await Promise.all([
    new FakeJetimob().start(),
    new FakeMail().start(),
    new FakeService(() => ({ status: 204 })).start(),
  ]);
  const app = await spawnApp({
    migrate: false,
    vars: { ...jetimob.settings(), ...mail.settings(), ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads` },
  });
  await asReleaseLeftIt(app, commit, migrations);
  const before = await everyRow(app);
  await app.migrate();
  const after = await everyRow(app);
  const stop = async () => {
    await app.stop();
    await Promise.all([jetimob.stop(), mail.stop(), hook.stop()]);
  };
  return { app, jetimob, mail, hook, before, after, stop };
}

/** The subjects of the alert e-mails sent to `to` (new-lead notices left out). */
export function alertSubjects(mail: FakeMail, to: string): string[] {
  return mail
    .messagesTo(to)
    .map((m) => m.subject)
    .filter((subject) => !subject.endsWith("— Recanto das Videiras"));
}
