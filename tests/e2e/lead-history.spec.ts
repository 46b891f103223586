import { LEAD_PATH, uniqueIp } from "../support/leads";
import { expect, type Page, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import {
  asNewVisitor,
  confirmMarkSentByKeyboard,
  fillLeadForm,
  LEAD_SUBMIT,
  listAnswer,
  markSent,
  markSentDialog,
  openLanding,
  type Person,
  panelLoaded,
  screenshot,
  seedLeads,
  siteUrl,
  sql,
  uniquePerson,
} from "./support";

const display = (digits: string) => `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;

async function sendLead(page: Page, person: Person) {
  await openLanding(page);
  await fillLeadForm(page, person);
  await page.getByRole("button", { name: LEAD_SUBMIT }).click();
  await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
}

test("a visitor corrects a number on the landing; the panel shows the new one and the lead's story", async ({
  page,
  request,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  const typo = {
    ...person,
    whatsappDigits: `${person.whatsappDigits.slice(0, -1)}${person.whatsappDigits.endsWith("1") ? "2" : "1"}`,
  };
  await asNewVisitor(page);
  await sendLead(page, typo);
  // The visitor notices the typo and sends the form again with the right number.
  await sendLead(page, person);

  await signIn(page, await createStaff(request));
  const nameSearch = listAnswer(page, { q: person.name });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(person.name);
  await nameSearch;
  const row = page.getByRole("row").filter({ hasText: person.name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(display(person.whatsappDigits));
  await expect(row.locator('a[href^="https://wa.me/"]').first()).toHaveAttribute(
    "href",
    new RegExp(`^https://wa\\.me/55${person.whatsappDigits}\\?text=`),
  );
  await expect(row).toContainText("2 cadastros");
  await expect(row).not.toContainText(display(typo.whatsappDigits));

  // The earlier, wrong number still finds the lead: the list the panel asks
  // for with it holds the lead, and shows it.
  const typoSearch = listAnswer(page, { q: display(typo.whatsappDigits) });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(display(typo.whatsappDigits));
  const found = (await (await typoSearch).json()) as { leads: { name: string }[] };
  expect(found.leads.map((l) => l.name)).toEqual([person.name]);
  await expect(page.getByRole("row").filter({ hasText: person.name })).toHaveCount(1);

  await page.getByRole("link", { name: person.name }).click();
  await expect(page).toHaveURL(/\/admin\/leads\/[\w-]+$/);
  await expect(page.getByRole("heading", { name: person.name })).toBeVisible();
  await expect(page.getByRole("main").locator('a[href^="https://wa.me/"]').first()).toHaveAttribute(
    "href",
    new RegExp(`^https://wa\\.me/55${person.whatsappDigits}\\?text=`),
  );
  const submissions = page.getByRole("region", { name: "Cadastros" }).getByRole("listitem");
  await expect(submissions).toHaveCount(2);
  await expect(submissions.nth(0)).toContainText(display(typo.whatsappDigits));
  await expect(submissions.nth(1)).toContainText(display(person.whatsappDigits));
  await expect(submissions.nth(1)).toContainText("Dados corrigidos pelo visitante");
  await screenshot(page, testInfo, "admin-lead-story");

  // The address works on its own (a reload, a shared link).
  await page.reload();
  await expect(page.getByRole("heading", { name: person.name })).toBeVisible();
  const [stored] = await sql<{ whatsapp: string }>("SELECT whatsapp FROM leads WHERE email = ?1", person.email);
  expect(stored?.whatsapp).toBe(`+55${person.whatsappDigits}`);

  // Back to the list as it was left (the search for the wrong number), also after that reload.
  await page.getByRole("link", { name: "← Voltar à lista de leads" }).click();
  await expect(page).toHaveURL(/\/admin\?q=/);
  expect(new URL(page.url()).searchParams.get("q")).toBe(display(typo.whatsappDigits));
  await expect(page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha")).toHaveValue(
    display(typo.whatsappDigits),
  );
  await expect(page.getByRole("row").filter({ hasText: person.name })).toHaveCount(1);
});

