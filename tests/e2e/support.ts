import { join } from "node:path";
import { expect, type Locator, type Page, type Response, type TestInfo } from "@playwright/test";
import type { App } from "../support/app";
import type { FakeMail, LinkKind } from "../support/fake-mail";
import { uniqueIp } from "../support/leads";
import { repoRoot } from "../support/paths";
import { insertLeads, type SeedLead } from "../support/seed";

export const SCREENSHOT_DIR = join(repoRoot, "tests/artifacts/screenshots");

/**
 * Holds every request of `page` to `url` on its way until `release()` (a
 * slow network, a slow Jetimob), then lets them all through; `requested`
 * lists the paths asked for.
 */
export async function holdRequests(page: Page, url: string | RegExp) {
  const requested: string[] = [];
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(url, async (route) => {
    requested.push(new URL(route.request().url()).pathname);
    await held;
    await route.continue().catch(() => {});
  });
  return { requested, release };
}

/** The lead form's button. */
export const LEAD_SUBMIT = "Quero meu acesso antecipado ao lançamento exclusivo";

/**
 * Every request of `page` from now on comes from a new visitor's address, so
 * each test is its own visitor for the per-IP limits (each Playwright worker
 * has its own site, so a per-process sequence is enough).
 */
export async function asNewVisitor(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders({ "CF-Connecting-IP": uniqueIp() });
}

/**
 * Opens a landing URL and waits until React has attached its handlers to the
 * form. The landing runs its script when the visitor starts using the form
 * (src/boot/landing.ts): here a press on the form, which moves no focus.
 */
export async function openLanding(page: Page, url = "/"): Promise<void> {
  await page.goto(url);
  await page.locator("form").first().dispatchEvent("pointerdown");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/**
 * Saves a full-page screenshot named after the viewport project and `name`, one
 * image pixel per CSS pixel: a phone's at its 2.6 device pixels would be seven
 * times the pixels to encode, for a page read the same. First it checks what
 * every screen shown must be: no wider than the window (a page a phone must
 * scroll sideways hides its right edge: dates, buttons, the last column).
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wider, `${name}: the page is wider than the window by ${wider} px`).toBeLessThanOrEqual(0);
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${testInfo.project.name}-${name}.png`),
    fullPage: true,
    scale: "css",
  });
}

/** The site this Playwright worker started (fixtures.ts), for the helpers below. */
let site: { app: App; mail: FakeMail } | null = null;

export function useSite(started: { app: App; mail: FakeMail }): void {
  site = started;
}

function currentSite() {
  if (!site) throw new Error("no site started: use the `site` fixture of fixtures.ts");
  return site;
}

/** Where the site under test answers. */
export function siteUrl(): string {
  return currentSite().app.baseUrl;
}

/** Rows from the D1 of the site under test, through the worker's binding. */
export function sql<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]> {
  return currentSite().app.sql<T>(query, ...params);
}

/** Writes leads straight into the D1 of the site under test (as if they had arrived over time). */
export function seedLeads(leads: SeedLead[]) {
  return insertLeads(currentSite().app, leads);
}

/**
 * Waits until the leads panel shows the worker's answer to the list it asked
 * for on load (its counters hold numbers). Before that, anything the answer
 * brings (a row, the incident banner) is simply not drawn yet, so checking
 * that it is absent would prove nothing.
 */
export async function panelLoaded(page: Page): Promise<void> {
  await expect(page.locator(".counter__value").first()).toHaveText(/^\d[\d.]*$/);
}

/** The panel's next answer for the list asked with these parameters, say `{ q: "Ana" }`. */
export function listAnswer(page: Page, asked: Record<string, string>): Promise<Response> {
  return page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === "/api/leads" && Object.entries(asked).every(([k, v]) => url.searchParams.get(k) === v);
  });
}

/**
 * Waits until the page has been drawn again: the browser moves the focus off
 * a control that turned disabled only then, so a check of where the focus is
 * made sooner could pass for the wrong reason.
 */
function afterNextFrame(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

/**
 * A control that is off for now (a button at work, 'Próxima' on the last
 * page) and still holds the keyboard's focus once the page is drawn again.
 */
export async function expectOffAndFocused(page: Page, control: Locator): Promise<void> {
  await expect(control).toBeDisabled();
  await afterNextFrame(page);
  await expect(control).toBeFocused();
}

/** The dialog 'Marcar Enviado' opens, asking before the lead stops going to Jetimob on its own. */
export function markSentDialog(page: Page): Locator {
  return page.getByRole("dialog", { name: "Marcar como enviado?" });
}

/** 'Marcar Enviado' on the lead in `scope` (its row, its page's card), confirmed in the dialog it opens. */
export async function markSent(page: Page, scope: Locator): Promise<void> {
  await scope.getByRole("button", { name: "Marcar Enviado" }).click();
  await markSentDialog(page).getByRole("button", { name: "Marcar como enviado" }).click();
}

/** Confirms, from the keyboard, the dialog 'Marcar Enviado' opened: 'Cancelar' has the focus, Tab reaches 'Marcar como enviado'. */
export async function confirmMarkSentByKeyboard(page: Page): Promise<void> {
  await expect(markSentDialog(page).getByRole("button", { name: "Cancelar" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(markSentDialog(page).getByRole("button", { name: "Marcar como enviado" })).toBeFocused();
  await page.keyboard.press("Enter");
}

/** Fires the worker's cron once (deliveries, notices, delivery alerts) and waits for it. */
export function runCron(): Promise<void> {
  return currentSite().app.runCron();
}

let counter = 0;
/** An e-mail and WhatsApp number no other test uses. */
export function uniquePerson(testInfo: TestInfo) {
  counter += 1;
  const stamp = `${Date.now()}${testInfo.workerIndex}${counter}`;
  return {
    name: `Visitante ${testInfo.project.name} ${counter}`,
    email: `visitante.${stamp}@example.com`,
    whatsappDigits: `499${stamp.slice(-8)}`,
  };
}

/** The newest link of `kind` (the sign-up's confirmation by default) the fake e-mail API received for `email`. */
export async function emailedLink(email: string, kind: LinkKind = "confirmar"): Promise<string> {
  const { mail } = currentSite();
  const token = kind === "confirmar" ? mail.confirmationToken(email) : mail.resetToken(email);
  return `${currentSite().app.baseUrl}/auth?${kind}=${token}`;
}

export type Person = ReturnType<typeof uniquePerson>;

/**
 * Fills the landing's lead form as a visitor would. With the page's script
 * running the WhatsApp digits are typed one by one (the field formats them);
 * without it (`{ script: false }`) the number is typed already formatted.
 */
export async function fillLeadForm(
  page: Page,
  person: Pick<Person, "name" | "email" | "whatsappDigits">,
  { script = true } = {},
): Promise<void> {
  await page.getByLabel("Nome completo").fill(person.name);
  await page.getByLabel("E-mail").fill(person.email);
  const whatsapp = page.getByLabel("WhatsApp com DDD");
  const digits = person.whatsappDigits;
  if (script) await whatsapp.pressSequentially(digits);
  else await whatsapp.fill(`(${digits.slice(0, 2)}) ${digits.slice(2)}`);
}
