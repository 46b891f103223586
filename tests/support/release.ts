import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { type App, spawnApp } from "./app";
import { FakeService } from "./fake-http";
import { FakeJetimob } from "./fake-jetimob";
import { FakeMail } from "./fake-mail";
import { repoRoot } from "./paths";
import { statementsOf } from "./schema";
import { sourceOf } from "./seed";

export type Rows = Record<string, unknown>[];

/** Every table's rows (D1's and wrangler's own left out), each table's in one stable order. */
async function everyRow(app: App): Promise<Record<string, Rows>> {
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
  await applyMigrationsUpTo(app, migrations);
  const fixture = join(repoRoot, `tests/fixtures/release-${commit}.sql`);
  await app.batch((await statementsOf(fixture)).map((s): [string] => [s]));
}

/**
 * Applies the migrations after those the app's D1 has, up to the `upTo`th,
 * the way `wrangler d1 migrations apply` applies them: each in one batch with
 * its `d1_migrations` row (so the harness's own apply goes on from there).
 */
export async function applyMigrationsUpTo(app: App, upTo: number): Promise<void> {
  const files = (await readdir(join(repoRoot, "migrations"))).filter((f) => f.endsWith(".sql")).sort();
  await app.sql(
    `CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE,
       applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)`,
  );
  const applied = new Set((await app.sql<{ name: string }>("SELECT name FROM d1_migrations")).map((m) => m.name));
  for (const file of files.slice(0, upTo).filter((f) => !applied.has(f))) {
    const statements = await statementsOf(join(repoRoot, "migrations", file));
    await app.batch([...statements.map((s): [string] => [s]), ["INSERT INTO d1_migrations (name) VALUES (?1)", file]]);
  }
}

/** The migrations applied after the release's own, by name. */
export async function migrationsSince(app: App, migrations: number): Promise<string[]> {
  const applied = await app.sql<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id");
  return applied.map((m) => m.name).slice(migrations);
}

/** Every migration file after a release's first `migrations`, in order: what its upgrade applies. */
export async function migrationFilesSince(migrations: number): Promise<string[]> {
  const files = (await readdir(join(repoRoot, "migrations"))).filter((f) => f.endsWith(".sql")).sort();
  return files.slice(migrations);
}

/**
 * A lead's source as 0015 reads it from what an earlier release kept: its
 * utm_source; a Google Ads click; the referrer's host (the release's origem,
 * for a lead without utm_source whose referrer was another site); a Meta
 * click; else 'direto'. The releases' fixtures hold no other site's referrer.
 */
function sourceBefore0015(lead: Rows[number]): Rows[number] {
  const referrerHost =
    lead.utm_source === null && lead.referrer !== null && lead.origem !== "site" ? lead.origem : null;
  const source =
    lead.utm_source ??
    (lead.gclid !== null ? "google" : (referrerHost ?? (lead.fbclid !== null ? "facebook" : "direto")));
  return { source, referrer_host: referrerHost };
}

/**
 * Columns migrations added to existing tables, or changed on purpose, by
 * migration: what each holds on a release's row (given every table's rows).
 * Only the migrations after the oldest kept fixture's (release-26f5d23.sql,
 * 0001 to 0014) are here: the releases before it are retired
 * (docs/decisions.md, 'Upgrade tests').
 */
const COLUMNS_ADDED: Record<
  number,
  Record<string, (row: Rows[number], release: Record<string, Rows>) => Rows[number]>
