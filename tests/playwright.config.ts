import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/chromium.mjs";

/**
 * Browser tests: Debian's Chromium (Playwright cannot download its own here)
 * against the real worker under `wrangler dev`, one fresh site per worker
 * (e2e/fixtures.ts). Every spec runs on a phone and a desktop viewport, but
 * for the tests tagged {@link ONE_SCREEN}: what they assert does not depend
 * on the screen (response headers, what is stored and sent, e-mails, how a
 * session ends), so they run once, on the phone, where visitors and brokers
 * are.
 */
const ONE_SCREEN = /@one-screen/;
const chromium = { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS };

export default defineConfig({
  testDir: "e2e",
  outputDir: "artifacts/test-results",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    // A failed test keeps its trace: every action with the page's DOM before
    // and after it. Without the screencast's frames, which cost every test
    // about a seventh of its time (admin.spec on a desk: 52.6 s against 45.3 s).
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: chromium,
  },
  projects: [
    {
      name: "phone",
      use: { ...devices["Pixel 7"], launchOptions: chromium },
    },
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], viewport: { width: 1440, height: 900 }, launchOptions: chromium },
      grepInvert: ONE_SCREEN,
    },
  ],
});
