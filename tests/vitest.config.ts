import { defineConfig } from "vitest/config";

// Integration tests (api/): each file starts its own `wrangler dev` on a
// fresh local D1. Files run one after another; the machine has few cores and
// workerd is not light. Build checks (build/) read pages/dist and the scripts'
// output; they start nothing.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["api/**/*.test.ts", "build/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
