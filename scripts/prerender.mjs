// Writes each public page's HTML at build time from the same React components
// the browser hydrates, so the hero and the form paint before any script runs.
//
// The landing (`/`) is built to paint from its HTML alone: its stylesheet is
// inline, its display font is cut down to the characters it shows, and its
// only script is a small inline loader that runs the page's script when the
// visitor starts using the form, having fetched it when the browser was idle
// after load (src/boot/landing.ts). The hashes of that inline style and script go to
// pages/dist/csp-hashes.json, which the worker reads to allow exactly them in
// the page's Content-Security-Policy.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import subsetFont from "subset-font";
import { textCodePoints } from "./page-weight.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "pages/dist");
const agencyConfig = JSON.parse(await readFile(join(root, "agency.json"), "utf8"));
const { render, prerendered, disclosed, adsVariants } = await import(
  pathToFileURL(join(root, ".build/prerender/entry-server.js")).href
);

const template = await readFile(join(dist, "index.html"), "utf8");
const manifest = JSON.parse(await readFile(join(dist, ".vite/manifest.json"), "utf8"));

/** The stylesheets and scripts a lazy page's chunk needs, so its prerendered HTML is styled before any script runs. */
function chunkTags(module) {
  const css = new Set();
  const js = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry) return;
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(module);
  return [
    ...[...css].map((f) => `<link rel="stylesheet" crossorigin href="/${f}" />`),
    ...[...js].map((f) => `<link rel="modulepreload" crossorigin href="/${f}" />`),
  ].join("\n    ");
}

// The landing (`/`): its HTML alone paints it.
const entry = manifest["index.html"];
const boot = manifest["src/boot/landing.ts"];
const scriptTag = template.match(/ *<script type="module" crossorigin src="\/assets\/[^"]+"><\/script>\n?/)?.[0];
const stylesheetTags = template.match(/ *<link rel="stylesheet" crossorigin href="\/assets\/[^"]+">\n?/g) ?? [];
if (!entry?.file || !boot?.file || !scriptTag || stylesheetTags.length !== (entry.css ?? []).length) {
  throw new Error("the built index.html or manifest does not have the script and stylesheets prerender.mjs expects");
}
const landingHtml = await render("/");
/** The landing as each of the ads' combinations says it (worker/src/delivery/disclosure.rs serves the one its settings name). */
const landingVariants = new Map(
  await Promise.all(adsVariants.map(async ({ disclosure, name }) => [name, await render("/", disclosure)])),
);

/** `sha256-…` of an inline element's text, as a Content-Security-Policy source names it. */
const cspHash = (text) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

/** The inline text of a `<style>` or `<script>`: nothing in it may close the element early. */
function inlineText(text, tag) {
  const trimmed = text.trim();
  if (new RegExp(`</${tag}`, "i").test(trimmed)) throw new Error(`cannot inline text that contains </${tag}`);
  return trimmed;
}

