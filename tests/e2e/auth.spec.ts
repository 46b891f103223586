import { STAFF_DOMAIN, staffEmail } from "../support/staff";
import { expect, type Page, test } from "./fixtures";
import { createStaff, expectSignedInAs, headerButton, signInThroughForm, submitLogin } from "./staff";
import { emailedLink, expectOffAndFocused, holdRequests, LEAD_SUBMIT, screenshot, sql } from "./support";

const PASSWORD = "vinho-tinto-2026";

function toast(page: Page, title: string) {
  return page.locator(".toast").filter({ hasText: title });
}

async function openSignup(page: Page) {
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Cadastrar" }).click();
  return page.getByRole("tabpanel", { name: "Cadastrar" });
}

test.describe("the /auth screen", () => {
  test("has a Login and a Cadastrar tab, the staff-only notice and a way back", async ({ page }, testInfo) => {
    await page.goto("/auth");
    await expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
    const login = page.getByRole("tabpanel", { name: "Login" });
    await expect(login.getByLabel("E-mail")).toBeVisible();
    await expect(login.getByLabel("Senha", { exact: true })).toHaveAttribute("type", "password");
    await expect(login.getByRole("button", { name: "Entrar" })).toBeVisible();
    await expect(page.getByText(`@${STAFF_DOMAIN}`)).toBeVisible();
    await screenshot(page, testInfo, "auth-login");

    const signup = await openSignup(page);
    await expect(page.getByRole("tab", { name: "Cadastrar" })).toHaveAttribute("aria-selected", "true");
    await expect(signup.getByLabel("Senha", { exact: true })).toHaveAttribute("minlength", "6");
    await expect(signup.getByLabel("Confirmar senha", { exact: true })).toHaveAttribute("minlength", "6");
    await expect(signup.getByRole("button", { name: "Criar conta" })).toBeVisible();
    await screenshot(page, testInfo, "auth-signup");

    await page.getByRole("button", { name: "Voltar ao site" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: LEAD_SUBMIT })).toBeVisible();
  });

  test("shows and hides the password", async ({ page }) => {
    await page.goto("/auth");
    const password = page.getByRole("tabpanel", { name: "Login" }).getByLabel("Senha", { exact: true });
    await password.fill("segredo");
    await page.getByRole("button", { name: "Mostrar senha" }).click();
    await expect(password).toHaveAttribute("type", "text");
    await page.getByRole("button", { name: "Ocultar senha" }).click();
    await expect(password).toHaveAttribute("type", "password");
  });
});

