import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const wranglerBin = join(repoRoot, "node_modules/.bin/wrangler");

/** PATH with the project's own tools first, as the Makefile sets it. */
export const toolsPath = [join(repoRoot, ".tools/bin"), join(repoRoot, "node_modules/.bin"), process.env.PATH].join(
  ":",
);
