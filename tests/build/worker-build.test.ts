import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import agency from "../../agency.json" with { type: "json" };
import { type App, spawnApp } from "../support/app";
import { repoRoot } from "../support/paths";

// The worker embeds agency.json when it is compiled; `make` rebuilds it when
// the file changes. This reads the built worker, not the source.
let app: App;

beforeAll(async () => {
  app = await spawnApp();
});

afterAll(async () => {
  await app?.stop();
});

describe("the built worker", () => {
  it("enforces the staff e-mail domain agency.json names today", async () => {
    const answer = await fetch(`${app.baseUrl}/api/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.baseUrl },
      body: JSON.stringify({ email: "alguem@outro-dominio.example", password: "vinho-tinto-2026" }),
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({
      error: `Apenas emails @${agency.agency.staffEmailDomain} são permitidos`,
    });
  });

  it("ships without the function names, the same module as the copy that keeps them", async () => {
    const shipped = await readFile(join(repoRoot, "worker/build/index_bg.wasm"));
    const named = await readFile(join(repoRoot, ".build/worker-names.wasm"));
    expect(shipped.toString("latin1")).not.toContain("lead_worker::");
    expect(shipped.length).toBeLessThan(named.length);
    // Both are the same build: the shipped one is the other without its names,
    // optimised for size (Makefile), so it exports the same functions.
    expect(await WebAssembly.compile(shipped)).toBeInstanceOf(WebAssembly.Module);
    const exports = (bytes: typeof shipped) =>
      WebAssembly.Module.exports(new WebAssembly.Module(bytes))
        .map((e) => e.name)
        .sort();
    expect(exports(shipped)).toEqual(exports(named));
  });

  it("stays within its size budget", async () => {
    // Cloudflare takes megabytes, and V8 compiles the module in a few ms:
    // the ceiling is there to notice a dependency that balloons it.
    const shipped = await readFile(join(repoRoot, "worker/build/index_bg.wasm"));
    expect(gzipSync(shipped, { level: 9 }).length).toBeLessThanOrEqual(WASM_GZIP_BUDGET);
  });
});

/** The shipped module's gzip size, at most. */
// 640 KiB since the ads' conversions (issue 45), what each lead costs (47) and the first contact
// (46) brought it to 570 KiB with no new dependency: our own code, not a dependency that ballooned.
const WASM_GZIP_BUDGET = 640 * 1024;
