import { createRequire } from "node:module";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/chromium.mjs";
import { LEAD_PATH } from "../support/leads";
import { expect, type Page, test } from "./fixtures";
import { createStaff, signIn } from "./staff";
import {
  asNewVisitor,
  fillLeadForm,
  openLanding,
  type Person,
  LEAD_SUBMIT as SUBMIT,
  screenshot,
  sql,
  uniquePerson,
} from "./support";

// A visitor from an ad, on a 390×844 phone and on a desktop: the development
// in pictures, the form's button on the first screen, a landline questioned,
// 'Sucesso!' in the form's place at /obrigado with the next steps, the two
// optional questions and what the team then reads on the lead's page.

const sentState = (page: Page) => page.getByRole("heading", { name: "Sucesso!" });

/** axe-core's rules run in the page; the violations it finds, by rule and the elements it names. */
async function axeViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  const source = await import("node:fs/promises").then((fs) =>
    fs.readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"),
  );
  // Evaluated by the browser's debugger, which the page's CSP does not govern.
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (o: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

async function sendLead(page: Page, person: Pick<Person, "name" | "email" | "whatsappDigits">) {
  await fillLeadForm(page, person);
  await page.getByRole("button", { name: SUBMIT }).click();
  await expect(sentState(page)).toBeVisible();
}

test.beforeEach(async ({ page }) => {
  await asNewVisitor(page);
});

test("the form's button is whole on the first screen, under the headline and one line", async ({ page }, testInfo) => {
  await page.goto("/");
  const button = page.getByRole("button", { name: SUBMIT });
  const box = await button.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (!box || !viewport) return;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  const headline = await page.getByRole("heading", { level: 1 }).boundingBox();
  expect(headline && headline.y < box.y).toBe(true);
  await page.screenshot({ path: `tests/artifacts/screenshots/${testInfo.project.name}-first-screen.png` });
});

test("the development in pictures: described, sized, lazy, nothing shifts", async ({ page }, testInfo) => {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("/");
  await page.waitForLoadState("load");
  const gallery = page.getByRole("region", { name: /em imagens/ });
  const images = gallery.getByRole("img");
  await expect(images).toHaveCount(4);
  for (const image of await images.all()) {
    expect((await image.getAttribute("alt"))?.length).toBeGreaterThan(20);
    await expect(image).toHaveAttribute("width", /^\d+$/);
    await expect(image).toHaveAttribute("height", /^\d+$/);
    await expect(image).toHaveAttribute("loading", "lazy");
    await expect(image).toHaveAttribute("decoding", "async");
  }
  await gallery.scrollIntoViewIfNeeded();
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  expect(await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts)).toEqual([]);
  await expect(gallery.getByRole("link", { name: "Abrir no mapa" })).toHaveAttribute(
    "href",
    /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
  );
  await expect(page.locator("iframe")).toHaveCount(0);
  await screenshot(page, testInfo, "landing-gallery");
});

test("a picture far below a small phone's first screen is fetched only once the visitor scrolls near it @one-screen", async ({
  playwright,
  baseURL,
}) => {
  // In the full browser visitors have: the headless shell the other tests run in fetches
  // every lazy picture of this page at once. A 360×640 Android phone on 4G, where the
  // browser fetches a lazy picture once it comes within 1,250 px of the screen.
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ ...playwright.devices["Galaxy S5"], baseURL, locale: "pt-BR" });
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const images = page.getByRole("region", { name: /em imagens/ }).getByRole("img");
    const pictures = await images.evaluateAll((images: HTMLImageElement[]) =>
      images.map((img) => ({
        path: new URL(img.currentSrc || img.src).pathname,
        below: img.getBoundingClientRect().top - window.innerHeight,
      })),
    );
    const far = pictures.filter((p) => p.below > 1_250);
    expect(far.length).toBeGreaterThan(0);
    for (const picture of far) expect(fetched).not.toContain(picture.path);
    for (const picture of pictures.filter((p) => p.below < 1_000)) expect(fetched).toContain(picture.path);
    await images.last().scrollIntoViewIfNeeded();
    for (const picture of far) await expect.poll(() => fetched).toContain(picture.path);
  } finally {
    await browser.close();
  }
});

test("'Sucesso!' takes the form's place at /obrigado, greets the team in the visitor's name, and reloads as itself", async ({
  page,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  await openLanding(page);
  await sendLead(page, person);
  await expect(page).toHaveURL(/\/obrigado$/);
  await expect(sentState(page)).toBeFocused();
  await expect(page.getByRole("button", { name: SUBMIT })).toHaveCount(0);
  await expect(page.getByLabel("Nome completo")).toHaveCount(0);
  expect(await page.title()).toMatch(/^Cadastro recebido/);
  const chat = page.getByRole("link", { name: "Falar com a equipe no WhatsApp" });
  const greeting = new URL((await chat.getAttribute("href")) ?? "").searchParams.get("text");
  expect(greeting).toBe(
    `Olá! Sou ${person.name}, acabei de me cadastrar no pré-lançamento do Recanto das Videiras e gostaria de saber mais.`,
  );
  const share = new URL((await page.getByRole("link", { name: "Compartilhar com alguém" }).getAttribute("href")) ?? "");
  expect(share.origin + share.pathname).toBe("https://wa.me/");
  expect(share.searchParams.get("text")).toContain(
    "https://recantodasvideiras.com.br/?utm_source=whatsapp&utm_medium=compartilhamento",
  );
  await screenshot(page, testInfo, "landing-sent-state");

  // The address is a page of its own, served as it was built.
  const served = await page.request.get("/obrigado");
  expect(served.status()).toBe(200);
  expect(await served.text()).toContain("Sucesso!");
  await page.reload();
  await expect(sentState(page)).toBeVisible();

  // 'Enviar outro cadastro' brings back the empty form, the cursor in it.
  await page.getByRole("link", { name: "Enviar outro cadastro" }).click();
  await expect(page).toHaveURL(/\/(#cadastro)?$/);
  await expect(page.getByLabel("Nome completo")).toHaveValue("");
  await expect(page.getByLabel("Nome completo")).toBeFocused();
});

test(
  "the browser's Back after 'Sucesso!' shows the form again, empty",
  { tag: "@one-screen" },
  async ({ page }, testInfo) => {
    await openLanding(page);
    await sendLead(page, uniquePerson(testInfo));
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: SUBMIT })).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveValue("");
  },
);

