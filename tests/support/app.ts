import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type DevWorker, startDevWorker } from "../../scripts/wrangler-dev.mjs";
import { sleep } from "./net";
import { repoRoot, toolsPath, wranglerBin } from "./paths";

const run = promisify(execFile);

/** Settings every test instance gets, so a developer's .dev.vars never leaks into a test. */
export const TEST_VARS: Record<string, string> = {
  JWT_SECRET: "test-signing-key-0123456789abcdef0123456789abcdef",
  JETIMOB_PUBLIC_KEY: "",
  JETIMOB_PRIVATE_KEY: "",
  MAIL_API_KEY: "",
  TURNSTILE_SITE_KEY: "",
  TURNSTILE_SECRET_KEY: "",
};

export type App = {
  /** http://127.0.0.1:<port>: the worker's own workerd socket (see scripts/wrangler-dev.mjs). */
  baseUrl: string;
  persistDir: string;
  /** Runs SQL on the instance's local D1 through wrangler; returns the last statement's rows. */
  sql<T = Record<string, unknown>>(query: string): Promise<T[]>;
  /** Everything the worker printed so far. */
  logs(): string;
  /** Fires the cron trigger once and waits for it to finish. */
  runCron(): Promise<void>;
  stop(): Promise<void>;
};

const env = () => ({
  ...process.env,
  PATH: toolsPath,
  NO_COLOR: "1",
  FORCE_COLOR: "0",
  WRANGLER_SEND_METRICS: "false",
  CI: "true",
});

/** Applies schema.sql to the local D1 under `persistDir`. */
export async function applySchema(persistDir: string): Promise<void> {
  await run(wranglerBin, ["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--file", "schema.sql"], {
    cwd: repoRoot,
    env: env(),
  });
}

export async function d1(persistDir: string, query: string): Promise<Record<string, unknown>[]> {
  // The running worker and this separate process share the SQLite file; a
  // write that meets another write is told the database is busy: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      const { stdout } = await run(
        wranglerBin,
        ["d1", "execute", "DB", "--local", "--persist-to", persistDir, "--json", "--command", query],
        { cwd: repoRoot, env: env(), maxBuffer: 64 * 1024 * 1024 },
      );
      const results = JSON.parse(stdout) as { results: Record<string, unknown>[] }[];
      return results.at(-1)?.results ?? [];
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("SQLITE_BUSY")) throw error;
      await sleep(200 * attempt);
    }
  }
}

/**
 * wrangler.toml plus `extra` (bindings the committed file only documents),
 * written to a temporary folder with its paths made absolute. Without the
 * `[build]` step: the tests run on what `make build` made.
 */
async function configWith(extra: string): Promise<{ path: string; dir: string }> {
  const base = await readFile(join(repoRoot, "wrangler.toml"), "utf8");
  const config = base
    .replace(/^main = "(.*)"$/m, (_, p: string) => `main = ${JSON.stringify(join(repoRoot, p))}`)
    .replace(/^directory = "(.*)"$/m, (_, p: string) => `directory = ${JSON.stringify(join(repoRoot, p))}`)
    .replace(/^\[build\]\n(?:(?!^\[).*\n)*/m, "");
  await mkdir(join(repoRoot, ".build"), { recursive: true });
  const dir = await mkdtemp(join(repoRoot, ".build", "wrangler-config-"));
  const path = join(dir, "wrangler.toml");
  await writeFile(path, `${config}\n${extra}\n`);
  return { path, dir };
}

export type SpawnOptions = {
  vars?: Record<string, string>;
  persistDir?: string;
  /** TOML added to wrangler.toml for this instance, e.g. a `[[ratelimits]]` binding. */
  extraConfig?: string;
  /** Where to keep what the worker printed, once it stops. */
  logFile?: string;
};

/**
 * Starts the real worker in workerd through `wrangler dev`, on a fresh local
 * D1 made from schema.sql, with `vars` on top of {@link TEST_VARS}. Requests go
 * straight to the worker's workerd socket, not through wrangler's reload proxy
 * (scripts/wrangler-dev.mjs).
 */
export async function spawnApp(options: SpawnOptions = {}): Promise<App> {
  const persistDir = options.persistDir ?? (await mkdtemp(join(tmpdir(), "lead-site-d1-")));
  if (!options.persistDir) await applySchema(persistDir);
  const config = options.extraConfig === undefined ? null : await configWith(options.extraConfig);
  let output = "";
  let worker: DevWorker;
  try {
    worker = await startDevWorker({
      root: repoRoot,
      persistDir,
      vars: { ...TEST_VARS, ...options.vars },
      // Exposes /__scheduled; see runCron.
      args: [...(config ? ["--config", config.path] : []), "--test-scheduled"],
      env: env(),
      onOutput: (chunk) => {
        output += chunk;
      },
    });
  } catch (error) {
    if (config) await rm(config.dir, { recursive: true, force: true });
    throw error;
  }
  const { baseUrl } = worker;

  return {
    baseUrl,
    persistDir,
    sql: <T>(query: string) => d1(persistDir, query) as Promise<T[]>,
    logs: () => output,
    async runCron() {
      // Not /cdn-cgi/handler/scheduled: with static assets, this wrangler's
      // local runtime fails it before the worker runs (workers-sdk#9882).
      // /__scheduled runs the handler inside the worker and answers once it is done.
      const response = await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`);
      if (!response.ok) throw new Error(`scheduled handler answered ${response.status}`);
    },
    async stop() {
      worker.stop();
      await sleep(200);
      if (options.logFile) await writeFile(options.logFile, output);
      if (!options.persistDir) await rm(persistDir, { recursive: true, force: true });
      if (config) await rm(config.dir, { recursive: true, force: true });
    },
  };
}
