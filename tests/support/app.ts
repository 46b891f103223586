import { writeFile } from "node:fs/promises";
import { BLANK_SETTINGS, type D1, startLocalWorker } from "../../scripts/local-worker.mjs";

/** Settings every test instance gets, so a developer's .dev.vars never leaks into a test. */
export const TEST_VARS: Record<string, string> = BLANK_SETTINGS;

/**
 * Room for the many accounts one test file (or one browser worker) signs up
 * within the hour: the site-wide sign-up limits' own test starts with them
 * blank, which is their default.
 */
export const ROOMY_SIGNUPS: Record<string, string> = {
  STAFF_SIGNUPS_PER_HOUR: "100000",
  STAFF_SIGNUPS_PER_DAY: "100000",
};

export type App = {
  /** http://127.0.0.1:<port>, where the worker answers. */
  baseUrl: string;
  /** The worker's own D1 binding. */
  db: D1;
  /** Runs one statement on the worker's own D1, `?1`… bound to `params`; returns its rows. */
  sql<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]>;
  /** Runs several statements in one D1 batch (one transaction). */
  batch(statements: [query: string, ...params: unknown[]][]): Promise<void>;
  /** Applies the migrations not yet applied (for a database a test built by hand). */
  migrate(): Promise<void>;
  /** Everything the worker printed so far. */
  logs(): string;
  /** Fires the cron trigger once and waits for it to finish. */
  runCron(): Promise<void>;
  stop(): Promise<void>;
};

export type SpawnOptions = {
  /** Settings as wrangler.toml's `[vars]` may write them: text, numbers, booleans. */
  vars?: Record<string, string | number | boolean>;
  /** Cloudflare Rate Limiting bindings, which wrangler.toml only documents. */
  ratelimits?: { name: string; namespace_id: string; simple: { limit: number; period: number } }[];
  /** `false`: start on an empty D1, no migration applied (the upgrade test). */
  migrate?: boolean;
  /** Where to keep what the worker printed, once it stops. */
  logFile?: string;
};

/**
 * Starts the real worker in workerd through wrangler's test harness
 * (scripts/local-worker.mjs), on a fresh D1 made by the migrations, with
 * `vars` on top of {@link TEST_VARS} and {@link ROOMY_SIGNUPS}.
 */
export async function spawnApp(options: SpawnOptions = {}): Promise<App> {
  const worker = await startLocalWorker({
    settings: { ...ROOMY_SIGNUPS, ...options.vars },
    ratelimits: options.ratelimits,
    migrate: options.migrate,
  });
  const { db } = worker;
  return {
    baseUrl: worker.url,
    db,
    async sql<T>(query: string, ...params: unknown[]) {
      const result = await db
        .prepare(query)
        .bind(...params)
        .all<T>();
      return result.results;
    },
    async batch(statements) {
      await db.batch(statements.map(([query, ...params]) => db.prepare(query).bind(...params)));
    },
    migrate: worker.applyMigrations,
    logs: worker.logs,
    runCron: () => worker.scheduled(),
    async stop() {
      const printed = worker.logs();
      await worker.stop();
      if (options.logFile) await writeFile(options.logFile, printed);
    },
  };
}