> = {
  15: {
    leads: sourceBefore0015,
    // Each lead's source written moved the change counter once; a referrer's host, once more.
    lead_changes: (row, release) => ({
      n:
        Number(row.n) +
        (release.leads ?? []).reduce((n, lead) => n + 1 + (sourceBefore0015(lead).referrer_host === null ? 0 : 1), 0),
    }),
  },
  // Every account there before is approved, with both permissions.
  16: {
    staff_users: (row) => ({ approved_at: row.confirmed_at, can_export: 1, can_delete: 1 }),
  },
  // No change of a release waited with a sender, nor was set aside without staff.
  18: {
    lead_submissions: () => ({ sender: null, auto_refused: null }),
  },
  // Every account keeps its rights and may mark leads sent; no entry of the trail has a detail.
  19: {
    staff_users: () => ({ can_mark_sent: 1 }),
    audit_log: () => ({ detail: null }),
  },
  // No click id of the kinds 0021 adds was kept before it.
  21: {
    leads: () => ({ gbraid: null, wbraid: null, msclkid: null, ttclid: null }),
    lead_submissions: () => ({ gbraid: null, wbraid: null, msclkid: null, ttclid: null }),
  },
  // A landline is marked 'fixo', read from the number; nothing answered yet.
  22: {
    leads: (row) => ({
      landline: /^\+55[1-9]\d[2-5]\d{7}$/.test(String(row.whatsapp)) ? 1 : 0,
      answers: null,
      answers_at: null,
    }),
  },
  // No lead of a release has a first contact, nor can anyone tell now
  // whether it was called: each is marked as arriving before contacts were
  // recorded, which moved the change counter once a lead.
  23: {
    leads: () => ({ first_contact_at: null, first_contact_by: null, contact_tracked: 0 }),
    lead_changes: (row, release) => ({ n: Number(row.n) + (release.leads ?? []).length }),
  },
  // Nobody but owners may import spend; each lead's source takes its one name.
  24: {
    staff_users: () => ({ can_import_spend: 0 }),
    leads: (row) => ({ source: sourceOf(String(row.source)) ?? row.source }),
    lead_changes: (row, release) => ({ n: Number(row.n) + renamedLeads(release.leads) }),
  },
  // No lead of a release was asked the ads' consent; no day or week counted a lead sent to Meta.
  25: {
    leads: () => ({ ads_consent: null }),
    campaign_daily: () => ({ meta_sent: 0 }),
    campaign_weekly: () => ({ meta_sent: 0 }),
  },
};

/**
 * Tables migrations added, by migration: what each holds on a release's
 * database once migrated, read from that database (null: nothing). As for
 * {@link COLUMNS_ADDED}, only after 0012.
 */
const TABLES_ADDED: Record<number, Record<string, string | null>> = {
  // No lead of a release owes Meta anything: it was not configured.
  25: {
    deliveries: null,
  },
  // No spend yet; the report's weekly sums and the chart's rows, from its daily rows.
  24: {
    spend_imports: null,
    spend_import_rows: null,
    campaign_spend: null,
    spend_weekly: null,
    campaign_weekly: `SELECT date(day, '-6 days', 'weekday 1') AS week, source, campaign, content,
        sum(visits) AS visits, sum(leads) AS leads, sum(delivered) AS delivered, sum(duplicates) AS duplicates
      FROM campaign_daily GROUP BY 1, 2, 3, 4`,
    source_daily: "SELECT day, source, sum(visits) AS visits, sum(leads) AS leads FROM campaign_daily GROUP BY 1, 2",
  },
  // No visit counted yet; the leads counted per day and campaign, as the
  // leads read once upgraded; each search row's lead, the campaign rows too.
  15: {
    visit_counts: null,
    campaign_daily: `SELECT date(created_at / 1000 - 10800, 'unixepoch') AS day, source,
        coalesce(utm_campaign, '') AS campaign, coalesce(utm_content, '') AS content, 0 AS visits,
        count(*) AS leads, sum(jetimob_enviado) AS delivered,
        sum(EXISTS (SELECT 1 FROM lead_links k WHERE k.lead_id = leads.id)) AS duplicates
      FROM leads GROUP BY 1, 2, 3, 4`,
    leads_search_rows: "SELECT rowid AS search_rowid, lead_id FROM leads_search",
    // The search index's own storage, rewritten as it takes the campaign
    // rows: what it holds is read through leads_search (ROWS_ADDED).
    leads_search_content: "SELECT * FROM leads_search_content",
    leads_search_data: "SELECT * FROM leads_search_data",
    leads_search_idx: "SELECT * FROM leads_search_idx",
    leads_search_docsize: "SELECT * FROM leads_search_docsize",
  },
  // No network has visited yet; no visit went uncounted.
  20: { visit_networks: null, visits_uncounted: null },
  // No lead of a release waits for a first contact; the owners' choices at their defaults.
  23: {
    contact_counters: "SELECT 'uncontacted' AS name, 0 AS n",
    panel_settings: "SELECT 'colleague_notices' AS name, 1 AS value UNION ALL SELECT 'contact_target_minutes', 5",
  },
};

