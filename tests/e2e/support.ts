import { join } from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";
import { d1 } from "../support/app";
import { confirmationLinkAt } from "../support/fake-mail";
import { uniqueIp } from "../support/leads";
import { repoRoot } from "../support/paths";

export const SCREENSHOT_DIR = join(repoRoot, "tests/artifacts/screenshots");

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

/** Opens a landing URL and waits until React has attached its handlers to the form. */
export async function openLanding(page: Page, url = "/"): Promise<void> {
  await page.goto(url);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Saves a full-page screenshot named after the viewport project and `name`. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-${name}.png`), fullPage: true });
}

/** Rows from the local D1 of the site under test. */
export function sql<T = Record<string, unknown>>(query: string): Promise<T[]> {
  const dir = process.env.E2E_PERSIST_DIR;
  if (!dir) throw new Error("E2E_PERSIST_DIR is not set; run through playwright.config.ts");
  return d1(dir, query) as Promise<T[]>;
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

/** The confirmation link the fake e-mail API received for `email`. */
export function confirmationLink(email: string): Promise<string> {
  const mailUrl = process.env.E2E_MAIL_URL;
  if (!mailUrl) throw new Error("E2E_MAIL_URL is not set; run through playwright.config.ts");
  return confirmationLinkAt(mailUrl, email);
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
