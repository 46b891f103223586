import { expect, test } from "./fixtures";
import { createOwner, signIn } from "./staff";
import { listAnswer, screenshot, seedLeads, sql } from "./support";

// What each lead costs, as the marketing manager reads it in 'Campanhas'.

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
const today = dayOf(Date.now());
const daysAgo = (n: number) => dayOf(Date.parse(`${today}T12:00:00-03:00`) - n * DAY);
const typed = (day: string) => day.split("-").reverse().join("/");

/** A campaign's visits of one day, as the worker counts them. */
function visits(day: string, source: string, campaign: string, n: number) {
  return sql(
    "INSERT INTO campaign_daily (day, source, campaign, content, visits) VALUES (?1, ?2, ?3, '', ?4) " +
      "ON CONFLICT DO UPDATE SET visits = visits + excluded.visits",
    day,
    source,
    campaign,
    n,
  );
}

test("a spend file imported gives each campaign its cost per lead, beside the week before, sortable", async ({
  page,
  request,
}, testInfo) => {
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const [lancamento, remarketing] = [`lancamento-${tag}`, `remarketing-${tag}`];
  const at = (n: number) => Date.parse(`${daysAgo(n)}T10:00:00-03:00`);
  // This week: 2 leads of 'lancamento' from 40 visits, 3 of 'remarketing' from 10; the week before, 1 lead.
  await seedLeads([
    { utm_source: "instagram", utm_campaign: lancamento, created_at: at(1) },
    { utm_source: "instagram", utm_campaign: lancamento, created_at: at(2) },
    { utm_source: "instagram", utm_campaign: remarketing, created_at: at(1) },
    { utm_source: "instagram", utm_campaign: remarketing, created_at: at(2) },
    { utm_source: "instagram", utm_campaign: remarketing, created_at: at(3) },
    { utm_source: "instagram", utm_campaign: lancamento, created_at: at(9) },
  ]);
  await visits(daysAgo(1), "Instagram", lancamento, 40);
  await visits(daysAgo(1), "Instagram", remarketing, 10);
  await visits(daysAgo(9), "Instagram", lancamento, 20);

  await signIn(page, await createOwner(request));
  await page.goto("/admin/campanhas?periodo=7d");
  await expect(page.getByRole("heading", { level: 1, name: "Campanhas" })).toBeVisible();

  // The spend, as a person types it in a spreadsheet.
  const file = [
    "data;origem;campanha;investimento",
    `${typed(daysAgo(1))};ig;${lancamento};R$ 100,00`,
    `${typed(daysAgo(1))};Instagram;${remarketing};60,00`,
    `${typed(daysAgo(9))};instagram;${lancamento};30`,
  ].join("\n");
  const spend = page.getByRole("region", { name: "Investimento" });
  await spend.getByLabel("Arquivo de investimento (.csv)").setInputFiles({
    name: "investimento.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(file),
  });
  await spend.getByRole("button", { name: "Importar" }).click();
  await expect(spend.getByRole("status")).toContainText("investimento.csv importado. 3 linhas: 3 novas");

  const row = (campaign: string) =>
    page.getByRole("row").filter({ has: page.getByRole("link", { name: `Leads de Instagram › ${campaign}` }) });
  const cell = (campaign: string, column: string) =>
    row(campaign).locator(`td[data-label="${column}"] .campaign-table__value`);
  await expect(cell(lancamento, "Investimento")).toHaveText("R$ 100,00");
  await expect(cell(lancamento, "Custo por lead")).toHaveText("R$ 50,00");
  await expect(cell(remarketing, "Custo por lead")).toHaveText("R$ 20,00");
  // Beside the week before: 2 leads where there was 1, at R$ 50,00 where one cost R$ 30,00.
  await expect(row(lancamento).locator('td[data-label="Leads"] .campaign-table__change')).toHaveText(
    ", antes: 1; ▲ 100%",
  );
  await expect(row(lancamento).locator('td[data-label="Custo por lead"] .campaign-table__change')).toContainText(
    "▲ 66,7%",
  );
  await expect(page.getByText(/^Comparado com /)).toBeVisible();
  // The import's line (the file, who imported it: a long address) wraps in its panel: the
  // screenshot finds the page no wider than the screen, nothing of the report past its edge.
  await screenshot(page, testInfo, "lead-costs");

  // Sorted by conversion, 'remarketing' (30%) comes before 'lancamento' (5%).
  const conversion = page.getByRole("columnheader", { name: /Conversão/ });
  await conversion.getByRole("button").click();
  await expect(conversion).toHaveAttribute("aria-sort", "descending");
  const order = async () =>
    (await page.locator(".campaign-table__row--campaign .campaign-table__label").allTextContents()).filter(
      (name) => name === lancamento || name === remarketing,
    );
  await expect.poll(order).toEqual([remarketing, lancamento]);
  await conversion.getByRole("button").click();
  await expect(conversion).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(order).toEqual([lancamento, remarketing]);

  // A bad file is refused with its line, and nothing changes.
  await spend.getByLabel("Arquivo de investimento (.csv)").setInputFiles({
    name: "errado.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`data;origem;campanha;investimento\n${typed(today)};ig;${lancamento};cem\n`),
  });
  await spend.getByRole("button", { name: "Importar" }).click();
  await expect(spend.getByRole("alert")).toContainText('linha 2: valor inválido ("cem")');
  await expect(cell(lancamento, "Investimento")).toHaveText("R$ 100,00");
  await screenshot(page, testInfo, "lead-costs-refused");
});

test("the lead list's chips and counters follow its period and campaign", async ({ page, request }, testInfo) => {
  const campaign = `contadores-${testInfo.project.name}-${Date.now()}`;
  await seedLeads([
    { utm_source: "instagram", utm_campaign: campaign },
    { utm_source: "instagram", utm_campaign: campaign, delivery_status: "sent" },
  ]);
  await signIn(page, await createOwner(request));
  const answered = listAnswer(page, { fonte: "Instagram", campanha: campaign });
  await page.goto(`/admin?fonte=Instagram&campanha=${campaign}`);
  await answered;
  const counters = page.getByRole("region", { name: "Resumo" });
  await expect(counters.getByText("Total de Leads").locator("..")).toContainText("2");
  await expect(page.getByRole("button", { name: /^Enviados/ })).toContainText("1");
  await expect(page.getByRole("button", { name: /Remover filtro Campanha: Instagram ›/ })).toBeVisible();
  await screenshot(page, testInfo, "lead-costs-filtered-counters");
});