test.describe("sign-up messages", { tag: "@one-screen" }, () => {
  test("refuses another domain, different passwords and a short password", async ({ page }) => {
    const signup = await openSignup(page);
    await signup.evaluate((panel) => panel.querySelector("form")?.setAttribute("novalidate", ""));
    const [email, password, confirmation] = [
      signup.getByLabel("E-mail"),
      signup.getByLabel("Senha", { exact: true }),
      signup.getByLabel("Confirmar senha", { exact: true }),
    ];
    const submit = signup.getByRole("button", { name: "Criar conta" });

    await email.fill("ana@gmail.com");
    await password.fill(PASSWORD);
    await confirmation.fill(PASSWORD);
    await submit.click();
    await expect(toast(page, "Acesso Negado")).toContainText(`Apenas emails @${STAFF_DOMAIN} são permitidos`);
    // The toast goes after a few seconds; the field keeps saying it, and has the focus.
    await expect(email).toHaveAccessibleDescription(`Apenas emails @${STAFF_DOMAIN} são permitidos`);
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();

    await email.fill(staffEmail("senhas"));
    await expect(email).not.toHaveAttribute("aria-invalid", "true");
    await expect(signup.getByText(`Apenas emails @${STAFF_DOMAIN} são permitidos`)).toHaveCount(0);
    await confirmation.fill(`${PASSWORD}x`);
    await submit.click();
    await expect(toast(page, "Erro")).toContainText("As senhas não coincidem");
    await expect(confirmation).toHaveAccessibleDescription("As senhas não coincidem");
    await expect(confirmation).toBeFocused();

    // Fixed from either field: the first one is edited here.
    await password.fill("12345");
    await expect(confirmation).not.toHaveAttribute("aria-invalid", "true");
    await confirmation.fill("12345");
    await submit.click();
    await expect(toast(page, "Erro").filter({ hasText: "6 caracteres" })).toContainText(
      "A senha deve ter pelo menos 6 caracteres",
    );
    await expect(password).toHaveAccessibleDescription("A senha deve ter pelo menos 6 caracteres");
    await expect(password).toBeFocused();
    await expect(confirmation).not.toHaveAttribute("aria-invalid", "true");
  });

  test("creates the account, then says an address is already registered", async ({ page, request }, testInfo) => {
    const address = staffEmail("cadastro");
    const signup = await openSignup(page);
    await signup.getByLabel("E-mail").fill(address);
    await signup.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await signup.getByLabel("Confirmar senha", { exact: true }).fill(PASSWORD);
    const { release } = await holdRequests(page, /\/api\/auth\/signup$/);
    await signup.getByRole("button", { name: "Criar conta" }).focus();
    await page.keyboard.press("Enter");
    // On its way, the button is off and says so, and keeps the focus.
    const busy = signup.getByRole("button", { name: "Criando conta..." });
    await expectOffAndFocused(page, busy);
    release();
    await expect(toast(page, "Conta criada!")).toContainText("Verifique seu email para confirmar a conta");
    // The form is hidden for the Login tab, which takes the focus.
    await expect(page.getByRole("tab", { name: "Login" })).toBeFocused();
    await screenshot(page, testInfo, "auth-signup-success");

    const confirmed = await createStaff(request);
    const again = await openSignup(page);
    await again.getByLabel("E-mail").fill(confirmed.email);
    await again.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await again.getByLabel("Confirmar senha", { exact: true }).fill(PASSWORD);
    await again.getByRole("button", { name: "Criar conta" }).click();
    await expect(toast(page, "Erro no Cadastro")).toContainText("Este email já está cadastrado. Tente fazer login.");
    await expect(again.getByLabel("E-mail")).toHaveAccessibleDescription(
      "Este email já está cadastrado. Tente fazer login.",
    );
    await expect(again.getByLabel("E-mail")).toBeFocused();
  });

  test("says under the password that the server found it too common", async ({ page }) => {
    const signup = await openSignup(page);
    await signup.getByLabel("E-mail").fill(staffEmail("comum"));
    const password = signup.getByLabel("Senha", { exact: true });
    await password.fill("senha123");
    await signup.getByLabel("Confirmar senha", { exact: true }).fill("senha123");
    await signup.getByRole("button", { name: "Criar conta" }).click();
    await expect(toast(page, "Erro no Cadastro")).toContainText("Essa senha é muito comum. Escolha outra.");
    await expect(password).toHaveAccessibleDescription("Essa senha é muito comum. Escolha outra.");
    await expect(password).toBeFocused();
  });

  test("reports an invalid e-mail the server refused", async ({ page }) => {
    const signup = await openSignup(page);
    await signup.evaluate((panel) => panel.querySelector("form")?.setAttribute("novalidate", ""));
    await signup.getByLabel("E-mail").fill(`ana..silva@${STAFF_DOMAIN}`);
    await signup.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await signup.getByLabel("Confirmar senha", { exact: true }).fill(PASSWORD);
    await signup.getByRole("button", { name: "Criar conta" }).click();
    await expect(toast(page, "Erro no Cadastro")).toContainText("Email inválido");
    await expect(signup.getByLabel("E-mail")).toHaveAccessibleDescription("Email inválido");
  });
});

