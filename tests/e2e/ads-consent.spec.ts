import { join } from "node:path";
import { test as base, expect, type Request } from "@playwright/test";
import { type App, spawnApp } from "../support/app";
import { LEAD_PATH } from "../support/leads";
import { LOG_DIR } from "./fixtures";
import { asNewVisitor, fillLeadForm, openLanding, LEAD_SUBMIT as SUBMIT, screenshot, uniquePerson } from "./support";

// ADS_CONSENT=checkbox with Meta and Google configured: under the form an
// unticked, optional box; the lead says `ads_consent` only when it is ticked,
// with the page's script (JSON) and without it (a plain form post).

const CONSENT = /Aceito que meus dados sejam usados, de forma protegida, para medir os anúncios/;

const test = base.extend<object, { site: App }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const app = await spawnApp({
        vars: {
          META_PIXEL_ID: "1234567890",
          META_ACCESS_TOKEN: "EAAB-test",
          GOOGLE_ADS_IMPORT_USER: "google",
          GOOGLE_ADS_IMPORT_PASSWORD: "senha-longa",
          ADS_CONSENT: "checkbox",
        },
        logFile: join(LOG_DIR, `ads-consent-${workerInfo.workerIndex}-${Date.now()}.log`),
      });
      await use(app);
      await app.stop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.baseUrl);
  },
});

/** The lead the page posts next. */
function nextLeadPost(page: import("@playwright/test").Page): Promise<Request> {
  return page.waitForRequest((r) => new URL(r.url()).pathname === LEAD_PATH && r.method() === "POST");
}

test.beforeEach(async ({ page }) => {
  await asNewVisitor(page);
});

test(
  "the box comes unticked; the lead says ads_consent only when the visitor ticked it",
  { tag: "@one-screen" },
  async ({ page }, testInfo) => {
    await openLanding(page);
    const box = page.getByLabel(CONSENT);
    await expect(box).not.toBeChecked();
    await expect(
      page.getByText(/se você permitir, de forma protegida, para medir nossos anúncios na Meta e no Google/),
    ).toBeVisible();
    const button = await page.getByRole("button", { name: SUBMIT }).boundingBox();
    const viewport = page.viewportSize();
    expect(button && viewport && button.y + button.height <= viewport.height).toBe(true);
    await screenshot(page, testInfo, "landing-consent-box");

    await fillLeadForm(page, uniquePerson(testInfo));
    const unticked = nextLeadPost(page);
    await page.getByRole("button", { name: SUBMIT }).click();
    expect((await unticked).postDataJSON()).not.toHaveProperty("ads_consent");
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();

    await page.getByRole("link", { name: "Enviar outro cadastro" }).click();
    await fillLeadForm(page, uniquePerson(testInfo));
    await page.getByLabel(CONSENT).check();
    const ticked = nextLeadPost(page);
    await page.getByRole("button", { name: SUBMIT }).click();
    expect((await ticked).postDataJSON()).toMatchObject({ ads_consent: true });
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
  },
);

test(
  "without JavaScript the form post carries ads_consent=on only when ticked",
  { tag: "@one-screen" },
  async ({ browser, baseURL }, testInfo) => {
    for (const tick of [false, true]) {
      const context = await browser.newContext({ ...testInfo.project.use, baseURL, javaScriptEnabled: false });
      const page = await context.newPage();
      await asNewVisitor(page);
      await page.goto("/");
      await fillLeadForm(page, uniquePerson(testInfo), { script: false });
      if (tick) await page.getByLabel(CONSENT).check();
      const posted = nextLeadPost(page);
      await page.getByRole("button", { name: SUBMIT }).click();
      const form = new URLSearchParams((await posted).postData() ?? "");
      expect(form.get("ads_consent"), `ticked: ${tick}`).toBe(tick ? "on" : null);
      await expect(page).toHaveURL(/\/obrigado$/);
      await context.close();
    }
  },
);
