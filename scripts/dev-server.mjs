// `make dev`'s server: `wrangler dev` with the arguments given, plus the cron.
// wrangler dev never fires scheduled events on its own, so every minute (or
// every DEV_CRON_SECONDS) this calls wrangler's `--test-scheduled` route, as
// Cloudflare calls the worker's scheduled handler in production: deliveries
// are retried, notices and alerts go out (to the log, with MAIL_LOG_ONLY).
import { spawn } from "node:child_process";

const seconds = Number(process.env.DEV_CRON_SECONDS || 60);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(`DEV_CRON_SECONDS must be a positive number of seconds, not '${process.env.DEV_CRON_SECONDS}'`);
  process.exit(2);
}

const wrangler = spawn("wrangler", ["dev", "--test-scheduled", ...process.argv.slice(2)], {
  stdio: ["inherit", "pipe", "pipe"],
});

let origin = null;
let timer = null;
let seen = "";

function watch(chunk, out) {
  out.write(chunk);
  if (origin) return;
  seen = (seen + chunk.toString()).slice(-4096);
  const ready = seen.match(/Ready on (http:\/\/[^\s]+)/);
  if (!ready) return;
  origin = ready[1].replace(/\/$/, "");
  console.log(`[cron] the scheduled handler runs every ${seconds} s (${origin}/__scheduled)`);
  timer = setInterval(tick, seconds * 1000);
}

async function tick() {
  try {
    const answer = await fetch(`${origin}/__scheduled?cron=*+*+*+*+*`);
    await answer.arrayBuffer();
    if (!answer.ok) console.error(`[cron] the scheduled handler answered HTTP ${answer.status}`);
  } catch (error) {
    console.error(`[cron] could not reach wrangler dev: ${error.message}`);
  }
}

wrangler.stdout.on("data", (chunk) => watch(chunk, process.stdout));
wrangler.stderr.on("data", (chunk) => watch(chunk, process.stderr));

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    clearInterval(timer);
    wrangler.kill(signal);
  });
}

wrangler.on("exit", (code, signal) => {
  clearInterval(timer);
  process.exit(code ?? (signal ? 0 : 1));
});
