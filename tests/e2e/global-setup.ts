import { mkdir } from "node:fs/promises";
import { spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { SCREENSHOT_DIR } from "./support";

/**
 * Starts the site once for every browser test, with a fake e-mail API, and
 * prints where the screenshots go.
 */
export default async function globalSetup() {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const mail = await new FakeMail().start();
  const app = await spawnApp({ vars: { MAIL_API_KEY: "mail-test-key", MAIL_API_BASE_URL: mail.url } });
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_PERSIST_DIR = app.persistDir;
  process.env.E2E_MAIL_URL = mail.url;
  console.log(`\nSite under test: ${app.baseUrl}\nScreenshots: ${SCREENSHOT_DIR}\n`);
  return async () => {
    await app.stop();
    await mail.stop();
    console.log(`\nScreenshots saved in ${SCREENSHOT_DIR}\n`);
  };
}
