import { createHash } from "node:crypto";
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { FakeMeta } from "../support/fake-meta";
import { LOG_DIR } from "./fixtures";
import { createOwner, createStaff, signIn } from "./staff";
import {
  asNewVisitor,
  fillLeadForm,
  openLanding,
  LEAD_SUBMIT as SUBMIT,
  screenshot,
  sql,
  uniquePerson,
  useSite,
} from "./support";

// The ads learn from every lead, from the server: a visitor from a Meta ad
// (its fbclid in the address) leaves a lead in the browser; Meta's
// Conversions API (a fake that refuses what Meta refuses) gets exactly one
// 'Lead' event, its details hashed and its click's fbc; the lead's page says
// it reached Meta.
const test = base.extend<object, { site: { app: App; meta: FakeMeta } }>({
  site: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function needs from this pattern.
    async ({}, use, workerInfo) => {
      const mail = await new FakeMail().start();
      const meta = await new FakeMeta().start();
      const app = await spawnApp({
        vars: {
          ...mail.settings(),
          ...meta.settings(),
          GOOGLE_ADS_IMPORT_USER: "agencia",
          GOOGLE_ADS_IMPORT_PASSWORD: "senha-do-arquivo-de-conversoes",
        },
        logFile: join(LOG_DIR, `meta-${workerInfo.workerIndex}-${Date.now()}.log`),
      });
      await app.sql("INSERT INTO cron_state (name, value) VALUES ('delivery_watched_at', ?1)", Date.now() + 86_400_000);
      useSite({ app, mail });
      await use({ app, meta });
      await app.stop();
      await Promise.all([mail.stop(), meta.stop()]);
    },
    { scope: "worker", timeout: 60_000 },
  ],
  baseURL: async ({ site }, use) => {
    await use(site.app.baseUrl);
  },
});

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

test(
  "a lead from a Meta ad reaches Meta once, its details hashed, and its page says so",
  { tag: "@one-screen" },
  async ({ page, request, site }, testInfo) => {
    const person = uniquePerson(testInfo);
    await asNewVisitor(page);
    await openLanding(page, "/?utm_source=facebook&fbclid=ABC");
    await fillLeadForm(page, person);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();

    const [lead] = await sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", person.email);
    await expect.poll(() => site.meta.eventsFor(lead?.id ?? "").length).toBe(1);
    const [event] = site.meta.eventsFor(lead?.id ?? "");
    expect(event).toMatchObject({ event_name: "Lead", action_source: "website" });
    expect(event?.user_data.em).toEqual([sha256(person.email)]);
    expect(event?.user_data.ph).toEqual([sha256(`55${person.whatsappDigits}`)]);
    expect(String(event?.user_data.fbc)).toMatch(/^fb\.1\.\d{13}\.ABC$/);
    expect(event?.user_data.client_user_agent).toContain("Mozilla/5.0");

    await signIn(page, await createStaff(request));
    await page.goto(`/admin/leads/${lead?.id}`);
    const section = page.getByRole("region", { name: "Envio ao Meta" });
    await expect(section).toContainText(/Enviado em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, "lead-sent-to-meta");
    expect(site.meta.eventsFor(lead?.id ?? "")).toHaveLength(1);
  },
);

test("'Campanhas' shows the leads sent to Meta, and owners what to give Google Ads' scheduled upload", async ({
  page,
  request,
  site,
}, testInfo) => {
  const person = uniquePerson(testInfo);
  await asNewVisitor(page);
  await openLanding(page, "/?utm_source=facebook&utm_campaign=vindima-meta&fbclid=XYZ");
  await fillLeadForm(page, person);
  await page.getByRole("button", { name: SUBMIT }).click();
  await expect(page.getByRole("heading", { name: "Sucesso!" })).toBeVisible();
  const [lead] = await sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", person.email);
  await expect.poll(() => site.meta.eventsFor(lead?.id ?? "").length).toBe(1);

  await signIn(page, await createOwner(request));
  await page.goto("/admin/campanhas?periodo=hoje");
  const row = page.getByRole("row", { name: /vindima-meta/ });
  await expect(row.locator('td[data-label="Enviados ao Meta"] .campaign-table__value')).toHaveText("1");
  const box = page.getByRole("region", { name: "Conversões no Google Ads" });
  await expect(box).toContainText(`${new URL(page.url()).origin}/api/conversions/google-ads.csv`);
  await expect(box).toContainText("agencia");
  await expect(box).not.toContainText("senha-do-arquivo-de-conversoes");
  await screenshot(page, testInfo, "campaigns-meta-google");
});