test("Marcar Enviado on a lead its visitor corrected since the panel showed it: the correction waits for Jetimob", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  const corrected = `${person.whatsappDigits.slice(0, -1)}${person.whatsappDigits.endsWith("1") ? "2" : "1"}`;
  const headers = { "CF-Connecting-IP": uniqueIp() };
  const submit = (digits: string) =>
    request.post(`${baseURL}${LEAD_PATH}`, {
      data: { name: person.name, email: person.email, whatsapp: display(digits) },
      headers,
    });
  expect((await submit(person.whatsappDigits)).status()).toBe(200);

  await signIn(page, await createStaff(request));
  // The panel's own 30-second refresh must not show the correction before the click.
  await page.clock.install();
  await page.reload();
  await panelLoaded(page);
  const nameSearch = listAnswer(page, { q: person.name });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(person.name);
  await nameSearch;
  const row = page.getByRole("row").filter({ hasText: person.name });
  await expect(row).toContainText(display(person.whatsappDigits));
  await expect(row.locator('a[href^="https://wa.me/"]').first()).toHaveAttribute(
    "href",
    new RegExp(`^https://wa\\.me/55${person.whatsappDigits}\\?text=`),
  );

  // The staff member types the lead into Jetimob by hand; meanwhile its visitor corrects the number.
  expect((await submit(corrected)).status()).toBe(200);
  await markSent(page, row);
  await expect(page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" })).toBeVisible();
  await expect(row).toContainText(display(corrected));
  await expect(row.locator(".badge")).toHaveText("Enviado");
  await expect(row).toContainText("Correção do visitante a enviar");
  await screenshot(page, testInfo, "admin-correction-to-enter");
  const [stored] = await sql<{ sent_whatsapp: string; update_status: string }>(
    "SELECT sent_whatsapp, update_status FROM leads WHERE email = ?1",
    person.email,
  );
  expect(stored).toEqual({ sent_whatsapp: `+55${person.whatsappDigits}`, update_status: "pending" });

  // Jetimob is not configured here: the staff enter the correction too, and say so.
  await row.getByRole("button", { name: "Marcar Enviado" }).click();
  // The dialog says it is the correction that stops going to Jetimob.
  await expect(markSentDialog(page)).toContainText("A correção do lead de");
  await markSentDialog(page).getByRole("button", { name: "Marcar como enviado" }).click();
  await expect(row).not.toContainText("Correção do visitante a enviar");
  await expect(row.getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
});

test("on a lead's own page, staff mark it sent, and delete it and are back on the list", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  const sent = await request.post(`${baseURL}${LEAD_PATH}`, {
    data: { name: person.name, email: person.email, whatsapp: display(person.whatsappDigits) },
    headers: { "CF-Connecting-IP": uniqueIp() },
  });
  expect(sent.status()).toBe(200);
  const [lead] = await sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", person.email);
  const staff = await createStaff(request);
  await signIn(page, staff);
  await page.goto(`${siteUrl()}/admin/leads/${lead?.id}`);

  const card = page.getByRole("region", { name: person.name });
  await expect(card.locator(".badge")).toHaveText("Pendente");
  await screenshot(page, testInfo, "admin-lead-actions");
  await card.getByRole("button", { name: "Marcar Enviado" }).focus();
  await page.keyboard.press("Enter");
  await confirmMarkSentByKeyboard(page);
  await expect(page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" })).toBeVisible();
  await expect(card.locator(".badge")).toHaveText("Enviado");
  await expect(card.getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
  // The button is gone: the focus is on the status that says the lead is sent, not lost on the page.
  await expect(page.locator(":focus")).toContainText("Enviado");
  await expect(page.locator(":focus")).toContainText(`marcado por ${staff.email} em`);
  // The page tells the story it is part of, without a reload.
  const actions = page.getByRole("region", { name: "Ações da equipe" }).getByRole("listitem");
  await expect(actions).toHaveCount(1);
  await expect(actions.first()).toContainText("Marcou como enviado ao Jetimob");
  await expect(actions.first()).toContainText(staff.email);

  await card.getByRole("button", { name: "Excluir lead" }).click();
  const dialog = page.getByRole("dialog", { name: "Excluir lead?" });
  await expect(dialog).toContainText(person.name);
  // Marked sent: the dialog says its contact stays in Jetimob.
  await expect(dialog).toHaveAccessibleDescription(/O contato já enviado ao Jetimob continua lá/);
  await dialog.getByRole("button", { name: "Excluir" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Lead removido com sucesso" })).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  // Back on the list, the keyboard and the screen reader start at its heading.
  await expect(page.getByRole("heading", { level: 1, name: "Painel Administrativo" })).toBeFocused();
  await panelLoaded(page);
  await expect(page.getByRole("row").filter({ hasText: person.name })).toHaveCount(0);
  expect(await sql("SELECT id FROM leads WHERE email = ?1", person.email)).toEqual([]);
});

test("a lead's row opens with the keyboard, and a possible duplicate is marked and filtered", async ({
  page,
  request,
}, testInfo) => {
  const ana = uniquePerson(testInfo);
  const bia = uniquePerson(testInfo);
  await asNewVisitor(page);
  await sendLead(page, ana);
  await sendLead(page, bia);
  // Ana's e-mail with Bia's number: nothing is merged, both are flagged.
  await sendLead(page, { ...ana, whatsappDigits: bia.whatsappDigits });

  await signIn(page, await createStaff(request));
  const filtered = listAnswer(page, { status: "duplicados" });
  await page.getByRole("button", { name: /^Possível duplicado/ }).click();
  await expect(page).toHaveURL(/status=duplicados/);
  await filtered;
  // Only flagged leads: the seeded Ana Vinhedo, who has no twin, is gone.
  await expect(page.getByRole("row").filter({ hasText: "Ana Vinhedo" })).toHaveCount(0);
  const anaRow = page.getByRole("row").filter({ hasText: ana.name });
  await expect(anaRow.getByRole("link", { name: "Possível duplicado" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: bia.name })).toBeVisible();
  await screenshot(page, testInfo, "admin-duplicates");

  await anaRow.getByRole("link", { name: ana.name }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: ana.name })).toBeVisible();
  // The link pressed went with the list: the lead's page takes the focus at its heading.
  await expect(page.getByRole("heading", { level: 1, name: "Lead" })).toBeFocused();
  await expect(page.getByRole("note").filter({ hasText: "Possível duplicado" })).toContainText(bia.name);

  // '← Voltar à lista de leads', and the browser's Back from a lead, start the list at its heading too.
  await page.getByRole("link", { name: "← Voltar à lista de leads" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\?status=duplicados$/);
  const list = page.getByRole("heading", { level: 1, name: "Painel Administrativo" });
  await expect(list).toBeFocused();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Lead" })).toBeFocused();
  await page.goBack();
  await expect(list).toBeFocused();
});

test("a lead sent the form many times shows its first and its newest submissions, and says how many it leaves out", async ({
  page,
  request,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  const [lead] = await seedLeads([{ name: person.name, email: person.email, whatsapp: `+55${person.whatsappDigits}` }]);
  const start = Date.now() - 3 * 60 * 60_000;
  await sql(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 79)
     INSERT INTO lead_submissions (lead_id, submitted_at, name, email, whatsapp, origem, kind, utm_campaign)
     SELECT ?1, ?2 + i * 60000, CASE WHEN i = 0 THEN ?3 ELSE ?3 || ' ' || i END, ?4, ?5, 'site',
            CASE WHEN i = 0 THEN 'new' ELSE 'correction' END, CASE WHEN i = 0 THEN 'lancamento' END FROM n`,
    lead?.id,
    start,
    person.name,
    person.email,
    `+55${person.whatsappDigits}`,
  );
  await signIn(page, await createStaff(request));
  await page.goto(`${siteUrl()}/admin/leads/${lead?.id}`);
  const submissions = page.getByRole("region", { name: "Cadastros" }).getByRole("listitem");
  await expect(submissions).toHaveCount(52);
  // Served the panel's HTML, the page still names itself.
  await expect(page).toHaveTitle(/^Lead – /);
  await expect(submissions.nth(0)).toContainText("lancamento");
  await expect(submissions.nth(1)).toHaveText(
    "29 cadastros entre o primeiro e os mais recentes não são mostrados aqui.",
  );
  await expect(submissions.nth(2)).toContainText(`${person.name} 30`);
  // The first shown after the gap is not compared with the first submission.
  await expect(submissions.nth(2)).not.toContainText("Dados corrigidos pelo visitante");
  await expect(submissions.nth(51)).toContainText(`${person.name} 79`);
  await submissions.nth(1).scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "admin-lead-story-omitted");
});
