import type { Browser, TestInfo } from "@playwright/test";
import { uniqueIp } from "../support/leads";
import { staffEmail } from "../support/staff";
import { expect, type Page, test } from "./fixtures";
import { createOwner, createStaff, expectSignedInAs, headerButton, signIn, signUp, submitLogin } from "./staff";
import { emailedLink, expectOffAndFocused, holdRequests, screenshot, siteUrl, sql } from "./support";

function toast(page: Page, title: string) {
  return page.locator(".toast").filter({ hasText: title });
}

/** A second person's browser: its own cookies, the same kind of screen. */
async function anotherBrowser(browser: Browser, testInfo: TestInfo) {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
    locale,
    timezoneId,
    baseURL: siteUrl(),
  });
  return { context, page: await context.newPage() };
}

/** The reset link the fake e-mail API received for `email`, once it has gone out. */
async function resetLinkFor(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      link = await emailedLink(email, "redefinir").catch(() => "");
      return link;
    })
    .toContain("/auth?redefinir=");
  return link;
}

test.describe("'Esqueci minha senha'", { tag: "@one-screen" }, () => {
  test("asks for the e-mail, sends a link, and the link's form signs the person in on /admin", async ({
    page,
    request,
  }, testInfo) => {
    const staff = await createStaff(request);
    await page.goto("/auth");
    await page.getByRole("button", { name: "Esqueci minha senha" }).click();
    await expect(page.getByRole("heading", { name: "Esqueci minha senha" })).toBeVisible();
    await page.getByLabel("E-mail").fill(staff.email);
    await page.getByRole("button", { name: "Enviar link" }).click();
    await expect(page.locator("form").getByRole("status")).toHaveText(
      "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
    );
    await screenshot(page, testInfo, "auth-forgot-password");

    await page.goto(await resetLinkFor(staff.email));
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("heading", { name: "Redefinir senha" })).toBeVisible();
    await page.getByLabel("Nova senha", { exact: true }).fill("nova-senha-da-serra");
    await page.getByLabel("Confirmar nova senha", { exact: true }).fill("outra-coisa");
    await page.getByRole("button", { name: "Redefinir senha" }).click();
    await expect(toast(page, "Erro")).toContainText("As senhas não coincidem");
    const confirmation = page.getByLabel("Confirmar nova senha", { exact: true });
    await expect(confirmation).toHaveAccessibleDescription("As senhas não coincidem");
    await expect(confirmation).toBeFocused();
    await screenshot(page, testInfo, "auth-reset-password-mismatch");
    await confirmation.fill("nova-senha-da-serra");
    await expect(confirmation).not.toHaveAttribute("aria-invalid", "true");
    await screenshot(page, testInfo, "auth-reset-password");
    await page.getByRole("button", { name: "Redefinir senha" }).click();
    await expect(toast(page, "Senha redefinida")).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    await expectSignedInAs(page, staff.email);
  });

  test("a link already used says so and offers to ask for another", async ({ page, request }) => {
    const staff = await createStaff(request);
    await page.goto("/auth");
    await page.getByRole("button", { name: "Esqueci minha senha" }).click();
    await page.getByLabel("E-mail").fill(staff.email);
    await page.getByRole("button", { name: "Enviar link" }).click();
    const link = await resetLinkFor(staff.email);
    await sql("UPDATE password_resets SET used_at = ?1", Date.now());
    await page.goto(link);
    await page.getByLabel("Nova senha", { exact: true }).fill("nova-senha-da-serra");
    await page.getByLabel("Confirmar nova senha", { exact: true }).fill("nova-senha-da-serra");
    await page.getByRole("button", { name: "Redefinir senha" }).click();
    await expect(toast(page, "Link inválido")).toContainText("Esqueci minha senha");
    await expect(page.getByRole("heading", { name: "Esqueci minha senha" })).toBeVisible();
  });
});

