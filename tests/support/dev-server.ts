import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eventually } from "./net";
import { repoRoot, toolsPath, wranglerBin } from "./paths";

const run = promisify(execFile);
const env = { ...process.env, PATH: toolsPath, NO_COLOR: "1", CI: "true", WRANGLER_SEND_METRICS: "false" };

/**
 * What `make dev` runs, the Makefile's own `db` and `serve` steps (`wrangler
 * d1 migrations apply --local`, then `wrangler dev`), on a local D1 of its
 * own. Unlike wrangler's test harness, which the other tests use and which
 * sends the worker's outbound requests through Node's `fetch`, here workerd
 * makes them itself, as on Cloudflare.
 */
export type DevServer = {
  /** Where `wrangler dev` said it is ready. */
  url: string;
  /** The folder of its local D1. */
  state: string;
  /** Everything it printed so far. */
  output(): string;
  /** Runs a make target on the same local D1. */
  make(...args: string[]): Promise<{ stdout: string }>;
  /** A statement on the local D1, through `wrangler d1 execute --local`. */
  sql<T>(command: string): Promise<T[]>;
  stop(): Promise<void>;
};

/** Blank settings, not the developer's .dev.vars: nothing may reach a real service from a test. */
const BLANK = {
  JETIMOB_PUBLIC_KEY: "",
  JETIMOB_PRIVATE_KEY: "",
  MAIL_API_KEY: "",
  MAIL_LOG_ONLY: "true",
  TURNSTILE_SECRET_KEY: "",
  ALERT_WEBHOOK_URL: "",
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/**
 * Starts `make serve` with `settings` over blank ones (e-mail to the log, as
 * in make dev), the cron every 2 s, after `make db` and the `before` SQL.
 */
export async function startDevServer(
  options: { settings?: Record<string, string>; before?: string[] } = {},
): Promise<DevServer> {
  const state = await mkdtemp(join(tmpdir(), "lead-site-dev-"));
  const make = (...args: string[]) =>
    run("make", ["--no-print-directory", ...args, `DEV_STATE=${state}`], { cwd: repoRoot, env });
  const sql = async <T>(command: string): Promise<T[]> => {
    const { stdout } = await run(
      wranglerBin,
      ["d1", "execute", "DB", "--local", "--persist-to", state, "--json", "--command", command],
      { cwd: repoRoot, env },
    );
    const [result] = JSON.parse(stdout) as { results: T[] }[];
    return result?.results ?? [];
  };
  const settingsFile = join(state, "test.env");
  const settings = { ...BLANK, ...options.settings };
  await writeFile(
    settingsFile,
    `${Object.entries(settings)
      .map(([name, value]) => `${name}=${value}\n`)
      .join("")}`,
  );
  await make("db");
  for (const command of options.before ?? []) await sql(command);

  const removeState = () => rm(state, { recursive: true, force: true });
  // A port is free when chosen, but another process may take it before
  // wrangler binds it: then another is chosen.
  for (let attempt = 1; ; attempt++) {
    const server = serve(await freePort(), state, settingsFile);
    const started = await server.ready.catch(async (error) => {
      await server.stop();
      await removeState();
      throw error;
    });
    if ("url" in started) {
      const stop = async () => {
        await server.stop();
        await removeState();
      };
      return { url: started.url, state, output: server.output, make, sql, stop };
    }
    await server.stop();
    if (attempt < 3 && started.exited.includes("Address already in use")) continue;
    await removeState();
    throw new Error(`wrangler dev exited:\n${started.exited}`);
  }
}

/** `make serve` on `port`: ready once wrangler dev prints where, or exited with what it printed. */
function serve(port: number, state: string, settingsFile: string) {
  const server: ChildProcess = spawn(
    "make",
    ["--no-print-directory", "serve", `DEV_STATE=${state}`, `PORT=${port}`, `DEV_ARGS=--env-file ${settingsFile}`],
    {
      cwd: repoRoot,
      env: { ...env, DEV_CRON_SECONDS: "2" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const take = (chunk: Buffer) => {
    output += chunk.toString();
  };
  server.stdout?.on("data", take);
  server.stderr?.on("data", take);
  const ready = eventually(async (): Promise<{ url: string } | { exited: string } | undefined> => {
    if (server.exitCode !== null) return { exited: output };
    const url = output.match(/Ready on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
    return url ? { url } : undefined;
  }, 120_000);
  const stop = async () => {
    if (server.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
    await eventually(async () => server.exitCode !== null || server.signalCode !== null || undefined, 10_000).catch(
      () => {},
    );
  };
  return { ready, output: () => output, stop };
}
