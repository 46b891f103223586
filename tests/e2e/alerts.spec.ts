import { expect, test } from "./fixtures";
import { createColleague, createOwner, createStaff, openStaffMenu, signIn } from "./staff";
import { expectOffAndFocused, holdRequests, panelLoaded, runCron, screenshot, siteUrl, sql } from "./support";

// The panel's side of 'nobody misses a lead': each person's switch for the
// new-lead e-mails, and the banner while leads are not reaching Jetimob (this
// site has no Jetimob keys and its seeded leads wait, so the cron opens an
// incident; a seeded correction Jetimob refused adds its own line).

test("'Receber aviso de novos leads' switches the signed-in person's e-mails and stays as left", async ({
  page,
  request,
}, testInfo) => {
  const staff = await createStaff(request);
  const stored = async () =>
    (await sql<{ lead_notices: number }>("SELECT lead_notices FROM staff_users WHERE email = ?1", staff.email))[0]
      ?.lead_notices;
  await signIn(page, staff);
  await openStaffMenu(page);
  const notices = page.getByRole("switch", { name: "Receber aviso de novos leads" });
  await expect(notices).toBeVisible();
  const before = (await notices.getAttribute("aria-checked")) === "true";

  await notices.click();
  await expect(notices).toHaveAttribute("aria-checked", String(!before));
  await expect(page.getByText(before ? "Aviso de novos leads desligado" : "Aviso de novos leads ligado")).toBeVisible();
  expect(await stored()).toBe(before ? 0 : 1);
  await screenshot(page, testInfo, "admin-notice-switch");

  await page.reload();
  await openStaffMenu(page);
  await expect(page.getByRole("switch", { name: "Receber aviso de novos leads" })).toHaveAttribute(
    "aria-checked",
    String(!before),
  );

  // The keyboard works it too, and the switch keeps the focus while its change is on its way.
  const { release } = await holdRequests(page, /\/api\/auth\/notices$/);
  await notices.focus();
  await page.keyboard.press("Space");
  await expectOffAndFocused(page, notices);
  release();
  await expect(notices).toBeEnabled();
  await expect(notices).toBeFocused();
  await expect(notices).toHaveAttribute("aria-checked", String(before));
  await expect(page.getByText(before ? "Aviso de novos leads ligado" : "Aviso de novos leads desligado")).toBeVisible();
  expect(await stored()).toBe(before ? 1 : 0);
});

test("while leads are not reaching Jetimob, /admin says so with the alert's words", async ({
  page,
  request,
  browser,
}, testInfo) => {
  // A colleague, not an owner of the panel.
  await signIn(page, await createColleague(request));
  const banner = page.getByRole("alert").filter({ hasText: "Leads não estão chegando ao Jetimob" });
  await panelLoaded(page);
  await expect(banner).toHaveCount(0);

  // 'Gil Filtro' corrected their number 16 minutes ago, and Jetimob still has the old one.
  await sql(
    "UPDATE leads SET update_requested_at = ?1 WHERE name = 'Gil Filtro' AND update_status IS NOT NULL",
    Date.now() - 16 * 60_000,
  );
  await runCron();
  await page.reload();
  await expect(banner).toBeVisible();
  // A phone shows the banner folded to its line, never over the first lead: 'Detalhes' unfolds it.
  const details = banner.getByRole("button", { name: "Detalhes" });
  if (await details.isVisible()) await details.click();
  await expect(banner.getByRole("heading")).toHaveText(
    /^Leads não estão chegando ao Jetimob desde \d\d\/\d\d\/\d{4} \d\d:\d\d\. \d+ leads? esperando envio\.$/,
  );
  await expect(banner).toContainText(
    "A entrega ao Jetimob está desligada: as chaves da integração não estão configuradas.",
  );
  // The keys are an owner's to set: the colleague is told to pass the step on.
  await expect(banner).toContainText(
    "O que fazer: avise o responsável pelo painel. Para ele: Cadastre JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY",
  );
  await expect(banner).toContainText(
    "Há correções de visitantes esperando há mais de 15 minutos para chegar ao Jetimob: lá, esses leads ainda estão com os dados antigos (nome, e-mail ou WhatsApp).",
  );
  await expect(banner).toContainText("O que fazer: Antes de falar com esses visitantes, veja no painel os dados");
  await expect(banner).toContainText(
    "Nenhum lead se perde: todos ficam guardados no painel e são enviados ao Jetimob assim que possível.",
  );
  await screenshot(page, testInfo, "admin-incident-banner");

  // An owner reads the same step as their own; what anyone can do reads the same for both.
  const owner = await createOwner(request);
  const context = await browser.newContext({ ...testInfo.project.use, baseURL: siteUrl() });
  try {
    const ownerPage = await context.newPage();
    await signIn(ownerPage, owner);
    const ownersBanner = ownerPage.getByRole("alert").filter({ hasText: "Leads não estão chegando ao Jetimob" });
    await expect(ownersBanner).toContainText("O que fazer: Cadastre JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY");
    await expect(ownersBanner).not.toContainText("avise o responsável");
    await expect(ownersBanner).toContainText(
      "O que fazer: Antes de falar com esses visitantes, veja no painel os dados",
    );
  } finally {
    await context.close();
  }

  // Resolved (as when the keys arrive): the banner goes at the next refresh.
  await resolveIncident();
  await page.reload();
  await panelLoaded(page);
  await expect(banner).toHaveCount(0);
});

