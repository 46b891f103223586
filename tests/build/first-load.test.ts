import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BUDGETS,
  DEFAULT_DIST,
  type FirstLoad,
  MODERN_IMAGE,
  measureFirstLoad,
  report,
  STAFF_CHUNK,
} from "../../scripts/page-weight.mjs";

// Reads the build `make build` left in pages/dist; builds nothing itself.
let load: FirstLoad;
let html: string;

beforeAll(async () => {
  html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
  load = await measureFirstLoad(DEFAULT_DIST);
  console.log(`\nFirst load of / (from pages/dist):\n${report(load)}\n`);
});

describe("the first load of the landing page", () => {
  it("is the HTML, one script, one stylesheet, the preloaded font and the favicon", () => {
    const kinds = load.resources.map((r) => r.kind).sort();
    expect(kinds).toEqual(["css", "font", "html", "image", "js"]);
  });

  it(`ships at most ${BUDGETS.js / 1024} KB of JavaScript, brotli-compressed`, () => {
    expect(load.totals.js.brotli).toBeGreaterThan(0);
    expect(load.totals.js.brotli).toBeLessThanOrEqual(BUDGETS.js);
  });

  it(`ships at most ${BUDGETS.css / 1024} KB of CSS, brotli-compressed`, () => {
    expect(load.totals.css.brotli).toBeGreaterThan(0);
    expect(load.totals.css.brotli).toBeLessThanOrEqual(BUDGETS.css);
  });

  it(`weighs at most ${BUDGETS.total / 1024} KB in all, brotli-compressed`, () => {
    expect(load.totals.all.brotli).toBeLessThanOrEqual(BUDGETS.total);
  });

  it("requests nothing from another origin", () => {
    expect(load.thirdParty).toEqual([]);
    // Links that are not loads (canonical, link previews) may be absolute; scripts and frames may not.
    expect(html).not.toMatch(/<script\b[^>]*\ssrc="(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<iframe\b/i);
  });

  it("loads no code of the staff pages, which exist as separate chunks", async () => {
    const assets = await readdir(join(DEFAULT_DIST, "assets"));
    for (const name of ["AuthPage", "AdminPage"]) {
      expect(assets.some((a) => a.startsWith(`${name}-`) && a.endsWith(".js"))).toBe(true);
      expect(html).not.toContain(`${name}-`);
    }
    expect(load.resources.filter((r) => STAFF_CHUNK.test(r.path))).toEqual([]);
    // The staff session (its cross-tab channel's name marks its code) sits in a chunk of its own choosing.
    const withSession: string[] = [];
    for (const asset of assets.filter((a) => a.endsWith(".js"))) {
      if ((await readFile(join(DEFAULT_DIST, "assets", asset), "utf8")).includes("BroadcastChannel(`staff-session`)")) {
        withSession.push(`/assets/${asset}`);
      }
    }
    expect(withSession.length).toBeGreaterThan(0);
    expect(load.resources.filter((r) => withSession.includes(r.path))).toEqual([]);
  });

  it("has only modern image formats with explicit sizes", () => {
    for (const r of load.resources.filter((r) => r.kind === "image")) expect(r.path).toMatch(MODERN_IMAGE);
    for (const { tag } of load.images) {
      expect(tag).toMatch(/\swidth="\d+"/);
      expect(tag).toMatch(/\sheight="\d+"/);
    }
  });
});
