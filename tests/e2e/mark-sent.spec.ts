import { expect, type Page, test } from "./fixtures";
import { createStaff, type Staff, signIn } from "./staff";
import { confirmMarkSentByKeyboard, listAnswer, markSent, markSentDialog, screenshot, seedLeads, sql } from "./support";

// 'Marcar Enviado' stops the automatic delivery to Jetimob: it asks first,
// and its toast offers 'Desfazer' for a moment.

/** Signs `staff` in and shows only the lead named `name`, pending; answers its row and id. */
async function openPendingLead(page: Page, staff: Staff, name: string) {
  const [lead] = await seedLeads([{ name, created_at: Date.now() }]);
  if (!lead) throw new Error("no lead seeded");
  await signIn(page, staff);
  const answered = listAnswer(page, { q: name });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(name);
  await answered;
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.locator(".badge")).toHaveText("Pendente");
  return { row, id: lead.id };
}

function delivery(id: string) {
  return sql("SELECT delivery_status, sent_by FROM leads WHERE id = ?1", id);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("'Marcar Enviado' asks first, and the toast's 'Desfazer' puts the lead back", async ({
  page,
  request,
}, testInfo) => {
  const staff = await createStaff(request);
  const name = `Carmem Desfaz ${testInfo.project.name}`;
  const { row, id } = await openPendingLead(page, staff, name);

  await row.getByRole("button", { name: "Marcar Enviado" }).click();
  const dialog = markSentDialog(page);
  await expect(dialog).toContainText(name);
  await expect(dialog).toHaveAccessibleDescription(
    /deixará de ser enviado automaticamente ao Jetimob\. Marque só se você já cadastrou este lead no Jetimob à mão\./,
  );
  await expect(dialog.getByRole("button", { name: "Cancelar" })).toBeFocused();
  await screenshot(page, testInfo, "mark-sent-dialog");

  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.locator(".badge")).toHaveText("Pendente");
  expect(await delivery(id)).toEqual([{ delivery_status: "pending", sent_by: null }]);
  expect(await sql("SELECT action FROM audit_log WHERE lead_id = ?1", id)).toEqual([]);

  await markSent(page, row);
  const toast = page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" });
  await expect(toast.getByRole("button", { name: "Desfazer" })).toBeVisible();
  await expect(row.locator(".badge")).toHaveText("Enviado");
  // The badge names who marked the lead, and when.
  await expect(row).toContainText(
    new RegExp(`marcado por ${escaped(staff.email)} em\\s\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}`),
  );
  await screenshot(page, testInfo, "mark-sent-toast");

  await toast.getByRole("button", { name: "Desfazer" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Marcação desfeita" })).toBeVisible();
  await expect(toast).toHaveCount(0);
  await expect(row.locator(".badge")).toHaveText("Pendente");
  await expect(row.getByRole("button", { name: "Marcar Enviado" })).toBeVisible();
  await expect(row).not.toContainText("marcado por");
  expect(await delivery(id)).toEqual([{ delivery_status: "pending", sent_by: null }]);
  expect(await sql("SELECT action FROM audit_log WHERE lead_id = ?1 ORDER BY id", id)).toEqual([
    { action: "mark_sent" },
    { action: "unmark_sent" },
  ]);
});

test("from the keyboard: Escape keeps the lead, F8 reaches 'Desfazer', and the focus comes back to the row", async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "a keyboard");
  const name = `Davi Teclado ${testInfo.project.name}`;
  const { row, id } = await openPendingLead(page, await createStaff(request), name);
  const markButton = row.getByRole("button", { name: "Marcar Enviado" });
  const dialog = markSentDialog(page);

  await markButton.focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Cancelar" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(markButton).toBeFocused();
  expect(await delivery(id)).toEqual([{ delivery_status: "pending", sent_by: null }]);

  await page.keyboard.press("Enter");
  await confirmMarkSentByKeyboard(page);
  await expect(row.locator(".badge")).toHaveText("Enviado");
  // 'Marcar Enviado' is gone: the focus is on the row's next action.
  const remove = row.getByRole("button", { name: "Excluir lead" });
  await expect(remove).toBeFocused();

  await page.keyboard.press("F8");
  await expect(page.getByRole("button", { name: "Desfazer" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row.locator(".badge")).toHaveText("Pendente");
  await expect(markButton).toBeVisible();
  await expect(remove).toBeFocused();
  expect(await delivery(id)).toEqual([{ delivery_status: "pending", sent_by: null }]);
});
