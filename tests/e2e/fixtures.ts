import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base } from "@playwright/test";
import { type App, applySchema, d1, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { repoRoot } from "../support/paths";
import { insertLeads } from "../support/seed";
import { E2E_LEADS } from "./seed-data";

/** Where each worker's `wrangler dev` output is kept (outside the per-run results folder). */
export const LOG_DIR = join(repoRoot, "tests/artifacts/logs");

/**
 * Each Playwright worker gets its own site: the real worker under
 * `wrangler dev` on a fresh local D1 holding {@link E2E_LEADS}, with a fake
 * e-mail API. During the tests D1 is only read from outside the worker.
 */
export const test = base.extend<object, { site: { app: App; mail: FakeMail } }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const mail = await new FakeMail().start();
      const persistDir = await mkdtemp(join(tmpdir(), "lead-site-e2e-"));
      await applySchema(persistDir);
      await insertLeads({ sql: (query) => d1(persistDir, query) }, E2E_LEADS);
      const app = await spawnApp({
        persistDir,
        vars: { MAIL_API_KEY: "mail-test-key", MAIL_API_BASE_URL: mail.url },
        // What the worker printed, kept for reading after a failure.
        logFile: join(LOG_DIR, `worker-${workerInfo.workerIndex}-${Date.now()}.log`),
      });
      process.env.E2E_BASE_URL = app.baseUrl;
      process.env.E2E_PERSIST_DIR = app.persistDir;
      process.env.E2E_MAIL_URL = mail.url;
      await use({ app, mail });
      await app.stop();
      await mail.stop();
      await rm(persistDir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.app.baseUrl);
  },
});

export type { Page } from "@playwright/test";
export { expect } from "@playwright/test";
