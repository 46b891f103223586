import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/**
 * What the landing never needs: the staff pages (and Chart.js, of 'Campanhas'),
 * the pages after a form post, the privacy notice.
 */
const STAFF_OR_LATER =
  /app\/staff\/|features\/(staff-auth|staff-shell|leads-admin|campaigns|first-contact|team|activity|privacy|form-result)\/|components\/(ConfirmDialog|EmailAddress|PasswordField|password-field|newPassword|PeriodSelect)\.|lib\/(format|days|download|useLoad|useNow|session|leadLinks)\.|node_modules\/(chart\.js|@kurkle\/color)\//;

/**
 * The year the footer's © names: the build's, written into the prerendered
 * HTML and the script alike. A year read on the visitor's phone differs from
 * the HTML's from 1 January on, and React then builds the whole page again
 * on hydration, dropping the field the visitor is typing in. `build:pages`
 * sets it once for both of its builds.
 */
const SITE_YEAR = process.env.SITE_YEAR || String(new Date().getFullYear());

/** The landing's loader: built on its own, with no import, to be inlined in the landing's HTML. */
const LANDING_BOOT = "src/boot/landing.ts";

export default defineConfig(({ isSsrBuild }) => ({
  root: import.meta.dirname,
  plugins: [react()],
  define: { "import.meta.env.SITE_YEAR": JSON.stringify(SITE_YEAR) },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Read by scripts/prerender.mjs: the stylesheet and script of each lazy page.
    manifest: true,
    // Budgets are checked on the compressed output by the tests.
    reportCompressedSize: false,
    target: "es2022",
    rolldownOptions: {
      // The SSR build (scripts/prerender.mjs's renderer) names its own entry.
      input: isSsrBuild
        ? undefined
        : { index: resolve(import.meta.dirname, "index.html"), boot: resolve(import.meta.dirname, LANDING_BOOT) },
      output: {
        // The site loads in one piece; only staff pages and the privacy
        // notice are split off, loaded when visited. The landing's loader
        // stays apart: it must import nothing.
        codeSplitting: {
          groups: [
            {
              name: "site",
              test: (id: string) => !STAFF_OR_LATER.test(id) && !id.includes("/src/boot/"),
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
    // One happy-dom per worker, each file still in a context of its own: made
    // once per file it took half the run (22 s against 8).
    pool: "vmThreads",
    include: ["src/**/*.test.{ts,tsx}"],
  },
}));
