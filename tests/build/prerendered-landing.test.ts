import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DIST } from "../../scripts/page-weight.mjs";

/** The text a visitor sees in the served HTML, before any script runs: tags dropped, entities decoded. */
function visibleText(html: string): string {
  const body = html.slice(html.indexOf("<body"));
  return body
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, e: string) =>
      e === "amp" ? "&" : e === "lt" ? "<" : e === "gt" ? ">" : e === "quot" ? '"' : e === "nbsp" ? " " : "'",
    )
    .replace(/\s+/g, " ");
}

/** The inline `<style>` and `<script>` elements of a page: attributes and text. */
function inlineElements(html: string, tag: "style" | "script") {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, "gi"))].map(
    ([, attributes = "", text = ""]) => ({ attributes, text }),
  );
}

const sha256 = (text: string) => `sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`;

/** Classes that only give the markup a name, styled through their children. */
const HOOK_CLASSES = new Set(["hero__copy", "lead-form"]);

let html: string;
beforeAll(async () => {
  html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
});

describe("the prerendered landing page (pages/dist/index.html)", () => {
  it("holds the hero, the three form labels and the button in its HTML", () => {
    const text = visibleText(html);
    expect(html).toMatch(/<h1\b[^>]*>Sua casa ao lado de uma vinícola<\/h1>/);
    for (const label of ["Nome completo", "E-mail", "WhatsApp com DDD"]) {
      expect(html).toMatch(new RegExp(`<label\\b[^>]*for="lead-[a-z]+"[^>]*>${label}</label>`));
    }
    expect(html).toMatch(
      /<button\b[^>]*type="submit"[^>]*>Quero meu acesso antecipado ao lançamento exclusivo<\/button>/,
    );
    expect(text).toContain("As vagas do pré-cadastro são limitadas");
    expect(html).toMatch(/<form\b[^>]*method="post"/);
  });

  it("carries its whole style inline: no stylesheet to wait for, a rule for every class it uses", () => {
    expect(html).not.toMatch(/<link\b[^>]*rel="stylesheet"/i);
    const styles = inlineElements(html, "style");
    expect(styles).toHaveLength(1);
    const css = styles[0]?.text ?? "";
    expect(css).toContain("@font-face");
    const body = html.slice(html.indexOf("<body"));
    const classes = new Set([...body.matchAll(/\sclass="([^"]*)"/g)].flatMap(([, list = ""]) => list.split(/\s+/)));
    for (const name of classes) {
      if (!name || HOOK_CLASSES.has(name)) continue;
      expect(css, `.${name}`).toMatch(new RegExp(`\\.${name.replace(/[-_]/g, "\\$&")}(?![\\w-])`));
    }
  });

  it("references no script that loads before the visitor touches the form", async () => {
    expect(html).not.toMatch(/<script\b[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link\b[^>]*rel="modulepreload"/i);
    expect(html).not.toMatch(/<link\b[^>]*as="script"/i);
    expect(html).not.toMatch(/\son[a-z]+="/i);
    // One inline loader, which names the page's script without fetching it.
    const scripts = inlineElements(html, "script");
    expect(scripts).toHaveLength(1);
    const [loader] = scripts;
    expect(loader?.attributes).toContain('type="module"');
    const entry = loader?.attributes.match(/\sdata-entry="(\/assets\/[\w-]+\.js)"/)?.[1];
    expect(entry).toBeDefined();
    expect((await stat(join(DEFAULT_DIST, entry ?? ""))).isFile()).toBe(true);
    expect(loader?.text).toMatch(/import\(/);
    // Small enough to sit in the HTML's first packets: what starts on the first
    // touch, what is fetched when idle, and where a link to the form leads.
    expect(loader?.text.length).toBeLessThan(1536);
  });
});

describe("the hashes the worker puts in the Content-Security-Policy (pages/dist/csp-hashes.json)", () => {
  it("are exactly the hashes of the landing's inline style and script", async () => {
    const hashes = JSON.parse(await readFile(join(DEFAULT_DIST, "csp-hashes.json"), "utf8"));
    expect(hashes).toEqual({
      "/": {
        style: inlineElements(html, "style").map((s) => sha256(s.text)),
        script: inlineElements(html, "script").map((s) => sha256(s.text)),
      },
    });
  });

  it("leave every other page without inline code, as its policy allows none", async () => {
    // The landing's variants for the ads' settings (`_anuncios/*/index.html`) are the landing.
    const pages = (await readdir(DEFAULT_DIST, { recursive: true }))
      .filter((f) => f.endsWith(".html") && !f.endsWith("index.html"))
      .map((f) => relative(DEFAULT_DIST, join(DEFAULT_DIST, f)));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const other = await readFile(join(DEFAULT_DIST, page), "utf8");
      expect(inlineElements(other, "style"), page).toEqual([]);
      expect(
        inlineElements(other, "script").filter((s) => s.text.trim() !== ""),
        page,
      ).toEqual([]);
    }
  });

  it("writes the landing once per ads' setting with the same inline style and loader, so its hashes hold", async () => {
    const variants = (await readdir(join(DEFAULT_DIST, "_anuncios"))).sort();
    expect(variants).toEqual([
      "google",
      "google-consentimento",
      "meta",
      "meta-consentimento",
      "meta-google",
      "meta-google-consentimento",
    ]);
    const inline = (page: string) =>
      [...inlineElements(page, "style"), ...inlineElements(page, "script")].map((e) => e.text);
    for (const variant of variants) {
      const page = await readFile(join(DEFAULT_DIST, "_anuncios", variant, "index.html"), "utf8");
      expect(inline(page), variant).toEqual(inline(html));
      expect(page).toContain(`<div id="root" data-anuncios="${variant}">`);
    }
  });
});
