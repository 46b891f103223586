import { defineConfig } from "vitest/config";

// Integration tests: each file starts its own `wrangler dev` on a fresh local
// D1. Files run one after another; the machine has few cores and workerd is
// not light.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["api/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default"],
  },
});
