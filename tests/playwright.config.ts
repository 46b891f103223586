import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../scripts/chromium.mjs";

/**
 * Browser tests: Debian's Chromium (Playwright cannot download its own here)
 * against the real worker under `wrangler dev`, one fresh site per worker
 * (e2e/fixtures.ts). Every spec runs on a phone and a desktop viewport.
 */
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
    trace: "retain-on-failure",
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
    },
  ],
});
