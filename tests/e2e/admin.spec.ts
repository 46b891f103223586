import { readFile } from "node:fs/promises";
import type { TestInfo } from "@playwright/test";
import { LEAD_PATH, uniqueIp } from "../support/leads";
import { expect, type Page, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import {
  confirmMarkSentByKeyboard,
  expectOffAndFocused,
  holdRequests,
  listAnswer,
  markSent,
  panelLoaded,
  screenshot,
  seedLeads,
  sql,
} from "./support";

function counter(page: Page, label: string) {
  return page.locator(".counter").filter({ hasText: label }).locator(".counter__value");
}

/** A counter's number, once the counters have loaded. */
async function counterValue(page: Page, label: string): Promise<number> {
  await expect(counter(page, label)).toHaveText(/^\d[\d.]*$/);
  return Number((await counter(page, label).textContent())?.replace(/\D/g, ""));
}

function row(page: Page, name: string) {
  return page.getByRole("row").filter({ hasText: name });
}

/** The pager's line, '1–50 de 60 leads · página 1 de 2' (the list's status says it once more, to screen readers). */
function pagerLine(page: Page) {
  return page.getByRole("navigation", { name: "Páginas" }).locator("p");
}

/** Opens the panel showing only the leads whose names contain `surname` (see seed-data.ts). */
async function showOnly(page: Page, surname: string) {
  const answered = listAnswer(page, { q: surname });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(surname);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(surname)}`));
  await answered;
}

test.beforeEach(async ({ page, request }) => {
  await signIn(page, await createStaff(request));
});

test("shows the counters and the leads, newest first, with dates in Brasília time", async ({ page }, testInfo) => {
  for (const label of ["Total de Leads", "Enviados Jetimob", "Pendentes", "Precisam de atenção"]) {
    await expect(counter(page, label)).toHaveText(/^\d[\d.]*$/);
  }
  expect(await counterValue(page, "Total de Leads")).toBeGreaterThanOrEqual(9);
  await showOnly(page, "Vinhedo");
  const rows = page.getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText("Bruno Vinhedo");
  await expect(rows.nth(2)).toContainText("Ana Vinhedo");
  const ana = row(page, "Ana Vinhedo");
  await expect(ana).toContainText("31/12/2025 21:00");
  // Its chat opens with the broker's greeting to Ana (agency.json's panel.whatsappGreeting).
  // (the number at a desk, 'WhatsApp' on a phone's card: the same chat)
  await expect(ana.locator('a[href^="https://wa.me/"]').first()).toHaveAttribute(
    "href",
    /^https:\/\/wa\.me\/5548912345678\?text=Ol%C3%A1%2C%20Ana!%20Aqui%20%C3%A9%20/,
  );
  await expect(ana.locator(".badge")).toHaveText("Pendente");
  await expect(row(page, "Bruno Vinhedo").locator(".badge")).toHaveText("Enviado");
  await screenshot(page, testInfo, "admin-list");
});

test("keeps every column on screen, the actions included, from a tablet's width up, the tabs in the page's column", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "widths from 1024 px up");
  await showOnly(page, "Vinhedo");
  for (const width of [1024, 1200, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    const wrap = page.locator(".table-wrap");
    const fits = await wrap.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits, `${width} px`).toBe(true);
    const action = await row(page, "Ana Vinhedo").getByRole("button", { name: "Marcar Enviado" }).boundingBox();
    const area = await wrap.boundingBox();
    expect(action && area && action.x + action.width <= area.x + area.width, `${width} px`).toBe(true);
    // The panel's tabs start where its title and the counters do, not at the window's edge.
    const title = await page.getByRole("heading", { level: 1 }).boundingBox();
    const tabs = page.getByRole("navigation", { name: "Páginas do painel" }).getByRole("link");
    const firstTab = await tabs.first().boundingBox();
    expect(Math.abs((firstTab?.x ?? -100) - (title?.x ?? 0)), `${width} px`).toBeLessThanOrEqual(1);
    if (width === 1024) await screenshot(page, testInfo, "admin-list-1024");
  }
});

test("a term of one or two characters waits for Enter, saying so, before it searches @one-screen", async ({
  page,
}, testInfo) => {
  // 'Zé' is someone's whole name; 'Z', 'Zé' are also on the way to 'Zélia': those are not searched.
  const name = `Zé Parreira ${testInfo.project.name}`;
  await seedLeads([{ name, created_at: Date.now() }]);
  // The page's clock: the search box's wait is run to its end, not slept through.
  await page.clock.install();
  await page.reload();
  await panelLoaded(page);
  const asked: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === "/api/leads") asked.push(url.searchParams.get("q") ?? "");
  });
  const box = page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha");
  await box.fill("Zé");
  const hint = page.getByText("Digite 3 caracteres ou tecle Enter.");
  await expect(hint).toBeVisible();
  await expect(box).toHaveAccessibleDescription("Digite 3 caracteres ou tecle Enter.");
  // Well past the wait after the last key (300 ms): a search it started would have written
  // the address, in the page, before runFor returns.
  await page.clock.runFor(1_000);
  expect(await page.evaluate(() => window.location.search)).not.toContain("q=");
  expect(asked).not.toContain("Zé");
  await screenshot(page, testInfo, "admin-search-short-term");

  const answered = listAnswer(page, { q: "Zé" });
  await box.press("Enter");
  await answered;
  await expect(page).toHaveURL(/q=Z%C3%A9/);
  await expect(row(page, name)).toHaveCount(1);
  await expect(hint).toBeHidden();
});

test("Marcar Enviado turns the badge and moves the counters", async ({ page }) => {
  const sentBefore = await counterValue(page, "Enviados Jetimob");
  const pendingBefore = await counterValue(page, "Pendentes");
  await showOnly(page, "Marcar");
  const lead = row(page, "Carla Marcar");
  await markSent(page, lead);
  await expect(page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" })).toBeVisible();
  await expect(lead.locator(".badge")).toHaveText("Enviado");
  await expect(lead.getByRole("button", { name: "Marcar Enviado" })).toHaveCount(0);
  await expect(counter(page, "Enviados Jetimob")).toHaveText(String(sentBefore + 1));
  await expect(counter(page, "Pendentes")).toHaveText(String(pendingBefore - 1));
});

test("an action that ends after staff changed the filter reloads the view on screen, not the one it began in @one-screen", async ({
  page,
}, testInfo) => {
  const group = `Troca${testInfo.project.name === "phone" ? "Celular" : "Computador"}`;
  await seedLeads([
    { name: `${group} Pendente`, delivery_status: "pending" },
    { name: `${group} Enviado`, delivery_status: "sent" },
  ]);
  await showOnly(page, group);
  await expect(page.getByRole("row")).toHaveCount(3);
  // 'Marcar Enviado' on its way, held (Jetimob slow, a weak signal)...
  const { release } = await holdRequests(page, /\/api\/leads\/[^/]+\/mark-sent$/);
  await markSent(page, row(page, `${group} Pendente`));
  // ...while staff turn to 'Pendentes'.
  await page.getByRole("button", { name: /^Pendentes/ }).click();
  await expect(page).toHaveURL(/status=pendentes/);
  await expect(page.getByRole("row")).toHaveCount(2);

  release();
  await expect(page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" })).toBeVisible();
  // Nothing of the group is pending any more; the list under 'Pendentes' says so.
  await expect(page.getByText("Nenhum lead encontrado")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pendentes/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("row")).toHaveCount(0);
});

test("emptying the last page with 'Excluir' shows the page before it, not an empty list", async ({
  page,
}, testInfo) => {
  const group = `Esvazia${testInfo.project.name === "phone" ? "Celular" : "Computador"}`;
  const day = Date.UTC(2025, 1, 10);
  await seedLeads(
    Array.from({ length: 51 }, (_, i) => ({
      name: `${group} ${String(51 - i).padStart(2, "0")}`,
      created_at: day + i * 60_000,
    })),
  );
  await showOnly(page, group);
  await expect(pagerLine(page)).toHaveText("1–50 de 51 leads · página 1 de 2");
  await page.getByRole("button", { name: "Próxima" }).click();
  await expect(pagerLine(page)).toHaveText("51–51 de 51 leads · página 2 de 2");

  await row(page, `${group} 51`).getByRole("button", { name: "Excluir lead" }).click();
  await page.getByRole("dialog", { name: "Excluir lead?" }).getByRole("button", { name: "Excluir" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Lead removido com sucesso" })).toBeVisible();
  await expect(pagerLine(page)).toHaveText("1–50 de 50 leads · página 1 de 1");
  await expect(page).not.toHaveURL(/page=2/);
  await expect(row(page, `${group} 01`)).toHaveCount(1);
});

test("deleting asks first; Cancelar keeps the lead, Excluir removes it", async ({ page }, testInfo) => {
  await showOnly(page, "Excluir");
  const lead = row(page, "Davi Excluir");
  await lead.getByRole("button", { name: "Excluir lead" }).click();
  const dialog = page.getByRole("dialog", { name: "Excluir lead?" });
  await expect(dialog).toContainText("Davi Excluir");
  // Deleting reaches this site's copy only: a visitor's request to be forgotten must reach the others too.
  await expect(dialog).toHaveAccessibleDescription(
    /Os avisos de novo lead já enviados à equipe por e-mail ou webhook continuam lá\. Se o visitante pediu a exclusão/,
  );
  await screenshot(page, testInfo, "admin-delete-confirm");
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();
  await expect(lead).toBeVisible();

  await lead.getByRole("button", { name: "Excluir lead" }).click();
  await dialog.getByRole("button", { name: "Excluir" }).click();
  await expect(page.locator(".toast").filter({ hasText: "Lead removido com sucesso" })).toBeVisible();
  await expect(lead).toHaveCount(0);
  await expect(page.getByText("Nenhum lead encontrado")).toBeVisible();
  expect(await sql("SELECT id FROM leads WHERE name = 'Davi Excluir'")).toEqual([]);
});

test("search and filter live in the address, so a reload shows the same view", async ({ page }, testInfo) => {
  await showOnly(page, "Filtro");
  await expect(page.getByRole("row")).toHaveCount(4);
  await page.getByRole("button", { name: /^Falharam/ }).click();
  await expect(page).toHaveURL(/status=falhas/);
  // The lead Jetimob never took, and the one whose correction it refused: both wait for a person.
  await expect(page.getByRole("row")).toHaveCount(3);
  await expect(row(page, "Fábio Filtro")).toContainText("Último erro: HTTP 500: erro interno");
  const gil = row(page, "Gil Filtro");
  await expect(gil).toContainText("Correção do visitante não enviada");
  await expect(gil).toContainText("Último erro: HTTP 422: telefone inválido");
  // (This site has no Jetimob keys: staff enter the correction by hand.)
  await expect(gil.getByRole("button", { name: "Marcar Enviado" })).toBeVisible();
  await screenshot(page, testInfo, "admin-filter-failed");
  await page.reload();
  await expect(page.getByRole("button", { name: /^Falharam/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha")).toHaveValue("Filtro");
  await expect(page.getByRole("row")).toHaveCount(3);
  await page.goBack();
  await expect(page.getByRole("row")).toHaveCount(4);
});

test("'Precisam de atenção' counts a lead whose correction Jetimob refused, until 'Marcar Enviado'", async ({
  page,
}) => {
  await seedLeads([{ name: "Helena Atenção", delivery_status: "sent", update_status: "failed" }]);
  await page.reload();
  const waiting = await counterValue(page, "Precisam de atenção");
  const [counted] = await sql<{ n: number }>(
    "SELECT count(*) AS n FROM leads WHERE delivery_status = 'failed' OR update_status = 'failed'",
  );
  expect(waiting).toBe(counted?.n);
  await showOnly(page, "Helena");
  const helena = row(page, "Helena Atenção");
  await expect(helena.locator(".badge")).toHaveText("Enviado");
  await markSent(page, helena);
  await expect(page.locator(".toast").filter({ hasText: "Status Jetimob atualizado" })).toBeVisible();
  await expect(counter(page, "Precisam de atenção")).toHaveText(String(waiting - 1));
});

test("searching for nobody shows the empty state", async ({ page }) => {
  await showOnly(page, "ninguém-tem-este-nome");
  await expect(page.locator(".list-status")).toHaveText("Nenhum lead encontrado");
});

test("says 'Carregando leads...' while the first page loads", async ({ page }) => {
  const { release } = await holdRequests(page, /\/api\/leads(\?|$)/);
  await page.reload();
  await expect(page.getByText("Carregando leads...")).toBeVisible();
  release();
  await expect(page.getByRole("heading", { name: "Lista de Leads" })).toBeVisible();
  await expect(page.getByText("Carregando leads...")).toHaveCount(0);
});

test("a failure to load says 'Erro ao carregar leads' @one-screen", async ({ page }) => {
  await page.route(/\/api\/leads(\?|$)/, (route) => route.fulfill({ status: 500, body: '{"success":false}' }));
  await page.reload();
  await expect(page.locator(".toast").filter({ hasText: "Erro ao carregar leads" })).toBeVisible();
});

test("a filter that fails to load shows no other filter's leads under it, and 'Tentar novamente' loads it", async ({
  page,
}, testInfo) => {
  await showOnly(page, "Filtro");
  await expect(page.getByRole("row")).toHaveCount(4);
  await page.route(/\/api\/leads(\?|$)/, (route) => route.abort("internetdisconnected"));
  await page.getByRole("button", { name: /^Falharam/ }).click();
  await expect(page.locator(".toast").filter({ hasText: "Erro ao carregar leads" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Falharam/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("row")).toHaveCount(0);
  await screenshot(page, testInfo, "admin-load-failed");

  await page.unroute(/\/api\/leads(\?|$)/);
  await page.getByRole("button", { name: "Tentar novamente" }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await expect(row(page, "Fábio Filtro")).toBeVisible();
});

test("exports the current view as CSV @one-screen", async ({ page }) => {
  await showOnly(page, "Exporta");
  await expect(page.getByRole("row")).toHaveCount(3);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString("utf8").trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^Nome;Email;WhatsApp;Origem;Status Jetimob;Data;/);
  expect(lines.slice(1).map((l) => l.split(";")[0])).toEqual(["Hugo Exporta", "Gabi Exporta"]);
});

test("shows a name with HTML in it as text and never runs it", async ({ page }) => {
  let dialogs = 0;
  page.on("dialog", async (d) => {
    dialogs += 1;
    await d.dismiss();
  });
  await showOnly(page, "Xss");
  await expect(row(page, "Xss").locator(".leads-table__open")).toHaveText("<img src=x onerror=alert(1)> Xss");
  await expect(page.locator(".leads-table img")).toHaveCount(0);
  expect(dialogs).toBe(0);
});

test("a lead left on the landing page appears in the open panel within 30 seconds, with its campaign @one-screen", async ({
  page,
  baseURL,
}, testInfo) => {
  await page.clock.install();
  // The 30-second reloads send the list's tag back; the worker answers 304
  // while no lead changed, and the table stays as it is.
  const reloads: number[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/api/leads" && r.request().headers()["if-none-match"]) reloads.push(r.status());
  });
  await page.reload();
  // The list the page asked for on load has been answered, so it was read
  // before the lead below exists; only the 30-second refresh can bring it.
  await panelLoaded(page);
  // (Other tests add leads meanwhile: a tick that found one changed gets the
  // new list, and the next quiet one a 304.)
  for (let tick = 0; tick < 5 && !reloads.includes(304); tick++) {
    const before = reloads.length;
    await page.clock.runFor(31_000);
    await expect.poll(() => reloads.length).toBe(before + 1);
  }
  expect(reloads).toContain(304);
  await expect(page.locator(".leads-table tbody tr").first()).toBeVisible();
  const stamp = Date.now();
  const name = `Iara Nova ${stamp}`;
  const lead = {
    name,
    email: `iara.${stamp}@example.com`,
    whatsapp: `(49) 9${String(stamp).slice(-8)}`,
    utm_source: "instagram",
    utm_medium: "social",
    utm_campaign: "pre-lancamento-verao",
  };
  const headers = { "CF-Connecting-IP": uniqueIp() };
  const submit = () => page.request.post(`${baseURL}${LEAD_PATH}`, { data: lead, headers });
  expect((await submit()).status()).toBe(200);
  await expect(row(page, name)).toHaveCount(0);
  await page.clock.runFor(31_000);
  await expect(row(page, name)).toBeVisible();
  expect(reloads.at(-1)).toBe(200);
  const origin = row(page, name).locator(".leads-table__origin");
  await expect(origin).toContainText("instagram");
  await expect(origin.locator(".leads-table__note")).toHaveText(["campanha pre-lancamento-verao", "mídia social"]);
  await expect(row(page, name).locator(".leads-table__name .leads-table__note")).toHaveCount(0);

  // The same person again: still one lead, which now says it came twice.
  expect((await submit()).status()).toBe(200);
  await page.clock.runFor(31_000);
  await expect(row(page, name).locator(".leads-table__name .leads-table__note")).toHaveText("2 cadastros");
  await expect(row(page, name)).toHaveCount(1);
  await screenshot(page, testInfo, "admin-new-lead");
});

test("coming back to the panel's tab shows the leads that arrived meanwhile at once @one-screen", async ({
  page,
  baseURL,
}) => {
  // The clock stands still: only the return to the tab can bring the lead.
  await page.clock.install();
  await page.reload();
  await panelLoaded(page);
  const stamp = Date.now();
  const name = `Rui Voltou ${stamp}`;
  const lead = { name, email: `rui.${stamp}@example.com`, whatsapp: `(49) 9${String(stamp).slice(-8)}` };
  const headers = { "CF-Connecting-IP": uniqueIp() };
  expect((await page.request.post(`${baseURL}${LEAD_PATH}`, { data: lead, headers })).status()).toBe(200);

  /** The tab hidden (staff went to WhatsApp, say), then shown again. */
  const tabShown = (state: "hidden" | "visible") =>
    page.evaluate((s) => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => s });
      document.dispatchEvent(new Event("visibilitychange"));
    }, state);
  await tabShown("hidden");
  await expect(row(page, name)).toHaveCount(0);
  await tabShown("visible");
  await expect(row(page, name)).toBeVisible();
});

test("pages through a long list with 'Próxima' and 'Anterior', the page number in the address", async ({
  page,
}, testInfo) => {
  const group = `Paginada ${testInfo.project.name === "phone" ? "Celular" : "Computador"}`;
  const day = Date.UTC(2025, 0, 10);
  await seedLeads(
    Array.from({ length: 60 }, (_, i) => ({
      name: `${group} ${String(60 - i).padStart(2, "0")}`,
      created_at: day + i * 60_000,
    })),
  );
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(group);
  await expect(page).toHaveURL(/q=Paginada\+/);
  await expect(pagerLine(page)).toHaveText("1–50 de 60 leads · página 1 de 2");
  await expect(row(page, `${group} 01`)).toHaveCount(1);

  // 'Próxima' asks for the page after the last lead shown: a seek, not a count from the top.
  const seek = page.waitForRequest((r) => r.url().includes("/api/leads?") && /[?&]after=\d+%3A/.test(r.url()));
  const next = page.getByRole("button", { name: "Próxima" });
  await next.focus();
  await page.keyboard.press("Enter");
  await seek;
  await expect(page).toHaveURL(/page=2/);
  await expect(pagerLine(page)).toHaveText("51–60 de 60 leads · página 2 de 2");
  await expect(row(page, `${group} 51`)).toHaveCount(1);
  await expect(row(page, `${group} 60`)).toHaveCount(1);
  await expect(row(page, `${group} 50`)).toHaveCount(0);
  // Off on the last page, it keeps the focus the keyboard left on it.
  await expectOffAndFocused(page, next);

  // Reloading the tab seeks to where the page starts, as 'Próxima' did.
  const reseek = page.waitForRequest((r) => r.url().includes("/api/leads?") && /[?&]after=\d+%3A/.test(r.url()));
  await page.reload();
  await reseek;
  await expect(pagerLine(page)).toHaveText("51–60 de 60 leads · página 2 de 2");
  await expect(row(page, `${group} 51`)).toHaveCount(1);

  // The address alone, in another tab (a shared link), brings the same page back, by its number.
  const other = await page.context().newPage();
  const byNumber = other.waitForRequest(
    (r) => r.url().includes("/api/leads?") && r.url().includes("page=2") && !r.url().includes("after="),
  );
  await other.goto(page.url());
  await byNumber;
  await expect(pagerLine(other)).toHaveText("51–60 de 60 leads · página 2 de 2");
  await expect(row(other, `${group} 51`)).toHaveCount(1);
  await other.close();

  await page.getByRole("button", { name: "Anterior" }).click();
  await expect(page).not.toHaveURL(/page=/);
  await expect(row(page, `${group} 50`)).toHaveCount(1);
  await expect(row(page, `${group} 51`)).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/page=2/);
  await expect(row(page, `${group} 60`)).toHaveCount(1);
});

/** A group of leads of this test and viewport only, oldest last: `${group} 1` is the newest. */
async function seedGroup(prefix: string, testInfo: TestInfo, statuses: ("pending" | "sent")[]) {
  const group = `${prefix}${testInfo.project.name === "phone" ? "Celular" : "Computador"}`;
  const now = Date.now();
  await seedLeads(
    statuses.map((delivery_status, i) => ({
      name: `${group} ${i + 1}`,
      delivery_status,
      created_at: now - i * 60_000,
    })),
  );
  return group;
}

test("a lead deleted from the keyboard hands the focus to the next lead's first action, the last one to the list's heading", async ({
  page,
}, testInfo) => {
  const group = await seedGroup("Teclado", testInfo, ["sent", "sent"]);
  await showOnly(page, group);
  const dialog = page.getByRole("dialog", { name: "Excluir lead?" });
  const remove = async (name: string) => {
    await row(page, name).getByRole("button", { name: "Excluir lead" }).focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("button", { name: "Cancelar" })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.locator(".toast").filter({ hasText: "Lead removido com sucesso" }).last()).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);
  };
  await remove(`${group} 1`);
  await expect(row(page, `${group} 2`).getByRole("button", { name: "Excluir lead" })).toBeFocused();
  await remove(`${group} 2`);
  await expect(page.getByRole("heading", { name: "Lista de Leads" })).toBeFocused();
});

test("'Marcar Enviado' keeps the focus while it runs; once it is gone, the focus goes to the lead's next action, or the next lead's", async ({
  page,
}, testInfo) => {
  const group = await seedGroup("Foco", testInfo, ["pending", "pending", "pending"]);
  await showOnly(page, group);
  const { requested, release } = await holdRequests(page, /\/api\/leads\/[^/]+\/mark-sent$/);
  const mark = row(page, `${group} 1`).getByRole("button", { name: "Marcar Enviado" });
  await mark.focus();
  await page.keyboard.press("Enter");
  await confirmMarkSentByKeyboard(page);
  // While Jetimob is slow, the button is off but still holds the focus; a second press does nothing.
  await expectOffAndFocused(page, mark);
  await page.keyboard.press("Enter");
  release();
  await expect(row(page, `${group} 1`).locator(".badge")).toHaveText("Enviado");
  // The lead stays on the list ('Todos'): its delete button takes the focus.
  await expect(row(page, `${group} 1`).getByRole("button", { name: "Excluir lead" })).toBeFocused();
  expect(requested).toHaveLength(1);
  await page.unroute(/\/api\/leads\/[^/]+\/mark-sent$/);

  // Under 'Pendentes' the lead leaves the list: the focus goes to the next lead's 'Marcar Enviado'.
  await page.getByRole("button", { name: /^Pendentes/ }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await row(page, `${group} 2`).getByRole("button", { name: "Marcar Enviado" }).focus();
  await page.keyboard.press("Enter");
  await confirmMarkSentByKeyboard(page);
  await expect(row(page, `${group} 2`)).toHaveCount(0);
  await expect(row(page, `${group} 3`).getByRole("button", { name: "Marcar Enviado" })).toBeFocused();
});

test("a filter or a search says, politely, how many leads it found, or that it found none", async ({ page }) => {
  await panelLoaded(page);
  const result = page.getByRole("region", { name: "Lista de Leads" }).getByRole("status");
  // The list as the page opened: nothing to say yet.
  await expect(result).toHaveText("");
  await showOnly(page, "Filtro");
  await expect(result).toHaveText("1–3 de 3 leads · página 1 de 1");
  await page.getByRole("button", { name: /^Falharam/ }).click();
  await expect(result).toHaveText("1–2 de 2 leads · página 1 de 1");
  await showOnly(page, "ninguém-tem-este-nome");
  await expect(result).toHaveText("Nenhum lead encontrado");
});

test("says what a filter found even when the 30-second reload overtakes the load it asked for", async ({ page }) => {
  await panelLoaded(page);
  const result = page.getByRole("region", { name: "Lista de Leads" }).getByRole("status");
  await showOnly(page, "Filtro");
  await expect(result).toHaveText("1–3 de 3 leads · página 1 de 1");
  const { requested, release } = await holdRequests(page, /\/api\/leads\?/);
  await page.getByRole("button", { name: /^Falharam/ }).click();
  await expect.poll(() => requested.length).toBe(1);
  // Staff come back to the tab while it is on its way: the quiet reload takes its place.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect.poll(() => requested.length).toBe(2);
  release();
  await expect(result).toHaveText("1–2 de 2 leads · página 1 de 1");
});
