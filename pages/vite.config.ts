import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** What the landing never needs: the staff pages, the pages after a form post, the privacy notice. */
const STAFF_OR_LATER =
  /features\/(staff-auth|staff-shell|leads-admin|team|activity|privacy|form-result)\/|components\/(ConfirmDialog|EmailAddress)\.|lib\/format\./;

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
              test: (id: string) => !STAFF_OR_LATER.test(id),
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
