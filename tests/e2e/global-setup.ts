import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { spawnApp } from "../support/app";
import { SCREENSHOT_DIR } from "./support";

/** Starts the site once for every browser test and prints where screenshots go. */
export default async function globalSetup() {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const app = await spawnApp();
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_PERSIST_DIR = app.persistDir;
  console.log(`\nSite under test: ${app.baseUrl}\nScreenshots: ${join(SCREENSHOT_DIR)}\n`);
  return async () => {
    await app.stop();
    console.log(`\nScreenshots saved in ${SCREENSHOT_DIR}\n`);
  };
}
