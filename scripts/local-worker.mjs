// Starts the built worker locally through wrangler's public test harness
// (`createTestHarness`), for the tests and the benchmark: workerd with the
// project's own wrangler.toml (the built worker, the static assets, the D1
// binding, the cron), read by wrangler itself, on a fresh in-memory D1 made by
// applying migrations/ as `wrangler d1 migrations apply` does. The test talks
// to the worker over HTTP like a browser, queries D1 through the binding
// object, and fires the cron through the worker's scheduled handler.
//
// `make dev` serves through `wrangler dev` instead; tests/api/dev-server.test.ts
// keeps one path through that command.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestHarness, experimental_readRawConfig } from "wrangler";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const CONFIG = join(root, "wrangler.toml");

// Offline: no attempt to fetch Cloudflare's sample `request.cf` object.
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";

/**
 * Every setting the worker reads, blank: a developer's .dev.vars (which
 * wrangler loads for local runs) never leaks into a test or a benchmark.
 */
export const BLANK_SETTINGS = {
  JWT_SECRET: "test-signing-key-0123456789abcdef0123456789abcdef",
  JETIMOB_PUBLIC_KEY: "",
  JETIMOB_PRIVATE_KEY: "",
  MAIL_API_KEY: "",
  MAIL_LOG_ONLY: "",
  ALERT_WEBHOOK_URL: "",
  TURNSTILE_SITE_KEY: "",
  TURNSTILE_SECRET_KEY: "",
};

/**
 * What D1 answers to a statement.
 * @template T
 * @typedef {{ results: T[]; meta: { rows_read: number; rows_written: number; changes: number; duration: number } }} D1Result
 */

/**
 * The worker's D1 binding as Node sees it (the part the tests use).
 * @typedef {{ bind(...values: unknown[]): D1Statement; all<T = Record<string, unknown>>(): Promise<D1Result<T>>; run(): Promise<D1Result<unknown>>; first<T = Record<string, unknown>>(): Promise<T | null> }} D1Statement
 * @typedef {{ prepare(query: string): D1Statement; batch(statements: D1Statement[]): Promise<D1Result<unknown>[]>; exec(query: string): Promise<unknown> }} D1
 */

/**
 * @typedef {object} LocalWorker
 * @property {string} url where the worker answers, http://127.0.0.1:<port>
 * @property {D1} db the worker's own D1 binding
 * @property {(cron?: string) => Promise<void>} scheduled runs the cron handler once, to its end
 * @property {() => string} logs what the worker printed so far, one line per call
 * @property {() => Promise<void>} applyMigrations applies the migrations not yet applied
 * @property {() => Promise<void>} stop
 */

/**
 * Starts the worker with `settings` over {@link BLANK_SETTINGS}.
 *
 * @param {object} [options]
 * @param {Record<string, string | number | boolean>} [options.settings] vars and secrets for this instance
 * @param {object[]} [options.ratelimits] Rate Limiting bindings wrangler.toml only documents
 * @param {boolean} [options.migrate] apply migrations/ first (default true); false leaves D1 empty
 * @returns {Promise<LocalWorker>}
 */
export async function startLocalWorker({ settings = {}, ratelimits, migrate = true } = {}) {
  const vars = { ...BLANK_SETTINGS, ...settings };
  // With extra bindings the configuration is given inline: wrangler's own
  // reading of wrangler.toml, plus the bindings. Its paths are made absolute
  // and its folder is an empty one, so no .dev.vars is picked up there.
  const scratch = ratelimits ? await mkdtemp(join(tmpdir(), "lead-site-config-")) : null;
  const input = ratelimits ? { config: await inlineConfig({ vars, ratelimits }) } : { configPath: CONFIG, vars };
  const harness = createTestHarness({ root: scratch ?? root, workers: [input] });
  try {
    const { url } = await harness.listen();
    const worker = harness.getWorker();
    const env = await worker.getEnv();
    const local = {
      url: url.origin,
      db: env.DB,
      async scheduled(cron = "* * * * *") {
        const result = await worker.scheduled({ cron });
        if (result.outcome !== "ok") throw new Error(`the scheduled handler ended with ${result.outcome}`);
      },
      logs: () =>
        harness
          .getLogs()
          .map((l) => l.message)
          .join("\n"),
      applyMigrations: () => worker.applyD1Migrations("DB"),
      async stop() {
        await harness.close();
        if (scratch) await rm(scratch, { recursive: true, force: true });
      },
    };
    if (migrate) await local.applyMigrations();
    return local;
  } catch (error) {
    await harness.close().catch(() => {});
    if (scratch) await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

async function inlineConfig({ vars, ratelimits }) {
  const { rawConfig } = experimental_readRawConfig({ config: CONFIG });
  const absolute = (p) => resolve(root, p);
  return {
    ...rawConfig,
    main: absolute(rawConfig.main),
    assets: { ...rawConfig.assets, directory: absolute(rawConfig.assets.directory) },
    d1_databases: rawConfig.d1_databases.map((d) => ({
      ...d,
      migrations_dir: absolute(d.migrations_dir ?? "migrations"),
    })),
    vars: { ...rawConfig.vars, ...vars },
    ratelimits,
  };
}

/**
 * What each cron run read and wrote in D1, oldest first, from the worker's
 * log line after the run (`cron: D1 rows read N, written M`, `lib.rs`).
 * @param {string} logs what the worker printed
 * @returns {{ read: number, written: number }[]}
 */
export function cronRowCounts(logs) {
  return [...logs.matchAll(/cron: D1 rows read (\d+), written (\d+)/g)].map((m) => ({
    read: Number(m[1]),
    written: Number(m[2]),
  }));
}

/** The SQL of a migration-free file (a release's schema), as statements D1 runs one by one. */
export async function statementsOf(file) {
  const { unstable_splitSqlQuery } = await import("wrangler");
  return unstable_splitSqlQuery(await readFile(file, "utf8")).filter((s) => s.trim());
}