test(
  "when the cron stops, /admin says so, since the alert e-mails stop with it",
  { tag: "@one-screen" },
  async ({ page, request }, testInfo) => {
    // An owner: the step is theirs to take.
    await signIn(page, await createOwner(request));
    await panelLoaded(page);
    const banner = page.getByRole("alert").filter({ hasText: "O envio automático está parado desde" });
    await expect(banner).toHaveCount(0);

    // Its last run was six minutes ago.
    const [{ value: ahead } = { value: 0 }] = await sql<{ value: number }>(
      "SELECT value FROM cron_state WHERE name = 'delivery_watched_at'",
    );
    await sql("UPDATE cron_state SET value = ?1 WHERE name = 'delivery_watched_at'", Date.now() - 6 * 60_000);
    try {
      await page.reload();
      await expect(banner).toBeVisible();
      await expect(banner).toContainText("O agendador do site (o Cron Trigger, que roda a cada minuto) parou");
      await expect(banner).toContainText("O que fazer: Confira nas configurações do worker, na Cloudflare");
      await screenshot(page, testInfo, "admin-cron-stopped");
    } finally {
      await sql("UPDATE cron_state SET value = ?1 WHERE name = 'delivery_watched_at'", ahead);
    }
    await page.reload();
    await panelLoaded(page);
    await expect(banner).toHaveCount(0);
  },
);

test(
  "while the e-mail API refuses, /admin says so, since the alerts go out by e-mail",
  { tag: "@one-screen" },
  async ({ page, request }, testInfo) => {
    await signIn(page, await createOwner(request));
    await panelLoaded(page);
    const banner = page.getByRole("alert").filter({ hasText: "Os e-mails do site não estão saindo" });
    await expect(banner).toHaveCount(0);

    // The latest send was refused (as the worker notes it when the API answers 401).
    await sql(
      "INSERT INTO cron_state (name, value) VALUES ('mail_failed_at', ?1) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      Date.now(),
    );
    try {
      await page.reload();
      await expect(banner).toBeVisible();
      await expect(banner).toContainText("A API de e-mail recusou o último envio");
      await expect(banner).toContainText("O que fazer: Confira MAIL_API_KEY");
      await expect(banner).toContainText("Os leads continuam chegando ao painel e ao Jetimob");
      await screenshot(page, testInfo, "admin-mail-failing");
    } finally {
      await sql("DELETE FROM cron_state WHERE name = 'mail_failed_at'");
    }
    await page.reload();
    await panelLoaded(page);
    await expect(banner).toHaveCount(0);
  },
);

test(
  "while the webhook keeps refusing, /admin says so with the alert's words",
  { tag: "@one-screen" },
  async ({ page, request }, testInfo) => {
    await signIn(page, await createOwner(request));
    await panelLoaded(page);
    const banner = page.getByRole("alert").filter({ hasText: "O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso" });
    await expect(banner).toHaveCount(0);

    // A lead's event refused three times (as the worker leaves it when the hook answers 404).
    await sql(
      `INSERT INTO webhook_events (event, payload, created_at, status, attempts, next_attempt_at, last_error)
     VALUES ('delivery.recovered', '{}', ?1, 'pending', 3, ?2, 'HTTP 404: no such hook')`,
      Date.now() - 7 * 60_000,
      Date.now() + 30 * 60_000,
    );
    try {
      await runCron();
      await page.reload();
      await expect(banner).toBeVisible();
      await expect(banner).toContainText("O que fazer: Confira se o endereço em ALERT_WEBHOOK_URL continua válido");
      await screenshot(page, testInfo, "admin-webhook-failing");
    } finally {
      await sql("DELETE FROM webhook_events WHERE last_error = 'HTTP 404: no such hook'");
      await resolveIncident();
    }
    await page.reload();
    await panelLoaded(page);
    await expect(banner).toHaveCount(0);
  },
);

/** Ends the open incident as a cron run would once its trouble is gone (its recovery e-mail counted as sent). */
function resolveIncident() {
  return sql(
    "UPDATE delivery_incidents SET resolved_at = ?1, recovery_alerted_at = ?1 WHERE resolved_at IS NULL",
    Date.now(),
  );
}
