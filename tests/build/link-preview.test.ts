import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import agency from "../../agency.json" with { type: "json" };
import { DEFAULT_DIST } from "../../scripts/page-weight.mjs";

/** Width and height from a PNG's header. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function meta(html: string, key: string): string | undefined {
  const tag = html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`));
  return tag?.[1];
}

describe("the link preview and icons of the landing page", () => {
  it("point to a 1200×630 Open Graph image light enough for WhatsApp", async () => {
    const html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
    const image = meta(html, "og:image");
    expect(image).toBe(`${agency.site.url.replace(/\/$/, "")}/og-image.png`);
    expect(meta(html, "twitter:image")).toBe(image);
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    const bytes = await readFile(join(DEFAULT_DIST, "og-image.png"));
    const size = pngSize(bytes);
    expect(size).toEqual({ width: 1200, height: 630 });
    expect(meta(html, "og:image:width")).toBe(String(size.width));
    expect(meta(html, "og:image:height")).toBe(String(size.height));
    expect(bytes.length).toBeLessThan(100 * 1024);
  });

  it("has a 180×180 apple-touch-icon and an SVG favicon, as the HTML says", async () => {
    const html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png" />');
    expect(pngSize(await readFile(join(DEFAULT_DIST, "apple-touch-icon.png")))).toEqual({ width: 180, height: 180 });
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(await readFile(join(DEFAULT_DIST, "favicon.svg"), "utf8")).toContain("<svg");
  });

  it("has a description, a canonical URL and a robots.txt that keeps staff pages out", async () => {
    const html = await readFile(join(DEFAULT_DIST, "index.html"), "utf8");
    expect(meta(html, "description")).toBe(agency.site.description);
    expect(html).toContain(`<link rel="canonical" href="${agency.site.url.replace(/\/$/, "")}/" />`);
    const robots = await readFile(join(DEFAULT_DIST, "robots.txt"), "utf8");
    expect(robots).toContain("Disallow: /admin");
    expect(robots).toContain("Disallow: /auth");
  });
});
