// What the first load of the landing page (`/`) costs over the wire, read from
// the build in pages/dist: the HTML and everything it makes the browser fetch
// before the visitor does anything (scripts and their static imports,
// stylesheets and what they reference, preloads, the favicon, images).
//
//   node scripts/page-weight.mjs [pages/dist]   prints the table and the budgets
//
// Each file is measured raw, gzip and brotli (Node's zlib, default levels).
// The budgets are on brotli, which is what Cloudflare serves to browsers that
// ask for it (every current one). The page's script, which the landing's
// inline loader fetches only when the browser is idle after load and runs
// when the visitor starts using the form (`<script data-entry>`), is listed apart as
// "later"; lazy chunks (/auth, /admin, the privacy page) are in neither.
import { readFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, gzipSync } from "node:zlib";

export const DEFAULT_DIST = join(dirname(fileURLToPath(import.meta.url)), "../pages/dist");

/**
 * Compressed (brotli) bytes the first load of `/` may cost: no script and no
 * stylesheet fetched before the visitor touches the form, 40,000 bytes in
 * all; and the script fetched then (React and the form).
 */
export const BUDGETS = { js: 0, css: 0, total: 40_000, later: 70 * 1024 };

/** Chunks of the staff pages that the landing must never load. */
export const STAFF_CHUNK = /(?:^|\/)(?:AuthPage|AdminPage|session)-[\w-]+\.(?:js|css)$/;

/** Image formats that count as modern (vector or the new raster codecs). */
export const MODERN_IMAGE = /\.(?:svg|webp|avif)$/i;

/**
 * @typedef {{ path: string, kind: "html" | "js" | "css" | "font" | "image" | "other", via: string,
 *   raw: number, gzip: number, brotli: number }} Resource
 * @typedef {{ tag: string, src: string, lazy: boolean }} ImageTag
 * @typedef {{ raw: number, gzip: number, brotli: number }} Sizes
 * @typedef {{ resources: Resource[], later: Resource[], lazy: Resource[], inline: { style: number, script: number },
 *   thirdParty: string[], notLoaded: string[], images: ImageTag[],
 *   totals: Record<Resource["kind"] | "all", Sizes>, laterTotal: Sizes }} FirstLoad
 */

/** @param {string} tag @param {string} name */
function attribute(tag, name) {
  const match = tag.match(new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, "i"));
  return match ? (match[2] ?? match[3] ?? match[4] ?? "") : null;
}

/** @param {string} url */
function isThirdParty(url) {
  return /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(url) && !url.startsWith("data:");
}

/** @param {string} path */
function kindOf(path) {
  if (/\.m?js$/.test(path)) return "js";
  if (/\.css$/.test(path)) return "css";
  if (/\.(?:woff2?|ttf|otf)$/.test(path)) return "font";
  if (/\.(?:svg|png|jpe?g|gif|webp|avif|ico)$/.test(path)) return "image";
  return "other";
}

/** Static `import` specifiers of a built ES module (dynamic `import()` is lazy, so left out). */
export function staticImports(js) {
  const found = [];
  const pattern = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']/g;
  for (const match of js.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** `url(...)` references of a stylesheet, `data:` ones left out. */
export function cssUrls(css) {
  const found = [];
  for (const match of css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/g)) {
    const url = match[1] ?? match[2] ?? match[3] ?? "";
    if (url && !url.startsWith("data:") && !url.startsWith("#")) found.push(url);
  }
  return found;
}

/** The code points of the text a visitor reads in `html`: tags dropped, entities decoded, line breaks left out. */
export function textCodePoints(html) {
  /** @type {Record<string, string>} */
  const named = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
  const body = html.includes("<body") ? html.slice(html.indexOf("<body")) : html;
  const text = body
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(?:#x([\da-f]+)|#(\d+)|(\w+));/gi, (whole, hex, dec, name) =>
      hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : (named[name] ?? whole),
    );
  const points = new Set([...text].map((c) => c.codePointAt(0) ?? 0).filter((c) => c >= 0x20));
  return [...points].sort((a, b) => a - b);
}

/** The `[from, to]` spans of a CSS `unicode-range` (`U+20,U+28-29,...`). */
export function unicodeRangeSpans(range) {
  return range.split(",").map((part) => {
    const [from = "0", to] = part.trim().replace(/^U\+/i, "").split("-");
    return /** @type {[number, number]} */ ([parseInt(from, 16), parseInt(to ?? from, 16)]);
  });
}

/**
 * What a stylesheet makes the browser fetch on a page whose text has `points`:
 * its `url()`s, except the fonts of `@font-face` rules whose `unicode-range`
 * holds none of those characters (browsers fetch those only when needed).
 * @param {string} css @param {number[]} points
 */
export function cssLoads(css, points) {
  const fetched = [];
  const skipped = [];
  for (const [rule] of css.matchAll(/@font-face\s*\{[^}]*\}/g)) {
    const range = rule.match(/unicode-range:\s*([^;}]+)/)?.[1];
    const spans = range ? unicodeRangeSpans(range) : null;
    const used = !spans || points.some((p) => spans.some(([from, to]) => p >= from && p <= to));
    (used ? fetched : skipped).push(...cssUrls(rule));
  }
  fetched.push(...cssUrls(css.replace(/@font-face\s*\{[^}]*\}/g, "")));
  return { fetched, skipped };
}