/**
 * A day's visits as 0020 keys them: by the report's line (day, source,
 * campaign, ad), the keys that differed only in medium, keyword or
 * referrer's host added up.
 */
export function visitsByLine(rows: Rows): Rows {
  const lines = new Map<string, Rows[number]>();
  for (const { day, source, campaign, content, n } of rows) {
    const key = JSON.stringify([day, source, campaign, content]);
    const line = lines.get(key) ?? { day, source, campaign, content, n: 0 };
    line.n = Number(line.n) + Number(n);
    lines.set(key, line);
  }
  return [...lines.values()];
}

/**
 * Tables a migration rewrote from their own rows, by migration: what each
 * holds once migrated, from what it held before.
 */
const TABLES_REWRITTEN: Record<number, Record<string, (rows: Rows) => Rows>> = {
  20: { visit_counts: visitsByLine },
  // One name per source: the rows of a day and line under other spellings added into one.
  24: {
    visit_counts: (rows) => foldedSources(rows, ["n"]),
    campaign_daily: (rows) => foldedSources(rows, ["visits", "leads", "delivered", "duplicates"]),
  },
};

/** `rows` under each source's one name, those that meet added up in `figures`. */
function foldedSources(rows: Rows, figures: string[]): Rows {
  const lines = new Map<string, Rows[number]>();
  for (const row of rows) {
    const source = sourceOf(String(row.source)) ?? String(row.source);
    const key = JSON.stringify([row.day, source, row.campaign, row.content]);
    const line = lines.get(key);
    if (!line) lines.set(key, { ...row, source });
    else for (const f of figures) line[f] = Number(line[f]) + Number(row[f]);
  }
  return [...lines.values()];
}

/** A lead whose source 0024 renamed moved the change counter once. */
const renamedLeads = (leads: Rows = []) => leads.filter((l) => sourceOf(String(l.source)) !== l.source).length;

/**
 * Rows migrations added to tables that were there before, by migration:
 * what they should be, read from `app`, upgraded.
 */
const ROWS_ADDED: Record<number, Record<string, string>> = {
  // A search row of each lead's campaign, ad and keyword.
  15: {
    leads_search: `SELECT id AS lead_id, trim(coalesce(utm_campaign, '') || ' ' || coalesce(utm_content, '') || ' '
        || coalesce(utm_term, '')) AS body
      FROM leads WHERE coalesce(utm_campaign, utm_content, utm_term) IS NOT NULL`,
  },
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
  const out: Record<string, Rows> = { ...rows };
  const numbers = [COLUMNS_ADDED, TABLES_ADDED, TABLES_REWRITTEN, ROWS_ADDED].flatMap((m) =>
    Object.keys(m).map(Number),
  );
  // Migration by migration, in order: a later one may change what an earlier one added.
  for (const migration of [...new Set(numbers)].filter((n) => n > migrations).sort((a, b) => a - b)) {
    for (const [table, columns] of Object.entries(COLUMNS_ADDED[migration] ?? {})) {
      out[table] = (out[table] ?? []).map((row) => ({ ...row, ...columns(row, rows) }));
    }
    for (const [table, source] of Object.entries(TABLES_ADDED[migration] ?? {})) {
      out[table] = source ? ordered(await app.sql<Record<string, unknown>>(source)) : [];
    }
    for (const [table, rewrite] of Object.entries(TABLES_REWRITTEN[migration] ?? {})) {
      out[table] = ordered(rewrite(out[table] ?? []));
    }
    for (const [table, source] of Object.entries(ROWS_ADDED[migration] ?? {})) {
      out[table] = ordered([...(out[table] ?? []), ...(await app.sql<Record<string, unknown>>(source))]);
    }
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
 * every row (and whatever `beforeMigrating` reads), applies the migrations
 * since as production gets them, and reads every row again.
 */
export async function upgradeRelease(
  commit: string,
  migrations: number,
  beforeMigrating?: (release: App) => Promise<void>,
): Promise<Upgraded> {
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
  await beforeMigrating?.(app);
  await app.migrate();
  const after = await everyRow(app);
  const stop = async () => {
    await app.stop();
    await Promise.all([jetimob.stop(), mail.stop(), hook.stop()]);
  };
  return { app, jetimob, mail, hook, before, after, stop };
}
