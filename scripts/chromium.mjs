// Debian's Chromium, as the browser tests and the benchmark launch it. Playwright
// cannot download its own browser here; without the background-networking
// flags Chromium keeps trying hosts this machine cannot reach.
//
// The browser tests run Debian's `chromium-headless-shell`, the headless-only
// build Playwright itself runs headless tests in: the same Blink, without the
// full browser's window, GPU and profile machinery. The browser tests take
// 40% less time in it (docs/performance.md). The benchmark's Lighthouse runs
// the full browser (`--headless=new`), as its figures always have.
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const TEST_CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  // A phone on 4G, whatever the machine's own network: how far ahead of the
  // screen the browser fetches a lazy picture depends on it (first-minute.spec).
  "--force-effective-connection-type=4G",
];