/** A signed-in staff member's 'Alterar senha' dialog, filled with the current password and these two. */
async function changePasswordDialog(
  page: Page,
  request: Parameters<typeof createStaff>[0],
  next: string,
  again: string,
) {
  const staff = await createStaff(request);
  await signIn(page, staff);
  await (await headerButton(page, "Alterar senha")).click();
  const dialog = page.getByRole("dialog", { name: "Alterar senha" });
  await dialog.getByLabel("Senha atual", { exact: true }).fill(staff.password);
  await dialog.getByLabel("Nova senha", { exact: true }).fill(next);
  await dialog.getByLabel("Confirmar nova senha", { exact: true }).fill(again);
  return { staff, dialog };
}

test.describe("'Alterar senha'", () => {
  test("changes the password from the panel's header", async ({ page, request }, testInfo) => {
    const { staff, dialog } = await changePasswordDialog(page, request, "senha-trocada-2026", "senha-trocada-2026");
    await screenshot(page, testInfo, "admin-change-password");
    const { requested, release } = await holdRequests(page, /\/api\/auth\/password$/);
    await dialog.getByRole("button", { name: "Alterar senha" }).focus();
    await page.keyboard.press("Enter");
    // On its way, the button says so and is off, and keeps the focus; another Enter sends nothing.
    const busy = dialog.getByRole("button", { name: "Alterando..." });
    await expectOffAndFocused(page, busy);
    await page.keyboard.press("Enter");
    release();
    await expect(toast(page, "Senha alterada")).toBeVisible();
    expect(requested).toHaveLength(1);
    await expect(page.getByRole("button", { name: "Alterar senha" })).toBeFocused();
    await expect(dialog).toBeHidden();
    await expectSignedInAs(page, staff.email);
  });

  test("refused, says why inside the dialog, where it can be read and heard, not under its backdrop", async ({
    page,
    request,
  }, testInfo) => {
    const { dialog } = await changePasswordDialog(page, request, "senha-trocada-2026", "senha-trocada-2027");
    await dialog.getByRole("button", { name: "Alterar senha" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("As senhas não coincidem");

    // Typing again clears it: the next problem is a new alert.
    await dialog.getByLabel("Senha atual", { exact: true }).fill("nao-e-esta");
    await expect(dialog.getByRole("alert")).toHaveText("");
    await dialog.getByLabel("Confirmar nova senha", { exact: true }).fill("senha-trocada-2026");
    await dialog.getByRole("button", { name: "Alterar senha" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("A senha atual não confere.");
    await screenshot(page, testInfo, "admin-change-password-refused");
    await expect(dialog).toBeVisible();

    await dialog.getByRole("button", { name: "Cancelar" }).click();
    await (await headerButton(page, "Alterar senha")).click();
    await expect(dialog.getByRole("alert")).toHaveText("");
  });
});

test.describe("'Equipe'", () => {
  test("on a phone the page on screen shows in the panel's tabs, 'Atividade' at their far end too", async ({
    page,
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name !== "phone", "the four tabs fit a desk's width");
    /** Whether the page's tab lies whole within the strip's visible part. */
    const inView = async (name: string) => {
      const strip = page.getByRole("navigation", { name: "Páginas do painel" });
      const tab = strip.getByRole("link", { name });
      await expect(tab).toHaveAttribute("aria-current", "page");
      const [box, own] = [await strip.boundingBox(), await tab.boundingBox()];
      return !!box && !!own && own.x >= box.x - 1 && own.x + own.width <= box.x + box.width + 1;
    };
    await signIn(page, await createOwner(request), "/admin/atividade");
    await expect(page.getByRole("heading", { name: "Registro de atividade" })).toBeVisible();
    expect(await inView("Atividade")).toBe(true);
    await screenshot(page, testInfo, "tabs-activity");
    await page.getByRole("navigation", { name: "Páginas do painel" }).getByRole("link", { name: "Leads" }).click();
    expect(await inView("Leads")).toBe(true);
  });

  test("an owner opening 'Equipe' first finds new colleagues' notices as a switch, and it keeps what they chose", async ({
    page,
    request,
  }) => {
    await signIn(page, await createOwner(request), "/admin/equipe");
    const control = page.getByRole("switch", { name: "Novos colegas recebem o aviso de novos leads" });
    await expect(control).toHaveAttribute("aria-checked", "true");
    // Drawn as a switch (its track), not as a bare button: its styles load with it.
    await expect(control.locator(".notice-default__track")).toBeVisible();
    expect(await control.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgba(0, 0, 0, 0)");
    await control.click();
    await expect(toast(page, "Novos colegas não recebem mais o aviso de novos leads")).toBeVisible();
    await page.reload();
    await expect(control).toHaveAttribute("aria-checked", "false");
    // Back as the other tests of this site expect it.
    await control.click();
    await expect(control).toHaveAttribute("aria-checked", "true");
  });

  test("an owner switches an account off, and that person's open panel goes to /auth within 30 s", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const owner = await createOwner(request);
    const leaver = await createStaff(request);
    // Another address of theirs, made while they were here.
    const alias = await createStaff(request, "vinho-tinto-2026", leaver.email.replace("@", "+celular@"));
    // Someone who signed up and has not opened the link yet: the widest row ('Aguardando confirmação').
    const waiting = staffEmail("cadastro");
    await signUp(request, waiting);

    // The person who is leaving has the panel open in another browser.
    const { context: theirs, page: theirPage } = await anotherBrowser(browser, testInfo);
    await theirPage.clock.install();
    await signIn(theirPage, leaver);

    await signIn(page, owner);
    await page.getByRole("link", { name: "Equipe" }).click();
    await expect(page).toHaveURL(/\/admin\/equipe$/);
    // The tab names the page reached without a reload, not the panel it came from.
    await expect(page).toHaveTitle(/^Equipe – /);
    const row = page.getByRole("row").filter({ hasText: leaver.email });
    await expect(row.getByText("Equipe", { exact: true })).toBeVisible();
    await expect(row.getByText("Confirmada")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: waiting }).getByText("Aguardando confirmação")).toBeVisible();
    await screenshot(page, testInfo, "admin-team");
    if (testInfo.project.name === "desktop") {
      // Every account's actions show whole: the table fits its panel, nothing hides to the right.
      const table = page.locator(".table-wrap");
      const overflow = await table.evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }

    await row.getByRole("button", { name: "Desativar" }).click();
    const dialog = page.getByRole("dialog", { name: "Desativar conta?" });
    await expect(dialog).toContainText(leaver.email);
    await expect(dialog).toContainText(`A outra conta do mesmo e-mail também é desativada: ${alias.email}.`);
    await screenshot(page, testInfo, "admin-disable-confirm");
    await dialog.getByRole("button", { name: "Desativar" }).click();
    await expect(toast(page, "Conta desativada")).toBeVisible();
    await expect(row.getByText("Desativada")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: alias.email }).getByText("Desativada")).toBeVisible();
    // 'Desativar' is gone with what it did: the account's 'Reativar' holds the focus, not the page.
    await expect(row.getByRole("button", { name: "Reativar" })).toBeFocused();

    // Their panel's 30-second check finds the session gone.
    await theirPage.clock.runFor(31_000);
    await expect(theirPage).toHaveURL(/\/auth$/);
    await submitLogin(theirPage, leaver.email, leaver.password);
    await expect(toast(theirPage, "Erro no Login")).toContainText(
      "Conta desativada. Fale com o responsável pelo painel.",
    );
    await theirs.close();
  });

  test("an owner sees which owner's mailbox the delivery alerts no longer reach", async ({
    page,
    request,
  }, testInfo) => {
    const owner = await createOwner(request);
    const unreachable = await createOwner(request);
    // Two days ago, an incident (over since) whose alert the e-mail API refused to that
    // address for a whole day.
    const at = Date.now() - 2 * 24 * 3_600_000;
    const [incident] = await sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting, resolved_at) VALUES (?1, 'backlog', 1, ?2) RETURNING id",
      at,
      at + 3_600_000,
    );
    await sql(
      "INSERT INTO alert_mails (incident_id, kind, email, subject, text, html, created_at, status, attempts, last_error) \
       VALUES (?1, 'alert', ?2, 'Leads não estão chegando ao Jetimob', 't', 'h', ?3, 'failed', 9, 'HTTP 422: mailbox full')",
      incident?.id,
      unreachable.email,
      at,
    );
    await signIn(page, owner);
    await page.getByRole("link", { name: "Equipe" }).click();
    await expect(page.getByRole("row").filter({ hasText: unreachable.email })).toContainText(
      /Alerta de \d\d\/\d\d\/\d{4} \d\d:\d\d não entregue: o serviço de e-mail recusou este endereço\./,
    );
    await expect(page.getByRole("row").filter({ hasText: owner.email })).not.toContainText("não entregue");
    await screenshot(page, testInfo, "admin-team-alert-missed");
  });

  test("an owner makes someone else an owner; staff who are not owners see no 'Equipe'", async ({
    page,
    browser,
    request,
  }, testInfo) => {
    const owner = await createOwner(request);
    const colleague = await createStaff(request);

    const { context: theirs, page: theirPage } = await anotherBrowser(browser, testInfo);
    await signIn(theirPage, colleague);
    await expect(theirPage.getByRole("link", { name: "Equipe" })).toHaveCount(0);
    await theirPage.goto("/admin/equipe");
    await expect(theirPage.getByText("Apenas os responsáveis pelo painel veem esta página.")).toBeVisible();

    await signIn(page, owner);
    await page.goto("/admin/equipe");
    const row = page.getByRole("row").filter({ hasText: colleague.email });
    await row.getByRole("button", { name: "Tornar responsável" }).click();
    // Handing someone the team is asked first.
    const ask = page.getByRole("dialog", { name: "Tornar responsável?" });
    await expect(ask).toContainText(colleague.email);
    await screenshot(page, testInfo, "team-make-owner");
    await ask.getByRole("button", { name: "Tornar responsável" }).click();
    await expect(toast(page, "Agora é responsável pelo painel")).toBeVisible();
    await expect(row.getByText("Responsável", { exact: true })).toBeVisible();

    await theirPage.reload();
    await expect(theirPage.getByRole("link", { name: "Equipe" })).toBeVisible();
    await theirs.close();
  });

  test("an owner ending their own sessions is asked first, then signed out here too", { tag: "@one-screen" }, async ({
    page,
    request,
  }) => {
    const owner = await createOwner(request);
    await signIn(page, owner);
    await page.goto("/admin/equipe");
    const mine = page.getByRole("row").filter({ hasText: owner.email });
    await mine.getByRole("button", { name: "Encerrar sessões" }).click();
    const ask = page.getByRole("dialog", { name: "Sair de todos os dispositivos?" });
    await expect(ask).toContainText("inclusive esta");
    await ask.getByRole("button", { name: "Cancelar" }).click();
    await expect(ask).toBeHidden();
    await expect(page).toHaveURL(/\/admin\/equipe$/);

    await mine.getByRole("button", { name: "Encerrar sessões" }).click();
    await ask.getByRole("button", { name: "Encerrar sessões" }).click();
    await expect(page).toHaveURL(/\/auth/);
  });
});

