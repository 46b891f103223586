import { join } from "node:path";
import type { TestInfo } from "@playwright/test";
import { expect, type Page, test } from "./fixtures";
import { createColleague, createOwner, type Staff, signIn } from "./staff";
import { panelLoaded, SCREENSHOT_DIR, screenshot, seedLeads, sql } from "./support";

/** The first screen only, as the person sees it on opening the page. */
async function firstScreen(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-${name}-first-screen.png`) });
}

// Speed to lead (issue 46): a broker works a new lead from the phone in two
// taps. The phone is the 390×844; the desktop keeps its table.
const PHONE = { width: 390, height: 844 };

function onPhone(testInfo: TestInfo): boolean {
  return testInfo.project.name === "phone";
}

async function asBroker(page: Page, testInfo: TestInfo, staff: Staff): Promise<void> {
  if (onPhone(testInfo)) await page.setViewportSize(PHONE);
  await signIn(page, staff);
  await panelLoaded(page);
}

/** A lead that just arrived (the newest of all), named after the test and its project. */
async function newLead(testInfo: TestInfo, surname: string, extra: Parameters<typeof seedLeads>[0][number] = {}) {
  const name = `Lia ${surname} ${testInfo.project.name === "phone" ? "Celular" : "Mesa"}`;
  const [lead] = await seedLeads([{ name, created_at: Date.now() - 1_000, ...extra }]);
  if (!lead) throw new Error("no lead");
  return lead;
}

/** The lead's card (a row of the table on a desk). */
function card(page: Page, name: string) {
  return page.getByRole("row").filter({ hasText: name });
}

/** Opens an incident as the cron would have: its reasons, since a while ago. */
async function openIncident(reasons: string) {
  await sql("DELETE FROM delivery_incidents WHERE resolved_at IS NULL");
  await sql(
    "INSERT INTO delivery_incidents (started_at, reasons, waiting) VALUES (?1, ?2, 2)",
    Date.now() - 20 * 60_000,
    reasons,
  );
}

async function resolveIncidents() {
  await sql("UPDATE delivery_incidents SET resolved_at = ?1 WHERE resolved_at IS NULL", Date.now());
}

test.afterEach(resolveIncidents);

test("the newest lead's card is whole on a phone's first screen, with an open incident too; the desk keeps its table", async ({
  page,
  request,
}, testInfo) => {
  const lead = await newLead(testInfo, "Primeira", {
    utm_source: "instagram",
    utm_campaign: "lancamento",
    utm_content: "video-1",
  });
  await asBroker(page, testInfo, await createColleague(request));
  const shown = card(page, lead.name);
  const inFirstScreen = async () => {
    await expect(shown).toBeVisible();
    const box = await shown.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height, JSON.stringify(box)).toBe(true);
  };
  await inFirstScreen();
  await expect(shown).toContainText("agora");
  await expect(shown).toContainText("Chegou agora: aguardando contato");
  await expect(shown.locator(".badge")).toHaveText("Pendente");
  await expect(shown).toContainText("campanha lancamento");
  await expect(shown).toContainText("anúncio video-1");
  await firstScreen(page, testInfo, "speed-list");
  await screenshot(page, testInfo, "speed-list");

  for (const reasons of ["backlog", "given_up"]) {
    await openIncident(reasons);
    await page.reload();
    await panelLoaded(page);
    await expect(page.locator(".incident")).toBeVisible();
    // On a phone the banner is its line; a desk shows an outage in full, above its table.
    if (onPhone(testInfo)) await inFirstScreen();
    await firstScreen(page, testInfo, `speed-list-incident-${reasons}`);
  }
  if (!onPhone(testInfo)) {
    // A desk keeps the table and its columns.
    await expect(page.getByRole("columnheader", { name: "Email" })).toBeVisible();
    await expect(shown.getByRole("cell").nth(1)).toContainText(lead.email);
  }
});

test("'Ligar' and 'WhatsApp' call and greet the person by name; a landline is called only", async ({
  page,
  request,
}, testInfo) => {
  const lead = await newLead(testInfo, "Greeting", { whatsapp: `+55499${String(Date.now()).slice(-8)}` });
  const fixo = await newLead(testInfo, "Fixo", { whatsapp: `+55483${String(Date.now()).slice(-7)}` });
  const broker = await createColleague(request);
  await asBroker(page, testInfo, broker);
  const brokerName = broker.email.split("@")[0]?.split(/[._+-]/)[0] ?? "";
  const first = brokerName.charAt(0).toUpperCase() + brokerName.slice(1);
  const digits = lead.whatsapp.replace(/\D/g, "");
  const greeting = `Olá, Lia! Aqui é ${first}, da Altos da Serra Imóveis. Vi seu cadastro no pré-lançamento do Recanto das Videiras`;

  const where = onPhone(testInfo) ? card(page, lead.name) : null;
  if (where) {
    await expect(where.getByRole("link", { name: "Ligar" })).toHaveAttribute("href", `tel:+${digits}`);
    const chat = where.getByRole("link", { name: "WhatsApp" });
    await expect(chat).toHaveAttribute("href", new RegExp(`^https://wa\\.me/${digits}\\?text=`));
    const href = (await chat.getAttribute("href")) ?? "";
    expect(decodeURIComponent(href.split("?text=")[1] ?? "")).toContain(greeting);
    const landline = card(page, fixo.name);
    await expect(landline.getByRole("link", { name: "Ligar" })).toBeVisible();
    await expect(landline.getByRole("link", { name: "WhatsApp" })).toHaveCount(0);
  } else {
    // On a desk the number itself opens the chat, greeting included; a landline's is a call.
    const number = card(page, lead.name).locator('td[data-label="WhatsApp"] a');
    const href = (await number.getAttribute("href")) ?? "";
    expect(href.startsWith(`https://wa.me/${digits}?text=`)).toBe(true);
    expect(decodeURIComponent(href.split("?text=")[1] ?? "")).toContain(greeting);
    await expect(card(page, fixo.name).locator('td[data-label="WhatsApp"] a')).toHaveAttribute(
      "href",
      `tel:+${fixo.whatsapp.replace(/\D/g, "")}`,
    );
  }

  // The lead's own page has them too.
  await card(page, lead.name).getByRole("link", { name: lead.name }).click();
  const top = page.locator(".lead-card");
  await expect(top.getByRole("link", { name: "Ligar" })).toHaveAttribute("href", `tel:+${digits}`);
  const chat = top.getByRole("link", { name: "WhatsApp" });
  const href = (await chat.getAttribute("href")) ?? "";
  expect(href.startsWith(`https://wa.me/${digits}?text=`)).toBe(true);
  expect(decodeURIComponent(href.split("?text=")[1] ?? "")).toContain(greeting);
  await screenshot(page, testInfo, "speed-lead-page");
});

