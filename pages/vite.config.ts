import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Budgets are checked on the compressed output by the tests.
    reportCompressedSize: false,
    target: "es2022",
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
