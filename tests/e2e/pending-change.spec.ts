import { LEAD_PATH, uniqueIp } from "../support/leads";
import { expect, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import {
  asNewVisitor,
  fillLeadForm,
  LEAD_SUBMIT,
  openLanding,
  screenshot,
  siteUrl,
  sql,
  uniquePerson,
} from "./support";

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

// The proof of one lead buys nothing on another: a browser that sent its own
// lead, then repeats a stranger's exact details (from an export, a notice),
// then changes them, leaves the stranger's lead as it was; the change waits,
// and staff refuse it with the others.
test("a browser proving its own lead cannot rewrite another's by repeating its details; 'Recusar todas' refuses what waits @one-screen", async ({
  page,
  request,
}, testInfo) => {
  const victim = uniquePerson(testInfo);
  const victimPost = await request.post(LEAD_PATH, {
    headers: { Origin: siteUrl(), "CF-Connecting-IP": uniqueIp() },
    data: { name: victim.name, email: victim.email, whatsapp: victim.whatsappDigits },
  });
  expect(await victimPost.json()).toEqual({ success: true });

  // The attacker's browser sends a lead of its own through the form: it holds its proof.
  const attacker = uniquePerson(testInfo);
  await asNewVisitor(page);
  await openLanding(page);
  await fillLeadForm(page, attacker);
  await page.getByRole("button", { name: LEAD_SUBMIT }).click();
  await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();

  // From the same browser (its cookies), the victim's exact details, then new ones.
  const send = (data: Record<string, string>) => page.request.post(LEAD_PATH, { headers: { Origin: siteUrl() }, data });
  const repeat = await send({ name: victim.name, email: victim.email, whatsapp: victim.whatsappDigits });
  expect(await repeat.json()).toEqual({ success: true });
  const change = await send({ name: "Nome Do Atacante", email: victim.email, whatsapp: "48977770001" });
  expect(await change.json()).toEqual({ success: true });
  // And someone else too, from another browser and address (one that keeps no cookie).
  const other = await fetch(siteUrl() + LEAD_PATH, {
    method: "POST",
    headers: { Origin: siteUrl(), "CF-Connecting-IP": uniqueIp(), "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Outro Estranho", email: victim.email, whatsapp: victim.whatsappDigits }),
  });
  expect(await other.json()).toEqual({ success: true });

  const [lead] = await sql<{ id: string; name: string; whatsapp: string }>(
    "SELECT id, name, whatsapp FROM leads WHERE email = ?1",
    victim.email,
  );
  expect(lead).toMatchObject({ name: victim.name, whatsapp: `+55${victim.whatsappDigits}` });

  await signIn(page, await createStaff(request));
  await page.goto(`/admin/leads/${lead?.id}`);
  const waiting = page.getByRole("region", { name: /Alteração pendente/ });
  await expect(waiting.getByRole("listitem")).toHaveCount(2);
  await expect(waiting).toContainText("Nome Do Atacante");
  await expect(waiting).toContainText("Outro Estranho");
  await screenshot(page, testInfo, "pending-changes-two");
  await waiting.getByRole("button", { name: "Recusar todas" }).click();
  await expect(page.getByRole("status").filter({ hasText: "2 alterações recusadas" })).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 2, name: victim.name })).toBeVisible();
  await expect(page.getByText("Alteração recusada pela equipe")).toHaveCount(2);
});
