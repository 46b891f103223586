import { mkdir } from "node:fs/promises";
import { LOG_DIR } from "./fixtures";
import { SCREENSHOT_DIR } from "./support";

/** Prepares the screenshot folder and says where it is; each worker starts its own site (fixtures.ts). */
export default async function globalSetup() {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await mkdir(LOG_DIR, { recursive: true });
  console.log(`\nScreenshots: ${SCREENSHOT_DIR}\n`);
  return async () => {
    console.log(`\nScreenshots saved in ${SCREENSHOT_DIR}\n`);
  };
}
