import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { FakeTurnstile, TURNSTILE_TEST } from "../support/fake-turnstile";
import { staffEmail } from "../support/staff";
import { LOG_DIR } from "./fixtures";
import { asNewVisitor, fillLeadForm, openLanding, LEAD_SUBMIT as SUBMIT, uniquePerson } from "./support";

/**
 * The bot check as a visitor meets it: the real pages and the real worker
 * with Turnstile on. Only Cloudflare is replaced: its widget script by a
 * stand-in served to the browser at the real script address (so the real
 * Content-Security-Policy applies), its verification by the fake service.
 */

const SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js**";
const REFUSED = "A verificação de segurança falhou ou expirou. Tente enviar novamente.";
const PASSWORD = "vinho-tinto-2026";

/**
 * Turnstile's browser API as our pages use it: `render` shows the widget and
 * hands out the test token a moment later, `reset` (a token works once) hands
 * out a fresh one. What the page asked for is kept in `window.fakeTurnstile`.
 */
const FAKE_WIDGET = `(() => {
  const TOKEN = ${JSON.stringify(TURNSTILE_TEST.dummyToken)};
  const widgets = [];
  const log = { rendered: [], resets: 0 };
  const handOut = (options) => setTimeout(() => options.callback(TOKEN), 150);
  window.fakeTurnstile = log;
  window.turnstile = {
    render(container, options) {
      const box = document.createElement("div");
      box.className = "fake-turnstile";
      box.textContent = "Verificação de segurança";
      container.append(box);
      log.rendered.push({ sitekey: options.sitekey, language: options.language, action: options.action });
      widgets.push(options);
      handOut(options);
      return String(widgets.length - 1);
    },
    reset(id) {
      log.resets += 1;
      handOut(widgets[Number(id)]);
    },
  };
})();`;

type Sites = { passing: App; failing: App; verifier: FakeTurnstile; mail: FakeMail };

const test = base.extend<{ scriptRequests: string[] }, { sites: Sites }>({
  sites: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const verifier = await new FakeTurnstile().start();
      const mail = await new FakeMail().start();
      // Each site has its own D1, made by the migrations and gone when it stops.
      const site = (secret: string, name: string) =>
        spawnApp({
          vars: {
            TURNSTILE_SITE_KEY: TURNSTILE_TEST.siteKey,
            TURNSTILE_SECRET_KEY: secret,
            TURNSTILE_VERIFY_URL: verifier.verifyUrl,
            ...mail.settings(),
          },
          logFile: join(LOG_DIR, `turnstile-${name}-${workerInfo.workerIndex}-${Date.now()}.log`),
        });
      const [passing, failing] = await Promise.all([
        site(TURNSTILE_TEST.passingSecret, "passing"),
        site(TURNSTILE_TEST.failingSecret, "failing"),
      ]);
      await use({ passing, failing, verifier, mail });
      await Promise.all([passing.stop(), failing.stop(), verifier.stop(), mail.stop()]);
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ sites }, use) => {
    await use(sites.passing.baseUrl);
  },
  // Every page of these tests gets the stand-in widget instead of Cloudflare's script.
  scriptRequests: async ({ page }, use) => {
    const requests: string[] = [];
    await page.route(SCRIPT, async (route) => {
      requests.push(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/javascript", body: FAKE_WIDGET });
    });
    await use(requests);
  },
});

/** How many leads a site stored with this e-mail. */
async function storedLeads(site: App, email: string): Promise<number> {
  const [row] = await site.sql<{ n: number }>("SELECT count(*) AS n FROM leads WHERE email = ?1", email);
  if (!row) throw new Error("count(*) answered no row");
  return row.n;
}

