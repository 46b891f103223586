import { readFile } from "node:fs/promises";
import type { Browser, TestInfo } from "@playwright/test";
import { uniqueIp } from "../support/leads";
import { staffEmail } from "../support/staff";
import { expect, type Page, test } from "./fixtures";
import { createColleague, createOwner, createStaff, headerButton, type Staff, signIn } from "./staff";
import { listAnswer, markSent, markSentDialog, panelLoaded, screenshot, seedLeads, siteUrl, sql } from "./support";

// Rights that mean something, as staff see them: no button a person may not
// use, a right taken away refused in words and its button gone, the list's
// hourly limit said plainly, and 'Atividade' naming leads and filtering.

function toast(page: Page, title: string) {
  return page.locator(".toast").filter({ hasText: title });
}

/** A second person's browser: its own cookies, the same kind of screen. */
async function anotherBrowser(browser: Browser, testInfo: TestInfo, extraHTTPHeaders?: Record<string, string>) {
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
    extraHTTPHeaders,
  });
  return { context, page: await context.newPage() };
}

/** A colleague whose rights an owner took (straight in D1: 'Equipe''s switches have their own tests). */
async function colleagueWithout(request: Parameters<typeof createColleague>[0], ...rights: string[]): Promise<Staff> {
  const colleague = await createColleague(request);
  for (const right of rights) {
    await sql(`UPDATE staff_users SET can_${right} = 0 WHERE email = ?1`, colleague.email);
  }
  return colleague;
}

/** The list's row of the lead named `name` (a card on a phone). */
function rowOf(page: Page, name: string) {
  return page.locator(".leads-table tbody tr").filter({ hasText: name });
}

async function search(page: Page, term: string) {
  const answered = listAnswer(page, { q: term });
  await page.getByRole("searchbox").fill(term);
  await answered;
  await expect(page.locator(".leads-table tbody tr")).toHaveCount(1);
  await expect(rowOf(page, term)).toBeVisible();
}

test("a colleague without 'Exportar CSV', 'Excluir' and 'Marcar Enviado' sees none of those buttons, on the list or a lead's page", async ({
  page,
  request,
}, testInfo) => {
  const name = `Rita Sem Botão ${testInfo.project.name}`;
  await seedLeads([{ name }]);
  const colleague = await colleagueWithout(request, "export", "delete", "mark_sent");
  await signIn(page, colleague);
  await panelLoaded(page);
  await search(page, name);
  const row = rowOf(page, name);
  await expect(row.getByRole("link", { name })).toBeVisible();
  await expect(row.getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Excluir lead" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Exportar CSV" })).toHaveCount(0);
  await screenshot(page, testInfo, "rights-list-without-buttons");

  await row.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  const card = page.locator(".lead-card");
  await expect(card.getByText("Pendente", { exact: true })).toBeVisible();
  await expect(card.getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Excluir lead" })).toHaveCount(0);
  await screenshot(page, testInfo, "rights-lead-without-buttons");
});

test("an owner takes 'Marcar Enviado' away: the colleague's click is refused in words, and the button goes @one-screen", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const name = `Otávio Marcação ${testInfo.project.name}`;
  await seedLeads([{ name }]);
  const owner = await createOwner(request);
  const colleague = await createColleague(request);
  const { context, page: theirs } = await anotherBrowser(browser, testInfo);
  await signIn(theirs, colleague);
  await panelLoaded(theirs);
  await search(theirs, name);
  await expect(rowOf(theirs, name).getByRole("button", { name: "Marcar Enviado" })).toBeVisible();

  await signIn(page, owner);
  await page.goto("/admin/equipe");
  const marks = page.getByRole("switch", { name: `Permitir que ${colleague.email} marque leads como enviados` });
  await expect(marks).toHaveAttribute("aria-checked", "true");
  await marks.click();
  await expect(toast(page, "Não pode mais marcar leads como enviados")).toBeVisible();
  await expect(marks).toHaveAttribute("aria-checked", "false");
  await screenshot(page, testInfo, "rights-team-mark-sent-switch");

  // The colleague's page still shows the button it drew before: the worker refuses it, in words.
  const refused = theirs.waitForResponse((r) => new URL(r.url()).pathname.endsWith("/mark-sent"));
  await markSent(theirs, rowOf(theirs, name));
  expect((await refused).status()).toBe(403);
  await expect(toast(theirs, "Erro ao atualizar status")).toContainText(
    "Um responsável pelo painel tirou de você a permissão de marcar leads como enviados.",
  );
  await expect(markSentDialog(theirs)).toHaveCount(0);
  await expect(rowOf(theirs, name).getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
  await expect(rowOf(theirs, name).getByText("Pendente", { exact: true })).toBeVisible();
  await context.close();

  // 'Atividade' says which right, and whose.
  await page.getByRole("link", { name: "Atividade" }).click();
  const entry = page.getByRole("row").filter({ hasText: "Tirou a permissão de marcar leads como enviados" });
  await expect(entry.first()).toContainText(colleague.email);
});