/** @param {Buffer} bytes */
function sizes(bytes) {
  return { raw: bytes.length, gzip: gzipSync(bytes).length, brotli: brotliCompressSync(bytes).length };
}

/**
 * Follows what `index.html` in `dist` loads and measures each file once.
 * @param {string} [dist]
 * @returns {Promise<FirstLoad>}
 */
export async function measureFirstLoad(dist = DEFAULT_DIST) {
  const html = await readFile(join(dist, "index.html"), "utf8");
  const points = textCodePoints(html);
  /** @type {Map<string, Resource>} */
  const resources = new Map();
  /** @type {string[]} */
  const thirdParty = [];
  /** @type {string[]} */
  const notLoaded = [];
  /** @type {ImageTag[]} */
  const images = [];

  /** @type {Map<string, Resource>} */
  const later = new Map();

  resources.set("/index.html", { path: "/index.html", kind: "html", via: "the page", ...sizes(Buffer.from(html)) });

  /** @param {string} url @param {string} from @param {string} via @param {Map<string, Resource>} [into] */
  const visit = async (url, from, via, into = resources) => {
    if (isThirdParty(url)) {
      thirdParty.push(url);
      return;
    }
    const path = normalize(url.startsWith("/") ? url : join(dirname(from), url)).split(/[?#]/)[0] ?? url;
    if (resources.has(path) || into.has(path)) return;
    const bytes = await readFile(join(dist, path));
    const kind = kindOf(path);
    into.set(path, { path, kind, via, ...sizes(bytes) });
    if (kind === "js") {
      for (const spec of staticImports(bytes.toString("utf8"))) await visit(spec, path, `imported by ${path}`, into);
    } else if (kind === "css") {
      const { fetched, skipped } = cssLoads(bytes.toString("utf8"), points);
      for (const ref of fetched) await visit(ref, path, `url() in ${path}`, into);
      notLoaded.push(...skipped);
    }
  };

  const inline = { style: 0, script: 0 };
  for (const [, body = ""] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    inline.style += Buffer.byteLength(body);
    const { fetched, skipped } = cssLoads(body, points);
    for (const ref of fetched) await visit(ref, "/index.html", "url() in the inline <style>");
    notLoaded.push(...skipped);
  }
  /** @type {[string, string][]} */
  const deferred = [];
  for (const [, tag = "", body = ""] of html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)) {
    const src = attribute(tag, "src");
    if (src) await visit(src, "/index.html", "<script>");
    else inline.script += Buffer.byteLength(body);
    const entry = attribute(tag, "data-entry");
    if (entry) deferred.push([entry, "the inline loader: fetched when idle, run on the first touch of the form"]);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attribute(tag, "href");
    if (!href) continue;
    if (rel.some((r) => ["stylesheet", "modulepreload", "preload", "icon"].includes(r))) {
      await visit(href, "/index.html", `<link rel="${rel.join(" ")}">`);
    } else if (rel.includes("apple-touch-icon")) {
      // Fetched by iOS when the page is added to the home screen, not on load.
      notLoaded.push(href);
    }
  }
  /** @type {Map<string, Resource>} */
  const lazy = new Map();
  for (const match of html.matchAll(/<(?:img|source)\b[^>]*>/gi)) {
    const [tag] = match;
    const src = attribute(tag, "src") ?? attribute(tag, "srcset")?.trim().split(/\s+/)[0];
    if (!src) continue;
    // A <source> is its <picture>'s: lazy when the <img> after it is.
    const img = tag.startsWith("<img") ? tag : (html.slice(match.index).match(/<img\b[^>]*>/i)?.[0] ?? "");
    const isLazy = attribute(img, "loading") === "lazy";
    images.push({ tag, src, lazy: isLazy });
    if (isLazy) await visit(src, "/index.html", "<img loading=lazy>: as it nears the screen", lazy);
    else await visit(src, "/index.html", "<img>");
  }
  for (const [tag] of html.matchAll(/<meta\b[^>]*>/gi)) {
    const property = attribute(tag, "property") ?? attribute(tag, "name") ?? "";
    // Link previews: fetched by WhatsApp, Facebook and the like, never by the browser.
    if (/^(?:og|twitter):image$/.test(property)) notLoaded.push(attribute(tag, "content") ?? "");
  }

  for (const [url, via] of deferred) await visit(url, "/index.html", via, later);

  const list = [...resources.values()];
  const sum = (/** @type {Resource[]} */ items) =>
    items.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
      raw: 0,
      gzip: 0,
      brotli: 0,
    });
  /** @type {FirstLoad["totals"]} */
  const totals = {
    all: sum(list),
    html: sum(list.filter((r) => r.kind === "html")),
    js: sum(list.filter((r) => r.kind === "js")),
    css: sum(list.filter((r) => r.kind === "css")),
    font: sum(list.filter((r) => r.kind === "font")),
    image: sum(list.filter((r) => r.kind === "image")),
    other: sum(list.filter((r) => r.kind === "other")),
  };
  const laterList = [...later.values()];
  return {
    resources: list,
    later: laterList,
    lazy: [...lazy.values()],
    inline,
    thirdParty,
    notLoaded: [...new Set(notLoaded)],
    images,
    totals,
    laterTotal: sum(laterList),
  };
}

