import { LEAD_PATH, uniqueIp } from "../support/leads";
import { expect, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import { asNewVisitor, fillLeadForm, LEAD_SUBMIT, openLanding, screenshot, sql, uniquePerson } from "./support";

// A stranger who knows a lead's e-mail sends the form with other details:
// the lead keeps its own, and staff see 'Alteração pendente', compare, and
// accept (or refuse) it.
test("a change sent from another browser waits on the lead's page, and 'Aceitar' applies it", async ({
  page,
  request,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  await asNewVisitor(page);
  await openLanding(page);
  await fillLeadForm(page, person);
  await page.getByRole("button", { name: LEAD_SUBMIT }).click();
  await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();

  // Another browser, with the lead's e-mail and another name: 'Sucesso!' too.
  const stranger = await request.post(LEAD_PATH, {
    headers: { Origin: new URL(page.url()).origin, "CF-Connecting-IP": uniqueIp() },
    data: { name: "Nome Trocado Por Outro", email: person.email, whatsapp: person.whatsappDigits },
  });
  expect(await stranger.json()).toEqual({ success: true });
  const [lead] = await sql<{ id: string; name: string }>("SELECT id, name FROM leads WHERE email = ?1", person.email);
  expect(lead?.name).toBe(person.name);

  // Staff, in this same browser: its proof cookie is the visitor's, nothing of theirs.
  const staffPage = page;
  await signIn(staffPage, await createStaff(request));
  await staffPage.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(person.email);
  const row = staffPage.getByRole("row").filter({ hasText: person.name });
  await expect(row.getByRole("link", { name: "Alteração pendente" })).toBeVisible();
  await row.getByRole("link", { name: "Alteração pendente" }).click();

  const change = staffPage.getByRole("region", { name: "Alteração pendente" });
  await expect(change.getByRole("row", { name: /Nome/ })).toContainText(person.name);
  await expect(change.getByRole("row", { name: /Nome/ })).toContainText("Nome Trocado Por Outro");
  await screenshot(staffPage, testInfo, "pending-change");
  await change.getByRole("button", { name: /^Aceitar/ }).click();
  await expect(staffPage.getByRole("status").filter({ hasText: "Alteração aceita" })).toBeVisible();
  await expect(staffPage.getByRole("heading", { level: 2, name: "Nome Trocado Por Outro" })).toBeVisible();
  await expect(change).toHaveCount(0);
  await expect(staffPage.getByText("Aceitou uma alteração dos dados")).toBeVisible();
});
