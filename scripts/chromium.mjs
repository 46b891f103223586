// Debian's Chromium, as the browser tests and the benchmark launch it. Playwright
// cannot download its own browser here; without the background-networking
// flags Chromium keeps trying hosts this machine cannot reach.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
