import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Read by scripts/prerender.mjs: the stylesheet and script of each lazy page.
    manifest: true,
    // Budgets are checked on the compressed output by the tests.
    reportCompressedSize: false,
    target: "es2022",
    rolldownOptions: {
      output: {
        // The landing page loads in one piece; only staff pages and the
        // privacy notice are split off, loaded when visited.
        advancedChunks: {
          groups: [
            {
              name: "site",
              test: (id: string) => !/features\/(staff-auth|leads-admin|privacy|form-result)\//.test(id),
            },
          ],
        },
      },
    },
  },
  server: {
    // `vite` alone serves the pages; the API answers from `wrangler dev`.
    proxy: {
      "/api": "http://127.0.0.1:8787",
      "/functions": "http://127.0.0.1:8787",
    },
  },
  test: {
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