const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KB`;

/** The figures as a table, with each budget and whether it holds. @param {FirstLoad} load */
export function report(load) {
  const rows = [["file", "kind", "raw", "gzip", "brotli"]];
  for (const r of load.resources) rows.push([r.path, r.kind, kb(r.raw), kb(r.gzip), kb(r.brotli)]);
  for (const kind of /** @type {const} */ (["js", "css", "font", "image", "html", "all"])) {
    const t = load.totals[kind];
    rows.push([kind === "all" ? "TOTAL" : `total ${kind}`, "", kb(t.raw), kb(t.gzip), kb(t.brotli)]);
  }
  rows.push(["later: fetched when idle after load, run on the first touch of the form", "", "", "", ""]);
  for (const r of load.later) rows.push([r.path, r.kind, kb(r.raw), kb(r.gzip), kb(r.brotli)]);
  const l = load.laterTotal;
  rows.push(["total later", "", kb(l.raw), kb(l.gzip), kb(l.brotli)]);
  rows.push(["images below the first screen (loading=lazy): fetched as they near it", "", "", "", ""]);
  for (const r of load.lazy) rows.push([r.path, r.kind, kb(r.raw), kb(r.gzip), kb(r.brotli)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
  const budget = (/** @type {string} */ name, /** @type {number} */ value, /** @type {number} */ max) =>
    `${name.padEnd(16)} ${String(value).padStart(7)} B of ${String(max).padStart(6)} B brotli  ${value <= max ? "ok" : "OVER BUDGET"}`;
  lines.push(
    "",
    `Inline in the HTML: ${kb(load.inline.style)} of style, ${kb(load.inline.script)} of script (raw)`,
    budget("JavaScript", load.totals.js.brotli, BUDGETS.js),
    budget("Stylesheets", load.totals.css.brotli, BUDGETS.css),
    budget("Everything", load.totals.all.brotli, BUDGETS.total),
    budget("Script later", load.laterTotal.brotli, BUDGETS.later),
    `Third-party requests: ${load.thirdParty.length === 0 ? "none" : load.thirdParty.join(", ")}`,
    `Referenced but not loaded by browsers: ${load.notLoaded.join(", ") || "none"}`,
  );
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const load = await measureFirstLoad(process.argv[2] ?? DEFAULT_DIST);
  console.log(report(load));
}
