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

describe("the first load of the landing page, before the visitor touches the form", () => {
  it("is the HTML (its style inline), the preloaded font and the favicon", () => {
    const kinds = load.resources.map((r) => r.kind).sort();
    expect(kinds).toEqual(["font", "html", "image"]);
  });

  it("fetches no script and no stylesheet: 0 bytes of each", () => {
    expect(BUDGETS.js).toBe(0);
    expect(BUDGETS.css).toBe(0);
    expect(load.totals.js.brotli).toBe(BUDGETS.js);
    expect(load.totals.css.brotli).toBe(BUDGETS.css);
  });

  it(`weighs at most ${BUDGETS.total.toLocaleString("en")} bytes in all, brotli-compressed`, () => {
    expect(BUDGETS.total).toBeLessThanOrEqual(40_000);
    expect(load.totals.all.brotli).toBeGreaterThan(0);
    expect(load.totals.all.brotli).toBeLessThanOrEqual(BUDGETS.total);
  });

  it("fetches the display font cut down to the landing's characters, not the whole file", () => {
    const fonts = load.resources.filter((r) => r.kind === "font").map((r) => r.path);
    expect(fonts).toEqual([expect.stringMatching(/^\/assets\/fraunces-landing-600-[\da-f]+\.woff2$/)]);
    expect(load.totals.font.brotli).toBeLessThan(10 * 1024);
    expect(load.notLoaded).toContainEqual(expect.stringMatching(/^\/assets\/fraunces-latin-600-normal-/));
  });

  it(`fetches the page's script only later, at most ${BUDGETS.later / 1024} KB brotli-compressed`, () => {
    expect(load.later.map((r) => r.kind)).toContain("js");
    expect(load.laterTotal.brotli).toBeGreaterThan(0);
    expect(load.laterTotal.brotli).toBeLessThanOrEqual(BUDGETS.later);
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
    const loaded = [...load.resources, ...load.later];
    expect(loaded.filter((r) => STAFF_CHUNK.test(r.path))).toEqual([]);
    // The staff session (its cross-tab channel's name marks its code) sits in a chunk of its own choosing.
    const withSession: string[] = [];
    for (const asset of assets.filter((a) => a.endsWith(".js"))) {
      if ((await readFile(join(DEFAULT_DIST, "assets", asset), "utf8")).includes("BroadcastChannel(`staff-session`)")) {
        withSession.push(`/assets/${asset}`);
      }
    }
    expect(withSession.length).toBeGreaterThan(0);
    expect(loaded.filter((r) => withSession.includes(r.path))).toEqual([]);
  });

  it("has only modern image formats with explicit sizes", () => {
    for (const r of [...load.resources, ...load.lazy].filter((r) => r.kind === "image")) {
      expect(r.path).toMatch(MODERN_IMAGE);
    }
    for (const { tag } of load.images.filter((i) => i.tag.startsWith("<img"))) {
      expect(tag).toMatch(/\swidth="\d+"/);
      expect(tag).toMatch(/\sheight="\d+"/);
    }
  });

  it("shows the development in pictures below the first screen: described, sized, lazy, decoded off the main path", () => {
    const gallery = load.images.filter((i) => i.src.startsWith("/galeria/"));
    expect(gallery.length).toBeGreaterThanOrEqual(3);
    for (const { tag, lazy } of gallery) {
      expect(lazy, tag).toBe(true);
      expect(tag).toMatch(/\salt="[^"]{20,}"/);
      expect(tag).toMatch(/\sdecoding="async"/);
    }
    // Fetched as they near the screen, never part of the first load's bytes.
    expect(load.resources.filter((r) => r.path.startsWith("/galeria/"))).toEqual([]);
    expect(load.lazy.map((r) => r.path).sort()).toEqual(gallery.map((i) => i.src).sort());
  });

  it("links to the maps app, and embeds no map", () => {
    expect(html).toMatch(
      /<a [^>]*href="https:\/\/www\.google\.com\/maps\/search\/\?api=1&amp;query=[^"]+"[^>]*>Abrir no mapa<\/a>/,
    );
    expect(html).not.toMatch(/<iframe\b/i);
  });
});
