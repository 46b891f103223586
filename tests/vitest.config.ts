import { defineConfig } from "vitest/config";

// Integration tests (api/): each file starts its own worker in workerd on a
// fresh local D1, so two files never share a site and can run side by side:
// two at a time (the machine has two cores, and a file spends much of its
// time waiting on its worker, on a cron run or on a fake service). The files
// of one process share its modules (wrangler's harness is imported once, not
// per file); no file keeps state in a module another reads. Build checks
// (build/) read pages/dist and the scripts' output; they start nothing.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["api/**/*.test.ts", "build/**/*.test.ts"],
    environment: "node",
    maxWorkers: 2,
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