test("the two optional questions, one tap each, are kept and shown on the lead's page", async ({
  page,
  request,
  browser,
  baseURL,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  await openLanding(page);
  await sendLead(page, person);
  const purpose = page.getByRole("form", { name: "Para morar ou investir?" });
  await purpose.getByRole("button", { name: "Para investir" }).click();
  await expect(purpose.getByRole("button", { name: "Para investir" })).toHaveAttribute("aria-pressed", "true");
  await expect(purpose.getByRole("status")).toHaveText("Resposta salva. Obrigado!");
  const when = page.getByRole("form", { name: "Quando pretende comprar?" });
  await when.getByRole("button", { name: "Ainda não sei" }).click();
  await expect(when.getByRole("status")).toHaveText("Resposta salva. Obrigado!");
  await screenshot(page, testInfo, "landing-questions-answered");
  const [lead] = await sql<{ id: string; answers: string }>(
    "SELECT id, answers FROM leads WHERE email = ?1",
    person.email,
  );
  expect(JSON.parse(lead?.answers ?? "{}")).toEqual({ finalidade: "Para investir", prazo: "Ainda não sei" });

  const context = await browser.newContext({ ...testInfo.project.use, baseURL });
  const staffPage = await context.newPage();
  await signIn(staffPage, await createStaff(request));
  await staffPage.goto(`/admin/leads/${lead?.id}`);
  const about = staffPage.getByRole("region", { name: "Sobre a pessoa" });
  await expect(about.getByRole("definition")).toHaveText(["Para investir", "Ainda não sei"]);
  await screenshot(staffPage, testInfo, "lead-page-answers");
  await context.close();
});

test(
  "a landline is questioned: 'Sim, enviar assim' sends it marked 'fixo'",
  { tag: "@one-screen" },
  async ({ page }, testInfo) => {
    const person = { ...uniquePerson(testInfo), whatsappDigits: `483${String(Date.now()).slice(-7)}` };
    await openLanding(page);
    const posts: string[] = [];
    page.on("request", (r) => r.url().endsWith(LEAD_PATH) && posts.push(r.method()));
    await fillLeadForm(page, person);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByText("Este número parece fixo. Ele tem WhatsApp?")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sim, enviar assim" })).toBeFocused();
    expect(posts).toEqual([]);
    await screenshot(page, testInfo, "landing-landline-question");
    await page.getByRole("button", { name: "Sim, enviar assim" }).click();
    await expect(sentState(page)).toBeVisible();
    expect(await sql("SELECT whatsapp, landline FROM leads WHERE email = ?1", person.email)).toEqual([
      { whatsapp: `+55${person.whatsappDigits}`, landline: 1 },
    ]);
  },
);

test(
  "a landline is questioned: 'Corrigir' goes back to the number, and the mobile typed goes unmarked",
  { tag: "@one-screen" },
  async ({ page }, testInfo) => {
    const person = uniquePerson(testInfo);
    await openLanding(page);
    await fillLeadForm(page, { ...person, whatsappDigits: "4833334444" });
    await page.getByRole("button", { name: SUBMIT }).click();
    await page.getByRole("button", { name: "Corrigir" }).click();
    const field = page.getByLabel("WhatsApp com DDD");
    await expect(field).toBeFocused();
    await expect(page.getByText("Este número parece fixo. Ele tem WhatsApp?")).toHaveCount(0);
    await field.pressSequentially(person.whatsappDigits);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(sentState(page)).toBeVisible();
    expect(await sql("SELECT whatsapp, landline FROM leads WHERE email = ?1", person.email)).toEqual([
      { whatsapp: `+55${person.whatsappDigits}`, landline: 0 },
    ]);
  },
);

test("axe-core finds nothing on the landing, with a field error, or on 'Sucesso!'", async ({ page }, testInfo) => {
  await page.goto("/");
  expect(await axeViolations(page)).toEqual([]);
  await openLanding(page);
  await fillLeadForm(page, { ...uniquePerson(testInfo), whatsappDigits: "23999998888" });
  await page.getByRole("button", { name: SUBMIT }).click();
  await expect(page.getByLabel("WhatsApp com DDD")).toHaveAttribute("aria-invalid", "true");
  expect(await axeViolations(page)).toEqual([]);
  await page.goto("/");
  await openLanding(page);
  await sendLead(page, uniquePerson(testInfo));
  expect(await axeViolations(page)).toEqual([]);
  await page.goto("/obrigado");
  expect(await axeViolations(page)).toEqual([]);
});
