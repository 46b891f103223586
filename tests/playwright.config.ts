import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from "../scripts/chromium.mjs";

/**
 * Browser tests: Debian's Chromium, its headless shell (Playwright cannot
 * download its own here; scripts/chromium.mjs says why this build), against
 * the real worker under `wrangler dev`, one fresh site per worker
 * (e2e/fixtures.ts). Every spec runs on a phone and a desktop viewport, but
 * for the tests tagged {@link ONE_SCREEN}: what they assert does not depend
 * on the screen (response headers, what is stored and sent, e-mails, how a
 * session ends), so they run once, on the phone, where visitors and brokers
 * are.
 */
const ONE_SCREEN = /@one-screen/;
const chromium = { executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_FLAGS };

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
    // No trace by default: recording the page's DOM around every action cost
    // the run a tenth of its time (admin.spec on a phone: 44.5 s against 40.8 s),
    // for a file CI never shows. A failure still writes its page's last state
    // (error-context.md); `--trace retain-on-failure` records the steps
    // (docs/development.md).
    trace: "off",
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
