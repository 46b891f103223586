import { createHash } from "node:crypto";
import type { Response } from "@playwright/test";
import { LEAD_PATH } from "../support/leads";
import { expect, test } from "./fixtures";

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

/** The `'sha256-…'` sources of a page's inline `<style>` or `<script>` elements, as the browser checks them. */
function inlineHashes(html: string, tag: "style" | "script"): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, "gi"))]
    .map(([, text = ""]) => text)
    .filter((text) => text !== "")
    .map((text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`);
}

/** Of inline code, a page's policy allows exactly the page's own, by hash (`html`); without it, none. */
function expectStrictPagePolicy(headers: Record<string, string>, html = "") {
  const policy = headers["content-security-policy"] ?? "";
  const csp = directives(policy);
  expect(csp.get("default-src")).toEqual(["'self'"]);
  expect(csp.get("script-src")).toEqual(["'self'", ...inlineHashes(html, "script")]);
  expect(csp.get("style-src")).toEqual(["'self'", ...inlineHashes(html, "style")]);
  expect(csp.get("connect-src")).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'self'"]);
  // Turnstile is off in these tests: no other origin, no inline code.
  expect(policy).not.toMatch(/https?:|unsafe-inline|unsafe-eval|\*/);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["permissions-policy"]).toContain("geolocation=()");
  // Served over plain HTTP locally: HSTS only goes out over HTTPS.
  expect(headers["strict-transport-security"]).toBeUndefined();
  expect(headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
}

test.describe("response headers as the browser receives them", { tag: "@one-screen" }, () => {
  test("the landing page: strict CSP allowing its own inline style and loader by hash, revalidated on every visit", async ({
    page,
    baseURL,
  }) => {
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Permissions-Policy/i.test(m.text())) violations.push(m.text());
    });
    const origins = new Set<string>();
    page.on("request", (r) => {
      if (!r.url().startsWith("data:")) origins.add(new URL(r.url()).origin);
    });

    const response = (await page.goto("/")) as Response;
    expect(response.status()).toBe(200);
    const headers = await response.allHeaders();
    expect(headers["content-type"]).toMatch(/^text\/html/);
    const html = await response.text();
    expect(inlineHashes(html, "style")).toHaveLength(1);
    expect(inlineHashes(html, "script")).toHaveLength(1);
    expectStrictPagePolicy(headers, html);

    // Using the form runs the page's script, which fetches the run-time
    // settings; still nothing from elsewhere.
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/config");
    await page.getByLabel("Nome completo").focus();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await config;
    expect(violations).toEqual([]);
    expect([...origins]).toEqual([new URL(baseURL ?? "").origin]);
  });

  test("the other pages carry the same headers, the 404 page too", async ({ request }) => {
    for (const [path, status] of [
      ["/privacidade", 200],
      ["/auth", 200],
      ["/admin", 200],
      ["/nao-existe", 404],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(status);
      expectStrictPagePolicy(response.headers());
    }
  });

  test("a hashed build asset is cached for a year as immutable, and nosniff", async ({ page }) => {
    const [script] = await Promise.all([
      page.waitForResponse((r) => /\/assets\/[\w-]+\.js$/.test(new URL(r.url()).pathname)),
      page.goto("/"),
    ]);
    const headers = await script.allHeaders();
    expect(script.status()).toBe(200);
    expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["content-type"]).toMatch(/^text\/javascript/);
    // Compressed on the way (the browser offers brotli).
    expect(["br", "gzip", "zstd"]).toContain(headers["content-encoding"]);
  });

  test("a build asset that is not there answers the 404 page with the site's headers, revalidated on every visit", async ({
    request,
  }) => {
    for (const path of ["/assets/index-naoexiste.js", "/assets/fonte-velha.woff2", "/assets/"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      // A page of a deploy being replaced may ask for it: revalidated, never kept.
      expectStrictPagePolicy(response.headers());
      expect(await response.text()).toContain("404");
    }
  });

  test("an API answer is never stored by a cache", async ({ page }) => {
    await page.goto("/");
    const [answer, body] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === LEAD_PATH),
      page.evaluate(
        (path) =>
          fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).then((r) =>
            r.json(),
          ),
        LEAD_PATH,
      ),
    ]);
    expect(answer.status()).toBe(422);
    const headers = await answer.allHeaders();
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(body).toMatchObject({ success: false, error: "Por favor, preencha todos os campos." });
  });
});
