import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { aLead, LEAD_PATH, uniqueIp } from "../support/leads";

// What the public pages say of the ads, as the worker serves them: the
// privacy page and the line under the form name Meta and/or Google when
// their settings are on, and nothing of them otherwise; ADS_CONSENT=checkbox
// adds the unticked box. Each is a page built beforehand, served at the
// page's own address, its inline code allowed by the same CSP hashes.

const META = { META_PIXEL_ID: "1234567890", META_ACCESS_TOKEN: "EAAB-test" };
const GOOGLE = { GOOGLE_ADS_IMPORT_USER: "google", GOOGLE_ADS_IMPORT_PASSWORD: "senha-longa" };
const CHECKBOX = { ADS_CONSENT: "checkbox" };

const SETTINGS = {
  none: {},
  meta: META,
  google: GOOGLE,
  both: { ...META, ...GOOGLE },
  "both, checkbox": { ...META, ...GOOGLE, ...CHECKBOX },
  "checkbox alone": CHECKBOX,
  "meta without its token": { META_PIXEL_ID: "1234567890" },
} as const;

const apps: Partial<Record<keyof typeof SETTINGS, App>> = {};

beforeAll(async () => {
  await Promise.all(
    Object.entries(SETTINGS).map(async ([name, vars]) => {
      apps[name as keyof typeof SETTINGS] = await spawnApp({ vars });
    }),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(apps).map((app) => app?.stop()));
});

function app(name: keyof typeof SETTINGS): App {
  const found = apps[name];
  if (!found) throw new Error(`no site ${name}`);
  return found;
}