test.describe("with Turnstile on", { tag: "@one-screen" }, () => {
  test.beforeEach(async ({ page }) => {
    await asNewVisitor(page);
  });

  test("the lead form loads the widget on first use and sends its token, which the worker verifies", async ({
    page,
    sites,
    scriptRequests,
  }, testInfo) => {
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await openLanding(page);
    // Nothing from Cloudflare until the visitor starts filling the form.
    expect(scriptRequests).toEqual([]);

    const first = uniquePerson(testInfo);
    await fillLeadForm(page, first);
    await expect(page.locator(".fake-turnstile")).toBeVisible();
    expect(scriptRequests).toHaveLength(1);
    expect(scriptRequests[0]).toContain("render=explicit");
    expect(await page.evaluate(() => (window as unknown as { fakeTurnstile: unknown }).fakeTurnstile)).toEqual({
      rendered: [{ sitekey: TURNSTILE_TEST.siteKey, language: "pt-BR", action: "lead" }],
      resets: 0,
    });

    const before = sites.verifier.verifications().length;
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
    const checks = sites.verifier.verifications().slice(before);
    expect(checks).toEqual([
      expect.objectContaining({ secret: TURNSTILE_TEST.passingSecret, response: TURNSTILE_TEST.dummyToken }),
    ]);
    expect(await storedLeads(sites.passing, first.email)).toBe(1);

    // A token works once: the next lead, sent from the form brought back, carries a new one.
    await page.getByRole("link", { name: "Enviar outro cadastro" }).click();
    const second = uniquePerson(testInfo);
    await fillLeadForm(page, second);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect
      .poll(() => sites.verifier.verifications().slice(before))
      .toEqual([
        expect.objectContaining({ response: TURNSTILE_TEST.dummyToken }),
        expect.objectContaining({ response: TURNSTILE_TEST.dummyToken }),
      ]);
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
    expect(await storedLeads(sites.passing, second.email)).toBe(1);
    expect(errors).toEqual([]);
  });

  test("a token the verification refuses tells the visitor, keeps what they typed and stores nothing", async ({
    page,
    sites,
    scriptRequests,
  }, testInfo) => {
    const person = uniquePerson(testInfo);
    await openLanding(page, sites.failing.baseUrl);
    await fillLeadForm(page, person);
    await expect(page.locator(".fake-turnstile")).toBeVisible();
    await page.getByRole("button", { name: SUBMIT }).click();

    await expect(page.getByRole("alert").filter({ hasText: "Houve um erro" })).toContainText(
      "Houve um erro ao enviar seus dados. Tente novamente.",
    );
    await expect(page.locator(".lead-form__notice")).toHaveText(REFUSED);
    await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
    expect(scriptRequests).toHaveLength(1);
    expect(await storedLeads(sites.failing, person.email)).toBe(0);
  });

  test("a field the worker refuses keeps the check's token for the corrected lead", async ({
    page,
    sites,
    scriptRequests,
  }, testInfo) => {
    const person = uniquePerson(testInfo);
    await openLanding(page);
    await fillLeadForm(page, { ...person, whatsappDigits: "23999998888" });
    await expect(page.locator(".fake-turnstile")).toBeVisible();
    const before = sites.verifier.verifications().length;
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByLabel("WhatsApp com DDD")).toHaveAccessibleDescription(/DDD inválido/);
    // The worker refused the field before the token: the token stays, the widget is not reset.
    const resets = () =>
      page.evaluate(() => (window as unknown as { fakeTurnstile: { resets: number } }).fakeTurnstile.resets);
    expect(await resets()).toBe(0);

    await page.getByLabel("WhatsApp com DDD").fill("");
    await page.getByLabel("WhatsApp com DDD").pressSequentially(person.whatsappDigits);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
    expect(sites.verifier.verifications().slice(before)).toEqual([
      expect.objectContaining({ response: TURNSTILE_TEST.dummyToken }),
    ]);
    expect(await resets()).toBe(1);
    expect(await storedLeads(sites.passing, person.email)).toBe(1);
    expect(scriptRequests).toHaveLength(1);
  });

  test("staff sign-up passes the check too and the confirmation e-mail goes out", async ({
    page,
    sites,
    scriptRequests,
  }) => {
    const address = staffEmail("turnstile");
    await page.goto("/auth");
    await page.getByRole("tab", { name: "Cadastrar" }).click();
    const signup = page.getByRole("tabpanel", { name: "Cadastrar" });
    await signup.getByLabel("E-mail").fill(address);
    await expect(signup.locator(".fake-turnstile")).toBeVisible();
    await signup.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await signup.getByLabel("Confirmar senha", { exact: true }).fill(PASSWORD);
    const before = sites.verifier.verifications().length;
    await signup.getByRole("button", { name: "Criar conta" }).click();

    await expect(page.locator(".toast").filter({ hasText: "Conta criada!" })).toBeVisible();
    expect(sites.verifier.verifications().slice(before)).toEqual([
      expect.objectContaining({ response: TURNSTILE_TEST.dummyToken }),
    ]);
    expect(sites.mail.confirmationLink(address)).toContain("/auth?confirmar=");
    expect(scriptRequests).toHaveLength(1);
  });

  test("the form without JavaScript cannot pass the check: nothing is stored and the visitor is told", async ({
    browser,
    sites,
  }, testInfo) => {
    const context = await browser.newContext({
      ...testInfo.project.use,
      baseURL: sites.passing.baseUrl,
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await asNewVisitor(page);
    const person = uniquePerson(testInfo);
    await page.goto("/");
    await fillLeadForm(page, person, { script: false });
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page).toHaveURL(/\/cadastro-nao-enviado\?motivo=verificacao$/);
    await expect(page.getByRole("heading", { level: 1, name: "Seu cadastro não foi enviado" })).toBeVisible();
    await expect(page.getByText(/verificação de segurança/)).toBeVisible();
    expect(await storedLeads(sites.passing, person.email)).toBe(0);
    await context.close();
  });
});
