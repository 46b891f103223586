import { afterAll, beforeAll } from "vitest";
import { type App, spawnApp } from "./app";
import type { FakeMail } from "./fake-mail";

/**
 * For a test file about staff accounts: before its tests, starts `mail` and a
 * worker that sends its e-mail there, and hands the worker to `started`;
 * after them, stops both.
 */
export function startAppWithMail(mail: FakeMail, started: (app: App) => void): void {
  let app: App | undefined;
  beforeAll(async () => {
    await mail.start();
    app = await spawnApp({ vars: mail.settings() });
    started(app);
  });
  afterAll(async () => {
    await app?.stop();
    await mail.stop();
  });
}