test.describe("signing in", { tag: "@one-screen" }, () => {
  test("the e-mailed link confirms the account and lands on the panel", async ({ page }) => {
    const address = staffEmail("link");
    const signup = await openSignup(page);
    await signup.getByLabel("E-mail").fill(address);
    await signup.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await signup.getByLabel("Confirmar senha", { exact: true }).fill(PASSWORD);
    await signup.getByRole("button", { name: "Criar conta" }).click();
    await expect(toast(page, "Conta criada!")).toBeVisible();

    await page.goto(await emailedLink(address));
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("heading", { name: "Confirmar cadastro" })).toBeVisible();
    await page.getByLabel("Senha", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Confirmar e entrar" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expectSignedInAs(page, address);
  });

  test("a wrong password shows the server's message", async ({ page, request }) => {
    const staff = await createStaff(request);
    await page.goto("/auth");
    await submitLogin(page, staff.email, "senha-errada");
    await expect(toast(page, "Erro no Login")).toContainText("E-mail ou senha incorretos.");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("the right password says so and opens the panel", async ({ page, request }, testInfo) => {
    const staff = await createStaff(request);
    await page.goto("/auth");
    const { release } = await holdRequests(page, /\/api\/auth\/login$/);
    const login = page.getByRole("tabpanel", { name: "Login" });
    await login.getByLabel("E-mail").fill(staff.email);
    await login.getByLabel("Senha", { exact: true }).fill(staff.password);
    await login.getByRole("button", { name: "Entrar" }).focus();
    await page.keyboard.press("Enter");
    // On its way, 'Entrando...' is off and keeps the focus.
    const busy = login.getByRole("button", { name: "Entrando..." });
    await expectOffAndFocused(page, busy);
    release();
    // The toast shows for 6 seconds: looked for first, before the panel's code has loaded.
    await expect(toast(page, "Login realizado com sucesso!")).toBeVisible();
    await expect(page).toHaveURL(/\/admin$/);
    // The panel starts the keyboard and the screen reader at its heading.
    await expect(page.getByRole("heading", { name: "Painel Administrativo" })).toBeFocused();
    await expectSignedInAs(page, staff.email);
    await screenshot(page, testInfo, "admin-signed-in");
  });
});

test.describe("redirects", { tag: "@one-screen" }, () => {
  test("/admin without a session checks, then goes to /auth", async ({ page }) => {
    const { release } = await holdRequests(page, "**/api/auth/refresh");
    // The prerendered page already says it; the held question proves the script is the one waiting.
    const asked = page.waitForRequest("**/api/auth/refresh");
    await page.goto("/admin");
    await asked;
    await expect(page.getByText("Verificando autenticação...")).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("tab", { name: "Login" })).toBeVisible();
  });

  test("/auth with a session shows the redirect spinner and goes to /admin", async ({ page, request }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    await expect(page).toHaveURL(/\/admin$/);
    // The panel's code is held back until the spinner has been seen.
    const { release } = await holdRequests(page, "**/assets/AdminPage-*.js");
    await page.goto("/auth");
    await expect(page.getByText("Redirecionando para o painel...")).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/admin$/);
    await expectSignedInAs(page, staff.email);
  });

  test("a refresh whose answer is lost after the worker replaced the cookie is asked again in time, and the session lives on", async ({
    page,
    request,
  }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    // The reload's refresh reaches the worker, which replaces the cookie, but
    // its answer never reaches the browser (a phone between two antennas).
    let lost = 0;
    await page.route("**/api/auth/refresh", async (route) => {
      if (lost === 0) {
        lost += 1;
        await route.fetch();
        await route.abort("connectionreset");
        return;
      }
      await route.continue();
    });
    await page.reload();
    await expectSignedInAs(page, staff.email);
    expect(lost).toBe(1);
    const revoked = await sql(
      "SELECT s.id FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id WHERE u.email = ?1 AND s.revoked_at IS NOT NULL",
      staff.email,
    );
    expect(revoked).toEqual([]);
    await page.unroute("**/api/auth/refresh");
    await page.reload();
    await expectSignedInAs(page, staff.email);
  });

  test("a reload of /admin keeps the session", async ({ page, request }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    await page.reload();
    await expectSignedInAs(page, staff.email);
  });
});