async function page(name: keyof typeof SETTINGS, path: string) {
  const response = await fetch(app(name).baseUrl + path, { headers: { "User-Agent": "curl/8" } });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** The visible text of some HTML, tags dropped, spaces made one. */
function text(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->|<wbr\/?>/g, "")
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

/** The line under the form: the paragraph with the privacy link in the hero's card. */
function formLine(html: string): string {
  return text(html.match(/<p class="privacy-note">[\s\S]*?<\/p>/)?.[0] ?? "").trim();
}

describe("the line under the form", () => {
  it.each([
    ["none", "Usamos seus dados só para falar com você sobre o Recanto das Videiras. Política de Privacidade"],
    [
      "meta without its token",
      "Usamos seus dados só para falar com você sobre o Recanto das Videiras. Política de Privacidade",
    ],
    [
      "meta",
      "Usamos seus dados para falar com você sobre o Recanto das Videiras e, de forma protegida, para medir nossos anúncios na Meta. Política de Privacidade",
    ],
    [
      "google",
      "Usamos seus dados para falar com você sobre o Recanto das Videiras e, de forma protegida, para medir nossos anúncios no Google. Política de Privacidade",
    ],
    [
      "both",
      "Usamos seus dados para falar com você sobre o Recanto das Videiras e, de forma protegida, para medir nossos anúncios na Meta e no Google. Política de Privacidade",
    ],
    [
      "both, checkbox",
      "Usamos seus dados para falar com você sobre o Recanto das Videiras e, se você permitir, de forma protegida, para medir nossos anúncios na Meta e no Google. Política de Privacidade",
    ],
  ] as const)("with %s: %s", async (name, line) => {
    const { status, html } = await page(name, "/");
    expect(status).toBe(200);
    expect(formLine(html)).toBe(line);
  });

  it("has the consent box, unticked, only with ADS_CONSENT=checkbox and an ad platform on", async () => {
    const box = /<input id="lead-ads-consent" type="checkbox" name="ads_consent"\/>/;
    expect((await page("both, checkbox", "/")).html).toMatch(box);
    expect((await page("both, checkbox", "/")).html).not.toMatch(/lead-ads-consent"[^>]*checked/);
    for (const name of ["none", "both", "checkbox alone", "meta"] as const) {
      expect((await page(name, "/")).html, name).not.toContain("lead-ads-consent");
    }
  });
});

describe("the privacy page", () => {
  it("names no ad platform while none is configured", async () => {
    for (const name of ["none", "checkbox alone", "meta without its token"] as const) {
      const body = text((await page(name, "/privacidade")).html);
      expect(body, name).not.toContain("Medição dos anúncios");
      expect(body, name).not.toMatch(/\bMeta \(Facebook|Google Ads/);
      expect(body, name).toContain("Somente para entrar em contato com você");
    }
  });

  it("with Meta on, names Meta, the purpose, what is sent and how to stop it; not Google", async () => {
    const body = text((await page("meta", "/privacidade")).html);
    expect(body).toContain("a Meta (Facebook e Instagram), que recebe de forma protegida os cadastros");
    expect(body).toContain("Medição dos anúncios");
    expect(body).toContain("Para saber quais anúncios trazem pessoas interessadas no Recanto das Videiras");
    expect(body).toContain("o e-mail, o telefone e o nome em forma de resumo criptográfico (hash SHA-256)");
    expect(body).toContain("(fbclid)");
    expect(body).toContain("o legítimo interesse");
    expect(body).toMatch(
      /escreva para privacidade@altosdaserraimoveis\.com\.br ?: deixamos de enviar e pedimos a exclusão à Meta\./,
    );
    expect(body).not.toContain("o Google (Google Ads)");
    // Google's click ids are kept with every lead (what is collected), but none is sent to Google.
    expect(body).not.toContain("(gclid, gbraid ou wbraid)");
    expect(body).not.toContain("pedimos a exclusão ao Google");
  });

  it("with Google on, names Google and its click ids; not Meta", async () => {
    const body = text((await page("google", "/privacidade")).html);
    expect(body).toContain("o Google (Google Ads), que recebe de forma protegida os cadastros");
    expect(body).toContain("(gclid, gbraid ou wbraid)");
    expect(body).toContain("pedimos a exclusão ao Google");
    expect(body).not.toContain("a Meta (Facebook e Instagram)");
    expect(body).not.toContain("para a Meta");
  });

  it("with both, names both; with the checkbox, says only those who ticked it are sent, on their consent", async () => {
    const both = text((await page("both", "/privacidade")).html);
    expect(both).toContain("informamos à Meta e ao Google cada novo cadastro");
    expect(both).toContain("(fbclid, da Meta; gclid, gbraid ou wbraid, do Google)");
    const asked = text((await page("both, checkbox", "/privacidade")).html);
    expect(asked).toContain(
      "Fazemos isso só quando você marca, no formulário, a caixa “Aceito que meus dados sejam usados, de forma protegida, para medir os anúncios”, que vem desmarcada",
    );
    expect(asked).toContain("A base legal é o seu consentimento, que você pode retirar quando quiser");
  });

  it("and every other public page's footer say it too", async () => {
    for (const path of ["/", "/privacidade", "/obrigado", "/cadastro-nao-enviado"]) {
      const plain = text((await page("none", path)).html);
      const measured = text((await page("both", path)).html);
      expect(plain, path).toContain("usados apenas para contato sobre este empreendimento");
      expect(measured, path).toContain("para medir nossos anúncios na Meta e no Google");
    }
  });
});

describe("the pages of each combination", () => {
  it("carry the landing's inline style and loader the CSP allows by hash", async () => {
    for (const name of ["none", "meta", "both, checkbox"] as const) {
      const { html, headers } = await page(name, "/");
      const policy = headers.get("Content-Security-Policy") ?? "";
      const hash = (code: string) => `'sha256-${createHash("sha256").update(code, "utf8").digest("base64")}'`;
      const style = html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? "";
      const script = html.match(/<script type="module" data-entry="[^"]+">([\s\S]*?)<\/script>/)?.[1] ?? "";
      expect(style.length, name).toBeGreaterThan(1000);
      expect(policy, name).toContain(`style-src 'self' ${hash(style)}`);
      expect(policy, name).toContain(`script-src 'self' ${hash(script)}`);
      expect(policy, name).not.toMatch(/https?:/);
    }
  });

  it("say which they are to the page's script, and are served at the public address alone", async () => {
    expect((await page("both, checkbox", "/")).html).toContain(
      '<div id="root" data-anuncios="meta-google-consentimento">',
    );
    expect((await page("none", "/")).html).toContain('<div id="root">');
    for (const path of ["/_anuncios/meta/", "/_anuncios/meta/privacidade", "/_anuncios"]) {
      expect((await page("meta", path)).status, path).toBe(404);
    }
  });

  it("answer 304 to a browser that has the page already", async () => {
    const first = await fetch(`${app("meta").baseUrl}/privacidade`);
    const tag = first.headers.get("ETag");
    expect(tag).toBeTruthy();
    const again = await fetch(`${app("meta").baseUrl}/privacidade`, { headers: { "If-None-Match": tag ?? "" } });
    expect(again.status).toBe(304);
  });
});

describe("a plain form post with the consent box", () => {
  it("is taken with or without ads_consent=on, as the form sends it", async () => {
    for (const consent of [true, false]) {
      const lead = aLead() as Record<string, string>;
      const body = new URLSearchParams({ ...lead, ...(consent ? { ads_consent: "on" } : {}) });
      const response = await fetch(app("both, checkbox").baseUrl + LEAD_PATH, {
        method: "POST",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: app("both, checkbox").baseUrl,
          "CF-Connecting-IP": uniqueIp(),
        },
        body: body.toString(),
      });
      expect(response.status).toBe(303);
      expect(await app("both, checkbox").sql("SELECT count(*) AS n FROM leads WHERE email = ?1", lead.email)).toEqual([
        { n: 1 },
      ]);
    }
  });
});
