import { join } from "node:path";
import { CHROME } from "../support/visits";
import { expect, type Page, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import {
  asNewVisitor,
  fillLeadForm,
  LEAD_SUBMIT,
  listAnswer,
  openLanding,
  type Person,
  SCREENSHOT_DIR,
  screenshot,
  sql,
  uniquePerson,
} from "./support";

/** The ad the campaign's visitors arrive from, as its link tags it. */
const AD_LINK = "/?utm_source=instagram&utm_campaign=lancamento&utm_content=video-1&utm_term=casa+na+serra";

/** A visitor arrives at `url` (one visit) and, given a `person`, signs up there (one lead). */
async function arrive(page: Page, url: string, person?: Person) {
  await openLanding(page, url);
  if (!person) return;
  await fillLeadForm(page, person);
  await page.getByRole("button", { name: LEAD_SUBMIT }).click();
  await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
}

/** The visits the worker has counted for the ad (it counts each after answering the page). */
async function adVisits(): Promise<number> {
  const [row] = await sql<{ n: number | null }>(
    "SELECT sum(n) AS n FROM visit_counts WHERE source = 'Instagram' AND campaign = 'lancamento' AND content = 'video-1'",
  );
  return row?.n ?? 0;
}

test("the ad's visits and leads show in 'Campanhas', and its row leads to its leads", async ({
  page,
  request,
}, testInfo) => {
  // Four arrivals from the ad; two of them sign up.
  const first = uniquePerson(testInfo);
  const second = uniquePerson(testInfo);
  await asNewVisitor(page);
  await arrive(page, AD_LINK, first);
  await arrive(page, AD_LINK);
  await arrive(page, AD_LINK, second);
  await arrive(page, AD_LINK);
  await expect.poll(adVisits).toBe(4);

  await signIn(page, await createStaff(request));
  await page.getByRole("navigation", { name: "Páginas do painel" }).getByRole("link", { name: "Campanhas" }).click();
  await expect(page).toHaveURL(/\/admin\/campanhas$/);
  await expect(page.getByRole("heading", { level: 1, name: "Campanhas" })).toBeVisible();

  await page.getByRole("button", { name: "7 dias" }).click();
  await expect(page).toHaveURL(/\?periodo=7d$/);
  const chart = page.getByRole("region", { name: "Leads por dia" });
  const summary = chart.locator(".leads-chart__summary");
  await expect(summary).toHaveText(
    /^\d+ leads em 7 dias; o dia com mais leads foi \d\d\/\d\d \(\d+\)\. .+ trouxe \d+\.( Investimento de R\$ [\d.,]+: R\$ [\d.,]+ por lead\.)?$/,
  );
  await expect(chart.getByRole("img", { name: (await summary.textContent()) ?? "" })).toBeVisible();

  const ad = page.getByRole("link", { name: "Leads de Instagram › lancamento › video-1" });
  const adRow = page.getByRole("row").filter({ has: ad });
  // Visits, leads, conversion, those sent to Jetimob, then no spend: no cost per lead.
  await expect(adRow.locator("td .campaign-table__value")).toHaveText(["4", "2", "50%", /^\d+$/, "—", "—", "—"]);
  await screenshot(page, testInfo, "campaigns");

  await ad.click();
  await expect(page).toHaveURL(/\/admin\?/);
  const filters = new URL(page.url()).searchParams;
  expect(Object.fromEntries(filters)).toMatchObject({ fonte: "Instagram", campanha: "lancamento", anuncio: "video-1" });
  await expect(
    page.getByRole("button", { name: "Remover filtro Campanha: Instagram › lancamento › video-1" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: /^Remover filtro Período: / })).toBeVisible();
  // The heading row and the ad's two leads, nobody else's.
  await expect(page.getByRole("row")).toHaveCount(3);
  for (const person of [first, second]) {
    await expect(page.getByRole("row").filter({ hasText: person.name })).toHaveCount(1);
  }
  await screenshot(page, testInfo, "campaigns-filtered-list");

  await page.getByRole("link", { name: first.name }).click();
  await expect(page.getByRole("heading", { name: first.name })).toBeVisible();
  const fact = (label: string) =>
    page
      .locator(".lead-card__facts div")
      .filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) })
      .getByRole("definition");
  await expect(fact("Fonte")).toHaveText("Instagram");
  await expect(fact("Campanha")).toHaveText("lancamento");
  await expect(fact("Anúncio")).toHaveText("video-1");
  await expect(fact("Palavra-chave")).toHaveText("casa na serra");
});

