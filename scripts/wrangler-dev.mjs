// Starts the real worker under `wrangler dev`, for the tests and the benchmark.
//
// `wrangler dev` puts a hot-reload proxy (its "ProxyWorker") in front of the
// worker. With this wrangler, that extra hop now and then holds every request
// in flight for good, or resets a kept-alive connection: a page load in a test
// never finishes. Production has no such hop. So the worker is still started
// by `wrangler dev`, in workerd on a local D1, but the tests talk to the
// worker's own workerd socket, the address wrangler forwards to. Wrangler
// writes that address to its log file (WRANGLER_LOG_PATH), not to the console.
//
// The proxy also paces requests. Without it, a sustained load (the benchmark)
// outruns wrangler's inspector relay, which sends its Node process one HTTP
// request per inspector message (several per page): thousands of sockets pile
// up in wrangler's own workerd. At the tests' pace the relay keeps up (a whole
// test run peaks at about 50 sockets).
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";

const USER_WORKER_URL = /"userWorkerUrl":\{"protocol":"(https?:)","hostname":"([^"]+)","port":"(\d+)"\}/g;
const START_TIMEOUT_MS = 120_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address && typeof address === "object") {
        const { port } = address;
        server.close(() => resolve(port));
      } else {
        reject(new Error("no port"));
      }
    });
  });
}

/**
 * The worker's own address in a wrangler log file, or null until wrangler has
 * written it. The latest one wins: a reload moves the worker to a new port.
 *
 * @param {string} logPath
 * @returns {Promise<string | null>} e.g. "http://127.0.0.1:41863"
 */
async function workerAddress(logPath) {
  let log;
  try {
    log = await readFile(logPath, "utf8");
  } catch {
    return null;
  }
  const last = [...log.matchAll(USER_WORKER_URL)].at(-1);
  if (!last) return null;
  const [, protocol, hostname, port] = last;
  return `${protocol}//${hostname}:${port}`;
}

/**
 * @typedef {object} DevWorker
 * @property {string} baseUrl the worker's own address, http://127.0.0.1:<port>
 * @property {string} wranglerUrl the address wrangler prints, through its reload proxy
 * @property {number} inspectorPort wrangler's inspector (V8 DevTools protocol)
 * @property {number} pid wrangler's process, leader of the group of its workerd processes
 * @property {() => void} stop ends wrangler and its workerd processes
 */

/**
 * Starts `wrangler dev` on the local D1 in `persistDir` and resolves once the
 * worker itself serves a page.
 *
 * @param {object} options
 * @param {string} options.root the repository (wrangler.toml, node_modules)
 * @param {string} options.persistDir the local D1 (and this instance's wrangler log)
 * @param {Record<string, string>} [options.vars] `--var`s
 * @param {string} [options.logLevel] wrangler's `--log-level`
 * @param {string[]} [options.args] more `wrangler dev` arguments
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {(chunk: string) => void} [options.onOutput] what wrangler prints, as it prints it
 * @returns {Promise<DevWorker>}
 */
export async function startDevWorker({ root, persistDir, vars = {}, logLevel = "info", args = [], env, onOutput }) {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const wranglerLog = join(persistDir, `wrangler-${port}.log`);
  const child = spawn(
    join(root, "node_modules/.bin/wrangler"),
    [
      "dev",
      ...args,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistDir,
      "--show-interactive-dev-session=false",
      "--log-level",
      logLevel,
      ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]),
    ],
    {
      cwd: root,
      env: {
        ...(env ?? process.env),
        NO_COLOR: "1",
        FORCE_COLOR: "0",
        WRANGLER_SEND_METRICS: "false",
        CI: "true",
        // Instances must not see each other: by default every `wrangler dev` on
        // the machine shares a registry and reloads its worker when another
        // instance starts or stops, failing requests in flight.
        WRANGLER_REGISTRY_PATH: join(persistDir, "dev-registry"),
        WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true",
        WRANGLER_LOG_PATH: wranglerLog,
      },
      detached: true,
      stdio: "pipe",
    },
  );
  // While starting: the last part of the output, for the error if the start fails.
  let starting = true;
  let tail = "";
  let ready = false;
  const take = (data) => {
    const chunk = data.toString();
    if (starting) {
      tail = (tail + chunk).slice(-16 * 1024);
      ready ||= tail.includes("Ready on");
    }
    onOutput?.(chunk);
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const stop = () => {
    if (child.exitCode !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${tail}`);
    const baseUrl = ready ? await workerAddress(wranglerLog) : null;
    try {
      if (baseUrl && (await fetch(`${baseUrl}/robots.txt`)).ok) {
        starting = false;
        return { baseUrl, wranglerUrl: `http://127.0.0.1:${port}`, inspectorPort, pid: child.pid, stop };
      }
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  stop();
  throw new Error(`wrangler dev did not become ready (or ${wranglerLog} never named the worker's address):\n${tail}`);
}