test("moving between the panel's pages puts the focus on the new page's heading, but not when a page is opened", async ({
  page,
  request,
}) => {
  await signIn(page, await createOwner(request));
  const heading = (name: string) => page.getByRole("heading", { level: 1, name });
  await page.goto("/admin");
  await expect(heading("Painel Administrativo")).toBeVisible();
  await expect(heading("Painel Administrativo")).not.toBeFocused();
  const nav = page.getByRole("navigation", { name: "Páginas do painel" });
  for (const [link, title] of [
    ["Equipe", "Equipe"],
    ["Atividade", "Atividade"],
    ["Leads", "Painel Administrativo"],
  ] as const) {
    await nav.getByRole("link", { name: link }).focus();
    await page.keyboard.press("Enter");
    await expect(heading(title)).toBeFocused();
  }
  await page.goBack();
  await expect(heading("Atividade")).toBeFocused();
});

test.describe("'Atividade'", () => {
  test("shows who did what and when, newest first", async ({ page, request }, testInfo) => {
    const owner = await createOwner(request);
    const someone = staffEmail("tentativa");
    await request.post("/api/auth/login", {
      data: { email: someone, password: "senha-errada" },
      headers: { Origin: siteUrl(), "CF-Connecting-IP": uniqueIp() },
    });
    await signIn(page, owner);
    await page.getByRole("navigation", { name: "Páginas do painel" }).getByRole("link", { name: "Atividade" }).click();
    await expect(page).toHaveURL(/\/admin\/atividade$/);
    await expect(page).toHaveTitle(/^Atividade – /);
    // Other tests sign in meanwhile (parallel workers): the owner's entry is read by its e-mail,
    // and it comes before the failed attempt made just before it.
    const rows = page.getByRole("row");
    const signedIn = rows.filter({ hasText: owner.email }).filter({ hasText: "Entrou no painel" });
    const failed = rows.filter({ hasText: someone });
    await expect(signedIn).toHaveCount(1);
    await expect(failed).toHaveCount(1);
    const texts = await rows.allTextContents();
    const at = (text: string, also: string) => texts.findIndex((t) => t.includes(text) && t.includes(also));
    expect(at(owner.email, "Entrou no painel")).toBeLessThan(at(someone, ""));
    await screenshot(page, testInfo, "admin-activity");
  });

  test("a double tap on 'Mais antigas' turns one page, and 'Mais recentes' comes back to the first", async ({
    page,
    request,
  }) => {
    const owner = await createOwner(request);
    // Enough entries for three pages whatever the other tests wrote.
    await sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
       INSERT INTO audit_log (at, staff_email, action) SELECT ?1 - i, ?2, 'export' FROM n`,
      Date.now() - 60_000,
      staffEmail("arquivo"),
    );
    await signIn(page, owner);
    await page.goto("/admin/atividade");
    const pager = page.getByRole("navigation", { name: "Páginas da atividade" });
    await expect(pager).toContainText("Página 1");
    const firstRow = await page.getByRole("row").nth(1).textContent();

    // The second tap comes before the next page: it is held on its way until both landed.
    const held = await holdRequests(page, /\/api\/audit/);
    await pager.getByRole("button", { name: "Mais antigas" }).dblclick();
    held.release();
    await page.unroute(/\/api\/audit/);
    await expect(pager.getByText(/^Página \d+$/)).toHaveText("Página 2");
    await expect(page.getByRole("row").nth(1)).not.toHaveText(String(firstRow));
    await pager.getByRole("button", { name: "Mais recentes" }).click();
    await expect(pager.getByText(/^Página \d+$/)).toHaveText("Página 1");
    await expect(page.getByRole("row").nth(1)).toHaveText(String(firstRow));

    // A page that fails to load leaves the one on screen, its number and its buttons working.
    await page.route(/\/api\/audit/, (route) => route.abort("internetdisconnected"));
    await pager.getByRole("button", { name: "Mais antigas" }).click();
    const failed = page.locator(".toast").filter({ hasText: "Erro ao carregar a atividade" });
    await expect(failed).toBeVisible();
    await expect(pager.getByText(/^Página \d+$/)).toHaveText("Página 1");
    await page.unroute(/\/api\/audit/);
    // As a person would, the notice is closed before the next tap (on a short page it sits over the pager).
    await failed.getByRole("button", { name: "Fechar notificação" }).click();
    await expect(failed).toHaveCount(0);
    await pager.getByRole("button", { name: "Mais antigas" }).click();
    await expect(pager.getByText(/^Página \d+$/)).toHaveText("Página 2");
    await expect(page.getByRole("row").nth(1)).not.toHaveText(String(firstRow));
  });
});