test("'Já falei' says who contacted the lead and when, 'Desfazer' takes it back, and the filters follow", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const lead = await newLead(testInfo, "Falei");
  const broker = await createColleague(request);
  await asBroker(page, testInfo, broker);
  const row = card(page, lead.name);
  const uncontacted = page.getByRole("button", { name: /^Não contatados/ });
  const mine = page.getByRole("button", { name: /^Contatados por mim/ });
  // A broker's phone opens on 'Não contatados' (and says so); a desk on every lead.
  await expect(uncontacted).toHaveAttribute("aria-pressed", onPhone(testInfo) ? "true" : "false");
  if (onPhone(testInfo)) await expect(page.getByText("No celular, a lista abre em 'Não contatados'.")).toBeVisible();

  await row.getByRole("button", { name: "Já falei" }).click();
  const toast = page.locator(".toast").filter({ hasText: "Contato registrado" });
  await expect(toast).toBeVisible();
  await screenshot(page, testInfo, "speed-spoke-toast");
  // 'Desfazer' puts it back where it was.
  await toast.getByRole("button", { name: "Desfazer" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Registro de contato desfeito" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Já falei" })).toBeVisible();

  await row.getByRole("button", { name: "Já falei" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Contato registrado" })).toBeVisible();
  if (onPhone(testInfo)) {
    // Out of 'Não contatados' on the phone's list...
    await expect(row).toHaveCount(0);
  } else {
    await expect(row).toContainText("Contatado por você agora");
  }
  // ...under 'Contatados por mim', saying so.
  await mine.click();
  await expect(mine).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/contato=meus/);
  await expect(row).toContainText("Contatado por você agora");
  await screenshot(page, testInfo, "speed-contacted-by-me");

  // A colleague sees who did, and when.
  const other = await createOwner(request);
  const context = await browser.newContext({ ...testInfo.project.use, baseURL: page.url() });
  try {
    const theirs = await context.newPage();
    if (onPhone(testInfo)) await theirs.setViewportSize(PHONE);
    await signIn(theirs, other);
    await theirs.goto(`/admin?q=${encodeURIComponent(lead.email)}`);
    const first = broker.email.split("@")[0]?.split(/[._+-]/)[0] ?? "";
    await expect(card(theirs, lead.name)).toContainText(
      `Contatado por ${first.charAt(0).toUpperCase()}${first.slice(1)} agora`,
    );
    await expect(card(theirs, lead.name).getByRole("button", { name: "Já falei" })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("the banner tells 'Jetimob fora do ar' from leads refused, folds, and stays as each person left it", async ({
  page,
  request,
}, testInfo) => {
  const owner = await createOwner(request);
  await openIncident("backlog");
  await asBroker(page, testInfo, await createColleague(request));
  const down = page.getByRole("alert").filter({ hasText: "Jetimob fora do ar" });
  await expect(down).toBeVisible();
  const details = down.getByRole("button", { name: onPhone(testInfo) ? "Detalhes" : "Ocultar" });
  await expect(details).toHaveAttribute("aria-expanded", onPhone(testInfo) ? "false" : "true");
  await details.click();
  await page.reload();
  await panelLoaded(page);
  // As this person left it.
  await expect(down.getByRole("button", { name: onPhone(testInfo) ? "Ocultar" : "Detalhes" })).toHaveAttribute(
    "aria-expanded",
    onPhone(testInfo) ? "true" : "false",
  );
  await screenshot(page, testInfo, "speed-banner-down");

  // Two leads Jetimob refused for good, while the others arrive: one line, and a link to them.
  await openIncident("given_up");
  const [{ n } = { n: 0 }] = await sql<{ n: number }>("SELECT n FROM lead_counters WHERE name = 'attention'");
  await page.reload();
  await panelLoaded(page);
  const refused = page.getByRole("note").filter({ hasText: "recusados pelo Jetimob" });
  await expect(refused).toContainText(`${n} leads recusados pelo Jetimob`);
  await expect(page.getByRole("alert").filter({ hasText: "Jetimob fora do ar" })).toHaveCount(0);
  await expect(refused.getByRole("button", { name: "Detalhes" })).toHaveAttribute("aria-expanded", "false");
  await screenshot(page, testInfo, "speed-banner-refused");
  await refused.getByRole("link", { name: "Ver os leads" }).click();
  await expect(page).toHaveURL(/status=falhas/);
  await expect(page.getByRole("button", { name: /^Falharam/ })).toHaveAttribute("aria-pressed", "true");
  void owner;
});

test("the counters and chips count what the list shows under a period and a filter, each lead once", async ({
  page,
  request,
}, testInfo) => {
  await asBroker(page, testInfo, await createOwner(request));
  const value = (label: string) => page.locator(".counter").filter({ hasText: label }).locator(".counter__value");
  const number = async (label: string) => Number((await value(label).textContent())?.replace(/\D/g, ""));
  const before = await number("Total de Leads");
  await page.getByLabel("Período").selectOption({ label: "Hoje" });
  await expect(page).toHaveURL(/de=/);
  await expect(value("Total de Leads")).not.toHaveText(String(before));
  const [{ today } = { today: 0 }] = await sql<{ today: number }>(
    "SELECT count(*) AS today FROM leads WHERE date(created_at / 1000 - 10800, 'unixepoch') = date('now', '-3 hours')",
  );
  await expect(value("Total de Leads")).toHaveText(today.toLocaleString("pt-BR"));
  const total = await number("Total de Leads");
  expect((await number("Enviados Jetimob")) + (await number("Pendentes")) + (await number("Precisam de atenção"))).toBe(
    total,
  );
  await expect(page.getByRole("button", { name: /^Todos/ })).toContainText(String(total));
  await screenshot(page, testInfo, "speed-counters-today");
});
