// Where `wrangler dev` runs the worker itself, for the tests and the benchmark.
//
// `wrangler dev` puts a hot-reload proxy (its "ProxyWorker") in front of the
// worker. With this wrangler, that extra hop now and then holds every request
// in flight for good, or resets a kept-alive connection: a page load in a test
// never finishes. Production has no such hop. So the tests and the benchmark
// still start the real worker with `wrangler dev`, in workerd on a local D1,
// and then talk to the worker's own workerd socket, the address wrangler
// forwards to. Wrangler writes that address to its log file (WRANGLER_LOG_PATH),
// not to the console.
import { readFile } from "node:fs/promises";

const USER_WORKER_URL = /"userWorkerUrl":\{"protocol":"(https?:)","hostname":"([^"]+)","port":"(\d+)"\}/g;

/**
 * The worker's own address, from the log file `wrangler dev` writes when
 * WRANGLER_LOG_PATH names a `.log` file; null until wrangler has written it.
 * The latest one wins: a reload moves the worker to a new port.
 *
 * @param {string} logPath
 * @returns {Promise<string | null>} e.g. "http://127.0.0.1:41863"
 */
export async function workerAddress(logPath) {
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