/** A CSS `unicode-range` of sorted code points, or with `complement` of every code point but those. */
function unicodeRange(points, { complement = false } = {}) {
  const hex = (n) => n.toString(16).toUpperCase();
  const span = ([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`);
  const spans = [];
  for (const p of points) {
    const last = spans.at(-1);
    if (last && last[1] + 1 === p) last[1] = p;
    else spans.push([p, p]);
  }
  if (!complement) return spans.map(span).join(",");
  const gaps = [];
  let next = 0;
  for (const [from, to] of spans) {
    if (from > next) gaps.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= 0x10ffff) gaps.push([next, 0x10ffff]);
  return gaps.map(span).join(",");
}

/**
 * The display font on the landing: a subset of Fraunces holding only the
 * characters of the landing's text (a few KB instead of 18), preloaded, so
 * the headings get their font without delaying the first paint. The whole
 * Latin file stays declared for every other character (pages reached from
 * the landing without a reload), and the two ranges never overlap, so a
 * browser fetches the whole file only if such a character shows up.
 */
async function landingFont(css) {
  const faces = css.match(/@font-face\{[^}]*font-family:\s*"?Fraunces"?[^}]*\}/g) ?? [];
  const url = faces[0]?.match(/url\(\s*"?(\/assets\/[^")]+\.woff2)"?\s*\)/)?.[1];
  if (faces.length !== 1 || !url) throw new Error("expected one @font-face for Fraunces in the landing's CSS");
  // Every variant's characters: the inline style, and so its CSP hash, is the same in all of them.
  const points = textCodePoints([landingHtml, ...landingVariants.values()].join("\n"));
  const subset = await subsetFont(await readFile(join(dist, url)), String.fromCodePoint(...points), {
    targetFormat: "woff2",
  });
  const file = `assets/fraunces-landing-600-${createHash("sha256").update(subset).digest("hex").slice(0, 10)}.woff2`;
  await writeFile(join(dist, file), subset);
  const face = faces[0];
  const withRange = (rule, range) => rule.replace(/\}$/, `;unicode-range:${range}}`);
  const rules = [
    withRange(face, unicodeRange(points, { complement: true })),
    withRange(face.replace(url, `/${file}`), unicodeRange(points)),
  ];
  return { css: css.replace(face, () => rules.join("")), preload: `/${file}` };
}

const font = await landingFont(
  (await Promise.all(entry.css.map((file) => readFile(join(dist, file), "utf8")))).join("\n"),
);
const landingStyle = inlineText(font.css, "style");
const landingBoot = inlineText(await readFile(join(dist, boot.file), "utf8"), "script");
// Inlined only: no page loads the file.
await rm(join(dist, boot.file));

/**
 * The landing's template: the stylesheet inline, and in place of the page's
 * script the inline loader, which fetches it when the browser is idle after
 * load and runs it when the visitor starts using the form (src/boot/landing.ts).
 */
// (Replacements are functions: the inserted code may hold `$` patterns.)
const landingTemplate = template
  .replace(stylesheetTags[0] ?? "", () => `    <style>${landingStyle}</style>\n`)
  .replace(/ *<link rel="stylesheet" crossorigin href="\/assets\/[^"]+">\n?/g, "")
  .replace(scriptTag, "")
  .replace("</body>", () => `  <script type="module" data-entry="/${entry.file}">${landingBoot}</script>\n  </body>`);

const assets = await readdir(join(dist, "assets"));
const wholeFont = assets.find((f) => /^fraunces-latin-600-normal-.*\.woff2$/.test(f));

const { site, development, agency } = agencyConfig;
const siteUrl = site.url.replace(/\/$/, "");

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/** Description and indexing of the pages that are not the rest's (their titles are the routes'). */
const pages = {
  "/": { description: site.description, index: true },
  "/privacidade": {
    description: `Como a ${agency.name} trata os dados do pré-cadastro do ${development.name}, conforme a LGPD.`,
    index: true,
  },
};

function head(path, title) {
  const page = { title, ...(pages[path] ?? { description: site.description, index: false }) };
  const url = `${siteUrl}${path === "/" ? "/" : path}`;
  const image = `${siteUrl}/og-image.png`;
  const tags = [
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
  ];
  if (page.index) {
    tags.push(
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
      `<meta property="og:type" content="website" />`,
      `<meta property="og:locale" content="pt_BR" />`,
      `<meta property="og:site_name" content="${escapeHtml(development.name)}" />`,
      `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
      `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
      `<meta property="og:url" content="${escapeHtml(url)}" />`,
      `<meta property="og:image" content="${escapeHtml(image)}" />`,
      `<meta property="og:image:width" content="1200" />`,
      `<meta property="og:image:height" content="630" />`,
      `<meta property="og:image:alt" content="${escapeHtml(`${development.name}: ${development.kind.toLowerCase()} ao lado de uma vinícola`)}" />`,
      `<meta name="twitter:card" content="summary_large_image" />`,
      `<meta name="twitter:title" content="${escapeHtml(page.title)}" />`,
      `<meta name="twitter:description" content="${escapeHtml(page.description)}" />`,
      `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
    );
  } else {
    tags.push(`<meta name="robots" content="noindex" />`);
  }
  const preload = path === "/" ? font.preload : wholeFont && `/assets/${wholeFont}`;
  if (preload) tags.push(`<link rel="preload" href="${preload}" as="font" type="font/woff2" crossorigin />`);
  return tags.join("\n    ");
}

/** The page's HTML in its template; `variant` names the ads' combination it says (none: nothing is sent). */
function pageOf(path, title, module, html, variant) {
  const tags = module ? `${head(path, title)}\n    ${chunkTags(module)}` : head(path, title);
  const root = variant ? `<div id="root" data-anuncios="${escapeHtml(variant)}">` : `<div id="root">`;
  return (path === "/" ? landingTemplate : template)
    .replace("<!--head-->", tags)
    .replace('<div id="root">', root)
    .replace("<!--app-->", () => html);
}

for (const { path, file, module, title } of prerendered) {
  const html = path === "/" ? landingHtml : await render(path);
  await mkdir(dirname(join(dist, file)), { recursive: true });
  await writeFile(join(dist, file), pageOf(path, title, module, html, null));
  console.log(`prerendered ${path} → pages/dist/${file}`);
  if (!disclosed.includes(path)) continue;
  for (const { disclosure, name } of adsVariants) {
    const variantHtml = path === "/" ? landingVariants.get(name) : await render(path, disclosure);
    const variantFile = join(dist, "_anuncios", name, file);
    await mkdir(dirname(variantFile), { recursive: true });
    await writeFile(variantFile, pageOf(path, title, module, variantHtml, name));
  }
  console.log(`prerendered ${path} for the ads' ${adsVariants.length} combinations → pages/dist/_anuncios/*/${file}`);
}

/** Served path → the hashes of its inline styles and scripts (read by worker/src/site/inline_hashes.rs). */
const cspHashes = { "/": { style: [cspHash(landingStyle)], script: [cspHash(landingBoot)] } };
await writeFile(join(dist, "csp-hashes.json"), `${JSON.stringify(cspHashes, null, 2)}\n`);
console.log("wrote the hashes of the landing's inline style and script → pages/dist/csp-hashes.json");