test.describe("signing out", { tag: "@one-screen" }, () => {
  test("clears stored authentication data and the panel's memory, ends the session and returns to /auth", async ({
    page,
    request,
  }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    await page.evaluate(() => {
      localStorage.setItem("sb-old-auth-token", "stale");
      sessionStorage.setItem("auth-session", "stale");
      // What the panel keeps for the tab: the list's view (a search may be a name), its page starts.
      sessionStorage.setItem("leads-list-view", "?q=Maria+Silva");
      sessionStorage.setItem("leads-page-starts", "[]");
      localStorage.setItem("unrelated", "kept");
    });
    await (await headerButton(page, "Sair")).click();
    await expect(page).toHaveURL(/\/auth$/);
    const storage = await page.evaluate(() => ({ ...localStorage, ...sessionStorage }));
    expect(storage).toEqual({ unrelated: "kept" });

    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth$/);
  });

  test("when 'Sair' does not reach the worker, this browser stays signed out and sends it again on the next visit", async ({
    page,
    request,
  }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    const liveSessions = () =>
      sql<{ n: number }>(
        "SELECT count(*) AS n FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id WHERE u.email = ?1 AND s.revoked_at IS NULL",
        staff.email,
      );
    await page.route("**/api/auth/logout", (route) => route.abort("internetdisconnected"));
    const refreshes: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/auth/refresh")) refreshes.push(r.url());
    });
    await (await headerButton(page, "Sair")).click();
    await expect(page).toHaveURL(/\/auth$/);
    expect((await liveSessions())[0]?.n).toBeGreaterThan(0);

    // The next person at this computer, still offline for the worker's sign-out.
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth$/);
    expect(refreshes).toEqual([]);

    // Back online: opening the panel again ends the session on the worker.
    await page.unroute("**/api/auth/logout");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/auth$/);
    await expect.poll(liveSessions).toEqual([{ n: 0 }]);
    expect(refreshes).toEqual([]);

    await signInThroughForm(page, staff);
    await page.reload();
    await expectSignedInAs(page, staff.email);
  });

  test("a refresh still on its way when 'Sair' did not reach the worker does not sign the browser back in", async ({
    page,
    request,
  }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    await page.route("**/api/auth/logout", (route) => route.abort("internetdisconnected"));
    const refresh = await holdRequests(page, "**/api/auth/refresh");
    // The list's next reload finds its token refused: the panel asks for a new one, which is held.
    await page.route(/\/api\/leads(\?|$)/, (route) => route.fulfill({ status: 401, body: '{"success":false}' }));
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await expect.poll(() => refresh.requested.length).toBe(1);

    await (await headerButton(page, "Sair")).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.unroute(/\/api\/leads(\?|$)/);
    // The panel waits for a refresh's answer, and reads it, holding the tabs' refresh lock
    // (Web Locks): the lock is ours once it has, and a sign-in it made would have sent this
    // page to /admin by then.
    const lock = "staff-session-refresh";
    const held = await page.evaluate(async () => (await navigator.locks.query()).held?.map((l) => l.name));
    expect(held).toContain(lock);
    const answered = page.waitForResponse("**/api/auth/refresh");
    refresh.release();
    expect((await answered).status()).toBe(200);
    const where = await page.evaluate((name) => navigator.locks.request(name, () => window.location.pathname), lock);
    expect(where).toBe("/auth");
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("tab", { name: "Login" })).toBeVisible();
  });

  test("in one tab signs the other tabs out too", async ({ page, context, request }) => {
    const staff = await createStaff(request);
    await signInThroughForm(page, staff);
    const other = await context.newPage();
    await other.clock.install();
    await other.goto("/admin");
    await expectSignedInAs(other, staff.email);
    // The clock stands still (the browser context's, so in both tabs): no
    // 30-second session check can fire, so only the first tab's message can
    // sign the other out.
    await other.clock.pauseAt(Date.now() + 5_000);

    await (await headerButton(page, "Sair")).click();
    await expect(other).toHaveURL(/\/auth$/);
  });
});
