import { join } from "node:path";
import { type Browser, test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { insertLeads } from "../support/seed";
import { signedInStaff } from "../support/staff";
import { LOG_DIR } from "./fixtures";
import { type Staff, submitLogin } from "./staff";
import { panelLoaded, screenshot } from "./support";

/**
 * Owners decide who joins: the panel with STAFF_APPROVAL on, which the
 * shared site of fixtures.ts leaves off, so these tests start their own.
 */
type Site = { app: App; mail: FakeMail; owner: Staff };

const test = base.extend<object, { approvalSite: Site }>({
  approvalSite: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const mail = await new FakeMail().start();
      const app = await spawnApp({
        vars: { ...mail.settings(), STAFF_APPROVAL: "true" },
        logFile: join(LOG_DIR, `approval-${workerInfo.workerIndex}-${Date.now()}.log`),
      });
      await insertLeads(app, [{ name: "Íris Aprovação" }, { name: "Jonas Aprovação" }]);
      // The cron taken as running, as in fixtures.ts: no 'envio automático parado' banner.
      await app.sql("INSERT INTO cron_state (name, value) VALUES ('delivery_watched_at', ?1)", Date.now() + 86_400_000);
      // The first account confirmed is the first owner, and needs nobody's approval.
      const { email, password } = await signedInStaff(app, mail);
      await use({ app, mail, owner: { email, password } });
      await app.stop();
      await mail.stop();
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ approvalSite }, use) => {
    await use(approvalSite.app.baseUrl);
  },
});

function toast(page: Page, title: string) {
  return page.locator(".toast").filter({ hasText: title });
}

/** Signs in through /auth; the panel opens, or, for an account still waiting, 'Aguardando aprovação'. */
async function signInAs(page: Page, staff: Staff): Promise<void> {
  await page.goto("/auth");
  await submitLogin(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/admin$/);
}

/** The colleague's own browser: its own cookies, the same kind of screen. */
async function colleagueBrowser(browser: Browser, testInfo: TestInfo, baseURL: string) {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
    locale,
    timezoneId,
    baseURL,
  });
  return { context, page: await context.newPage() };
}

test("a new colleague waits on 'Aguardando aprovação' until an owner's 'Aprovar' opens the panel, without a reload", async ({
  page,
  browser,
  approvalSite,
}, testInfo) => {
  const { app, mail, owner } = approvalSite;
  const colleague = await signedInStaff(app, mail);

  const { context, page: theirs } = await colleagueBrowser(browser, testInfo, app.baseUrl);
  await theirs.clock.install();
  await signInAs(theirs, colleague);
  await expect(theirs.getByRole("heading", { level: 1, name: "Aguardando aprovação" })).toBeVisible();
  await expect(theirs.locator(".awaiting")).toContainText(
    `Seu e-mail ${colleague.email} foi confirmado. Agora um responsável pelo painel precisa aprovar o seu acesso.`,
  );
  await expect(theirs.getByRole("navigation", { name: "Páginas do painel" })).toHaveCount(0);
  await expect(theirs.getByRole("button", { name: "Alterar senha" })).toBeVisible();
  await expect(theirs.getByRole("button", { name: "Sair" })).toBeVisible();
  await screenshot(theirs, testInfo, "approval-waiting");
  let reloaded = false;
  theirs.on("load", () => {
    reloaded = true;
  });

  await signInAs(page, owner);
  await page.getByRole("link", { name: "Equipe" }).click();
  const row = page.getByRole("row").filter({ hasText: colleague.email });
  await expect(row.getByText("Aguardando aprovação")).toBeVisible();
  await expect(page.getByRole("note")).toHaveText(/^\d+ contas? aguarda/);
  await expect(row.getByRole("button")).toHaveText(["Aprovar", "Recusar"]);
  await screenshot(page, testInfo, "approval-team-waiting");
  if (testInfo.project.name === "desktop") {
    // The new 'Permissões' column still leaves every action in sight.
    const overflow = await page.locator(".table-wrap").evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }
  await row.getByRole("button", { name: "Aprovar" }).click();
  await expect(toast(page, "Acesso aprovado")).toContainText(colleague.email);
  await expect(row.getByText("Confirmada")).toBeVisible();

  // Their page's next 30-second check brings the approval.
  await expect(theirs.getByRole("heading", { level: 1, name: "Aguardando aprovação" })).toBeVisible();
  await theirs.clock.runFor(31_000);
  await expect(theirs.getByRole("navigation", { name: "Páginas do painel" })).toBeVisible();
  await panelLoaded(theirs);
  await expect(toast(theirs, "Acesso aprovado")).toBeVisible();
  await expect(theirs.getByText("Aguardando aprovação")).toHaveCount(0);
  expect(reloaded).toBe(false);
  await context.close();
});

test("an owner takes 'Exportar CSV' from a colleague, whose export is then refused", async ({
  page,
  browser,
  approvalSite,
}, testInfo) => {
  const { app, mail, owner } = approvalSite;
  const colleague = await signedInStaff(app, mail);
  // Let in already: the test above goes through 'Aprovar'.
  await app.sql("UPDATE staff_users SET approved_at = ?1 WHERE email = ?2", Date.now(), colleague.email);
  const { context, page: theirs } = await colleagueBrowser(browser, testInfo, app.baseUrl);
  await signInAs(theirs, colleague);
  await panelLoaded(theirs);

  await signInAs(page, owner);
  await page.goto("/admin/equipe");
  const exports = page.getByRole("switch", { name: `Permitir que ${colleague.email} exporte CSV` });
  await expect(exports).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("switch", { name: `Permitir que ${colleague.email} exclua leads` })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  // Owners always may: their rows have no switch.
  await expect(page.getByRole("row").filter({ hasText: owner.email }).getByRole("switch")).toHaveCount(0);
  await exports.click();
  await expect(toast(page, "Não pode mais exportar CSV")).toContainText(colleague.email);
  await expect(exports).toHaveAttribute("aria-checked", "false");
  await expect(exports).toBeFocused();
  await screenshot(page, testInfo, "approval-team-permissions");

  const refused = theirs.waitForResponse((r) => new URL(r.url()).pathname === "/api/leads/export.csv");
  await theirs.getByRole("button", { name: "Exportar CSV" }).click();
  const answer = await refused;
  expect(answer.status()).toBe(403);
  expect((await answer.json()).error).toBe("Um responsável pelo painel tirou de você a permissão de exportar leads.");
  await expect(toast(theirs, "Erro ao exportar leads")).toBeVisible();
  await context.close();

  // 'Atividade' names what the owner did, in words.
  await page.getByRole("link", { name: "Atividade" }).click();
  const entry = page.getByRole("row").filter({ hasText: "Tirou a permissão de exportar CSV" });
  await expect(entry.first()).toContainText(colleague.email);
});
