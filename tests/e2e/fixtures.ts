import { join } from "node:path";
import { test as base } from "@playwright/test";
import { type App, spawnApp } from "../support/app";
import { FakeService } from "../support/fake-http";
import { FakeMail } from "../support/fake-mail";
import { repoRoot } from "../support/paths";
import { insertLeads } from "../support/seed";
import { E2E_LEADS } from "./seed-data";
import { useSite } from "./support";

/** Where each worker's output is kept (outside the per-run results folder). */
export const LOG_DIR = join(repoRoot, "tests/artifacts/logs");

/**
 * Each Playwright worker gets its own site: the real worker in workerd on a
 * fresh D1 (migrations applied) holding {@link E2E_LEADS}, with a fake e-mail
 * API and a webhook receiver that takes every event (the webhook is on, so a
 * test can show what the panel says when it refuses). Tests read D1 through
 * the worker's binding (`sql` in support.ts).
 */
export const test = base.extend<object, { site: { app: App; mail: FakeMail } }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const mail = await new FakeMail().start();
      const hook = await new FakeService(() => ({ status: 204 })).start();
      const app = await spawnApp({
        vars: { ...mail.settings(), ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads` },
        // What the worker printed, kept for reading after a failure.
        logFile: join(LOG_DIR, `worker-${workerInfo.workerIndex}-${Date.now()}.log`),
      });
      await insertLeads(app, E2E_LEADS);
      // The cron runs only when a test fires it, so it is taken as running
      // (its last watch dated a day ahead): no 'envio automático parado'
      // banner over every panel; alerts.spec.ts shows that banner on purpose.
      await app.sql("INSERT INTO cron_state (name, value) VALUES ('delivery_watched_at', ?1)", Date.now() + 86_400_000);
      useSite({ app, mail });
      await use({ app, mail });
      await app.stop();
      await Promise.all([mail.stop(), hook.stop()]);
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.app.baseUrl);
  },
});

export type { Page } from "@playwright/test";
export { expect } from "@playwright/test";
