import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
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

describe("the prerendered landing page (pages/dist/index.html)", () => {
  it("holds the hero, the three form labels and the button in its HTML", async () => {
    const html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
    const text = visibleText(html);
    expect(html).toMatch(/<h1\b[^>]*>Sua casa ao lado de uma vinícola<\/h1>/);
    for (const label of ["Nome completo", "E-mail", "WhatsApp com DDD"]) {
      expect(html).toMatch(new RegExp(`<label\\b[^>]*for="lead-[a-z]+"[^>]*>${label}</label>`));
    }
    expect(html).toMatch(
      /<button\b[^>]*type="submit"[^>]*>Quero meu acesso antecipado ao lançamento exclusivo<\/button>/,
    );
    expect(text).toContain("Vagas limitadas");
    expect(html).toMatch(/<form\b[^>]*method="post"/);
  });

  it("does not wait for a script to show it: no inline script, module scripts only", async () => {
    const html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toContain('type="module"');
      expect(attributes).toMatch(/\ssrc="\/assets\//);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+="/i);
  });
});