test("'Tempo até o primeiro contato' on a phone: each campaign's card holds its whole name", async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "a phone's cards; at a desk each table scrolls in its own box");
  const campaign = `pre-lancamento-verao-com-nome-longo-${testInfo.workerIndex}`;
  await asNewVisitor(page);
  await arrive(page, `/?utm_source=instagram&utm_campaign=${campaign}`, uniquePerson(testInfo));
  await signIn(page, await createStaff(request));
  await page.goto("/admin/campanhas");
  const block = page.getByRole("region", { name: "Tempo até o primeiro contato" });
  const name = block.getByRole("rowheader", { name: new RegExp(campaign) });
  await expect(name).toBeVisible();
  // Neither cut inside its cell nor past its card's edge.
  const fits = await name.evaluate((th) => {
    const card = (th.closest("tr") as HTMLElement).getBoundingClientRect();
    return th.scrollWidth <= th.clientWidth + 1 && th.getBoundingClientRect().right <= card.right + 1;
  });
  expect(fits).toBe(true);
  await block.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-first-contact.png`), scale: "css" });
});

test("the lead list's search finds a lead by its campaign's name @one-screen", async ({ page, request }, testInfo) => {
  const person = uniquePerson(testInfo);
  const campaign = `colheita-${Date.now()}`;
  await asNewVisitor(page);
  await arrive(page, `/?utm_source=google&utm_medium=cpc&utm_campaign=${campaign}`, person);

  await signIn(page, await createStaff(request));
  const answered = listAnswer(page, { q: campaign });
  await page.getByLabel("Buscar por nome, e-mail, WhatsApp ou campanha").fill(campaign);
  await answered;
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("row").filter({ hasText: person.name })).toContainText(`campanha ${campaign}`);
});

test("the report says on which day one address's flood reached the limit of new campaigns", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  // One address opens the site with 230 made-up campaigns, as a person's browser would.
  const flood = `198.18.${testInfo.project.name === "phone" ? 1 : 2}.9`;
  const answers = await Promise.all(
    Array.from({ length: 230 }, (_, i) =>
      request.get(`${baseURL}/?utm_source=robo&utm_campaign=inventada-${i}&utm_term=${Math.random()}`, {
        headers: {
          "User-Agent": CHROME,
          "Sec-Fetch-Dest": "document",
          "Sec-Fetch-Mode": "navigate",
          "CF-Connecting-IP": flood,
        },
      }),
    ),
  );
  for (const answer of answers) expect(answer.status()).toBe(200);
  // Counted after each answer: 20 lines of its own, then '(outras)', then not counted at all.
  const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
  const counted = async () => {
    const [row] = await sql<{ lines: number; overflow: number; uncounted: number }>(
      `SELECT (SELECT count(*) FROM visit_counts WHERE day = ?1 AND source = 'robo') AS lines,
         (SELECT coalesce(sum(n), 0) FROM visit_counts WHERE day = ?1 AND source = '(outras)') AS overflow,
         (SELECT coalesce(sum(n), 0) FROM visits_uncounted WHERE day = ?1) AS uncounted`,
      today,
    );
    return row;
  };
  await expect.poll(async () => (await counted())?.lines).toBe(20);
  await expect.poll(async () => (await counted())?.overflow).toBeGreaterThanOrEqual(180);
  await expect.poll(async () => (await counted())?.uncounted).toBeGreaterThanOrEqual(30);
  const { overflow, uncounted } = (await counted()) ?? { overflow: 0, uncounted: 0 };

  await signIn(page, await createStaff(request));
  await page.goto("/admin/campanhas?periodo=hoje");
  const note = page.getByRole("note", { name: "Limite de campanhas novas" });
  const count = (n: number) => new Intl.NumberFormat("pt-BR").format(n);
  await expect(note).toContainText(
    `Em ${today.slice(8, 10)}/${today.slice(5, 7)} o limite de campanhas novas foi atingido: ` +
      `${count(overflow)} visitas contadas em Outras origens; ` +
      `${count(uncounted)} visitas de redes que passaram do limite diário não foram contadas.`,
  );
  await expect(note).toContainText("As campanhas já vistas continuam na própria linha");
  // Its overflow is the table's 'Outras origens' line.
  const others = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Leads de Outras origens" }) });
  await expect(others.locator("td .campaign-table__value").first()).toHaveText(count(overflow));
  await note.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, "campaigns-limits");
  // The note as the screen shows it, with the table under it.
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${testInfo.project.name}-campaigns-limits-note.png`) });
});
