import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aLead, LEAD_PATH, uniqueIp } from "../support/leads";
import { eventually } from "../support/net";
import { repoRoot, toolsPath, wranglerBin } from "../support/paths";

// The other tests start the worker through wrangler's test harness. This one
// runs what `make dev` runs, the Makefile's own `db` and `serve` steps
// (`wrangler d1 migrations apply --local`, then `wrangler dev`), on a local D1
// of its own, and talks to it through the port `wrangler dev` prints.
const run = promisify(execFile);
const env = { ...process.env, PATH: toolsPath, NO_COLOR: "1", CI: "true", WRANGLER_SEND_METRICS: "false" };

let state: string;
let server: ChildProcess;
let output = "";
let baseUrl = "";
const OWNER = "dona@agencia.example";

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

function make(...args: string[]) {
  return run("make", ["--no-print-directory", ...args, `DEV_STATE=${state}`], { cwd: repoRoot, env });
}

beforeAll(async () => {
  state = await mkdtemp(join(tmpdir(), "lead-site-dev-"));
  // Blank settings instead of the developer's .dev.vars: no lead may reach a real CRM from here.
  const settings = join(state, "test.env");
  // E-mail to the log, as in make dev.
  await writeFile(
    settings,
    "JETIMOB_PUBLIC_KEY=\nJETIMOB_PRIVATE_KEY=\nMAIL_API_KEY=\nMAIL_LOG_ONLY=true\nTURNSTILE_SECRET_KEY=\nALERT_WEBHOOK_URL=\n",
  );
  await make("db");
  // An owner, who gets the new-lead notices and the delivery alerts.
  await run(
    wranglerBin,
    [
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      state,
      "--command",
      "INSERT INTO staff_users (id, email, password_hash, created_at, confirmed_at, role, lead_notices, notices_sent_through) " +
        `VALUES ('dev-owner', '${OWNER}', '!', 0, 0, 'owner', 1, 0)`,
    ],
    { cwd: repoRoot, env },
  );
  const port = await freePort();
  server = spawn(
    "make",
    ["--no-print-directory", "serve", `DEV_STATE=${state}`, `PORT=${port}`, `DEV_ARGS=--env-file ${settings}`],
    {
      cwd: repoRoot,
      // The cron every 2 s instead of every minute.
      env: { ...env, DEV_CRON_SECONDS: "2" },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const take = (chunk: Buffer) => {
    output += chunk.toString();
  };
  server.stdout?.on("data", take);
  server.stderr?.on("data", take);
  baseUrl = await eventually(async () => {
    if (server.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    return output.match(/Ready on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
  }, 120_000);
}, 180_000);

afterAll(async () => {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
  await eventually(async () => server.exitCode !== null || server.signalCode !== null, 10_000).catch(() => {});
  await rm(state, { recursive: true, force: true });
});

describe("make dev's wrangler dev", () => {
  it("serves the landing page with its security headers", async () => {
    const page = await fetch(`${baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await page.text()).toContain("Quero meu acesso antecipado ao lançamento exclusivo");
  });

  it("stores a lead in the local D1 the migrations made, and keeps it there", async () => {
    const lead = aLead({ name: "Dora Desenvolvimento" });
    const answer = await fetch(baseUrl + LEAD_PATH, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: baseUrl, "CF-Connecting-IP": uniqueIp() },
      body: JSON.stringify(lead),
    });
    expect(answer.status).toBe(200);
    const { stdout } = await run(
      wranglerBin,
      ["d1", "execute", "DB", "--local", "--persist-to", state, "--json", "--command", "SELECT name, email FROM leads"],
      { cwd: repoRoot, env },
    );
    const [result] = JSON.parse(stdout) as { results: { name: string; email: string }[] }[];
    expect(result?.results).toEqual([{ name: "Dora Desenvolvimento", email: lead.email }]);
  });

  it("fires the cron by itself: the lead's notice and the delivery alert are written to the log", async () => {
    await eventually(async () => output.includes("Subject: Novo lead: Dora Desenvolvimento") || undefined, 60_000);
    await eventually(async () => output.includes("Subject: Leads não estão chegando ao Jetimob") || undefined, 60_000);
    expect(output).toContain(`To: ${OWNER}`);
    expect(output).toContain("A entrega ao Jetimob está desligada");
    // Its links open this local panel, not the live site.
    expect(output).toMatch(new RegExp(`${baseUrl}/admin/leads/[\\w-]+`));
    expect(output).toContain(`${baseUrl}/admin`);
  });

  it("runs the cron handler when asked, as Cloudflare will every minute", async () => {
    const cron = await fetch(`${baseUrl}/__scheduled?cron=*+*+*+*+*`);
    expect(cron.status).toBe(200);
  });

  it("upgrades the same local D1 again without complaint: nothing is left to apply", async () => {
    const { stdout } = await make("db");
    expect(stdout).toMatch(/No migrations to apply/);
  });
});