test(
  "past the hour's leads, a colleague without 'Exportar CSV' is told so, and what was seen stays open",
  { tag: "@one-screen" },
  async ({ page, request }, testInfo) => {
    const colleague = await colleagueWithout(request, "export");
    await signIn(page, colleague);
    await panelLoaded(page);
    // This hour this person was shown the most the list shows without export.
    const [account] = await sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", colleague.email);
    const hour = Date.now() - (Date.now() % 3_600_000);
    await sql(
      "UPDATE rate_limits SET count = 500 WHERE key = ?1 AND window_start = ?2",
      `leads-read:${account?.id}`,
      hour,
    );

    await page.getByRole("button", { name: /^Enviados/ }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Limite de leads por hora" });
    await expect(alert).toContainText(
      "Sem a permissão de exportar, a lista mostra a cada pessoa até 500 leads por hora, e você chegou a esse limite.",
    );
    await expect(alert).toContainText("As páginas da lista que você já abriu nesta hora continuam disponíveis.");
    await screenshot(page, testInfo, "rights-hourly-limit");

    // The view already shown this hour opens again.
    await page.getByRole("button", { name: /^Todos/ }).click();
    await expect(alert).toHaveCount(0);
    await expect(page.locator(".leads-table tbody tr").first()).toBeVisible();
  },
);

test("'Atividade' names each lead with a link to it (or as gone), shows an export's filter and rows, and filters by person, action and period", async ({
  page,
  request,
}, testInfo) => {
  const kept = `Lia Atividade ${testInfo.project.name}`;
  const gone = `Téo Excluído ${testInfo.project.name}`;
  await seedLeads([{ name: kept }, { name: gone }]);
  const owner = await createOwner(request);
  await signIn(page, owner);
  await panelLoaded(page);

  await search(page, kept);
  await markSent(page, rowOf(page, kept));
  await expect(toast(page, "Status Jetimob atualizado")).toBeVisible();
  await search(page, gone);
  await rowOf(page, gone).getByRole("button", { name: "Excluir lead" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Excluir" }).click();
  await expect(toast(page, "Lead removido com sucesso")).toBeVisible();

  // An export of the pending leads.
  await page.goto("/admin?status=pendentes");
  await panelLoaded(page);
  await expect(page.locator(".leads-table tbody tr").first()).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const file = await readFile(await (await download).path());
  const exported = file.toString("utf8").trimEnd().split("\r\n").length - 1;

  await page.getByRole("link", { name: "Atividade" }).click();
  const exportRow = page.getByRole("row").filter({ hasText: "Exportou leads (CSV)" }).first();
  await expect(exportRow).toContainText("Filtro: Pendentes");
  await expect(exportRow).toContainText(`${exported.toLocaleString("pt-BR")} leads exportados`);
  const marked = page.getByRole("row").filter({ hasText: "Marcou lead como enviado" }).filter({ hasText: kept });
  await expect(marked.getByRole("link", { name: kept })).toBeVisible();
  const deleted = page.getByRole("row").filter({ hasText: "Excluiu lead" }).first();
  await expect(deleted).toContainText("lead excluído");
  await screenshot(page, testInfo, "rights-activity");

  // By person, then by action, then today: each in the address, each served by the worker.
  await page.getByLabel("Pessoa", { exact: true }).selectOption({ label: owner.email });
  await expect(page).toHaveURL(/\/admin\/atividade\?pessoa=/);
  const who = page.locator(".activity-table tbody tr .activity-table__who");
  await expect(who.first()).toHaveText(owner.email);
  // The unfiltered rows stay until the filtered answer arrives, so this waits for it.
  await expect.poll(async () => [...new Set(await who.allTextContents())]).toEqual([owner.email]);
  await page.getByLabel("Ação", { exact: true }).selectOption({ label: "Marcou lead como enviado" });
  await expect(page).toHaveURL(/acao=mark_sent/);
  await expect(page.locator(".activity-table tbody tr")).toHaveCount(1);
  await page.getByLabel("Período", { exact: true }).selectOption({ label: "Hoje" });
  await expect(page).toHaveURL(/de=\d{4}-\d{2}-\d{2}&ate=/);
  await expect(page.locator(".activity-table tbody tr")).toHaveCount(1);
  await screenshot(page, testInfo, "rights-activity-filtered");
  await page.getByRole("link", { name: kept }).click();
  await expect(page.getByRole("heading", { name: kept, level: 2 })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel("Ação", { exact: true })).toHaveValue("mark_sent");
  await page.getByRole("button", { name: "Limpar filtros" }).click();
  await expect(page).toHaveURL(/\/admin\/atividade$/);
});

test(
  "'Esqueci minha senha' from a browser that signed in to the account is not refused for its address",
  { tag: "@one-screen" },
  async ({ browser, request }, testInfo) => {
    const person = await createStaff(request);
    // An office: every browser in it reaches the site from one address.
    const office = { "CF-Connecting-IP": uniqueIp() };
    const { context: hers, page } = await anotherBrowser(browser, testInfo, office);
    await signIn(page, person);
    await (await headerButton(page, "Sair")).click();
    await expect(page).toHaveURL(/\/auth/);
    // Five resets were asked from the office this hour already.
    const hour = Date.now() - (Date.now() % 3_600_000);
    await sql(
      "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 5)",
      `reset-ip:${office["CF-Connecting-IP"]}`,
      hour,
    );
    const ask = async (on: Page, email: string) => {
      await on.goto("/auth");
      await on.getByRole("button", { name: "Esqueci minha senha" }).click();
      await on.getByLabel("E-mail").fill(email);
      await on.getByRole("button", { name: "Enviar link" }).click();
    };
    await ask(page, person.email);
    await expect(page.locator("form").getByRole("status")).toHaveText(
      "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
    );
    await screenshot(page, testInfo, "rights-reset-known-browser");
    await hers.close();

    // A browser of the office that never signed in to it is counted against the address.
    const { context, page: stranger } = await anotherBrowser(browser, testInfo, office);
    await ask(stranger, staffEmail());
    await expect(toast(stranger, "Muitos pedidos de redefinição em pouco tempo")).toBeVisible();
    await context.close();
  },
);

test("'Desativar' on a stranger's alias of a colleague's mailbox switches off that row only", async ({
  page,
  request,
}, testInfo) => {
  const owner = await createOwner(request);
  const colleague = await createColleague(request);
  const alias = colleague.email.replace("@", "+x@");
  await createStaff(request, "outra-senha-2026", alias);
  await signIn(page, owner);
  await page.goto("/admin/equipe");
  const aliasRow = page.getByRole("row").filter({ hasText: alias });
  await aliasRow.getByRole("button", { name: "Desativar" }).click();
  const dialog = page.getByRole("dialog", { name: "Desativar conta?" });
  await expect(dialog).toContainText(alias);
  await expect(dialog).not.toContainText("do mesmo e-mail também");
  await screenshot(page, testInfo, "rights-disable-alias");
  await dialog.getByRole("button", { name: "Desativar" }).click();
  await expect(aliasRow.getByText("Desativada")).toBeVisible();
  const colleagueRow = page.getByRole("row").filter({ hasText: colleague.email }).filter({ hasNotText: alias });
  await expect(colleagueRow.getByText("Confirmada")).toBeVisible();
});
