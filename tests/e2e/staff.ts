import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { uniqueIp } from "../support/leads";
import { staffEmail } from "../support/staff";
import { emailedLink, siteUrl, sql } from "./support";

export type Staff = { email: string; password: string };

/**
 * Signs `email` up through the API; the confirmation link is e-mailed, not
 * opened. Answers the request headers, for the calls that follow.
 */
export async function signUp(
  request: APIRequestContext,
  email: string,
  password = "vinho-tinto-2026",
): Promise<Record<string, string>> {
  // Each account is created from its own address, as different people would.
  const headers = { Origin: siteUrl(), "CF-Connecting-IP": uniqueIp() };
  const signup = await request.post("/api/auth/signup", { data: { email, password }, headers });
  expect(signup.status(), await signup.text()).toBe(200);
  return headers;
}

/** A confirmed staff account, made through the API and the e-mailed link. */
export async function createStaff(
  request: APIRequestContext,
  password = "vinho-tinto-2026",
  email = staffEmail("painel"),
): Promise<Staff> {
  const headers = await signUp(request, email, password);
  const token = new URL(await emailedLink(email)).searchParams.get("confirmar");
  const confirm = await request.post("/api/auth/confirm", { data: { token, password }, headers });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return { email, password };
}

/** A confirmed account that an owner of the panel holds. */
export async function createOwner(request: APIRequestContext): Promise<Staff> {
  const owner = await createStaff(request);
  await sql("UPDATE staff_users SET role = 'owner' WHERE email = ?1", owner.email);
  return owner;
}

/** A confirmed account of a colleague, not an owner (the first account confirmed may have become one). */
export async function createColleague(request: APIRequestContext): Promise<Staff> {
  const colleague = await createStaff(request);
  await sql("UPDATE staff_users SET role = 'staff' WHERE email = ?1", colleague.email);
  return colleague;
}

/** Fills the /auth page's Login form, already on screen, and presses 'Entrar'. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const login = page.getByRole("tabpanel", { name: "Login" });
  await login.getByLabel("E-mail").fill(email);
  await login.getByLabel("Senha", { exact: true }).fill(password);
  await login.getByRole("button", { name: "Entrar" }).click();
}

/**
 * Opens the header's 'Menu' where it is folded (a phone), so the person, the
 * switch, 'Alterar senha' and 'Sair' are on screen; does nothing on a desk.
 */
export async function openStaffMenu(page: Page): Promise<void> {
  // The header is drawn once the session is known (after a reload too): only then is there a 'Menu' to see.
  await expect(page.getByText(/Logado como /).first()).toBeAttached();
  const toggle = page.getByRole("button", { name: "Menu" });
  if ((await toggle.isVisible()) && (await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
}

/** The header says who is signed in (its 'Menu' opened first on a phone). */
export async function expectSignedInAs(page: Page, email: string): Promise<void> {
  await expect(page.getByText(`Logado como ${email}`)).toBeAttached();
  await openStaffMenu(page);
  await expect(page.getByText(`Logado como ${email}`)).toBeVisible();
}

/** A button of the header ('Sair', 'Alterar senha'), its 'Menu' opened first on a phone. */
export async function headerButton(page: Page, name: string) {
  await openStaffMenu(page);
  return page.getByRole("button", { name });
}

/** Signs in through the /auth page, as a person does, and waits for the panel (the sign-in's own tests). */
export async function signInThroughForm(page: Page, staff: Staff): Promise<void> {
  await page.goto("/auth");
  await submitLogin(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText(`Logado como ${staff.email}`)).toBeAttached();
}

/**
 * Signs in from `page`'s own browser through the API (its refresh cookie
 * lands in the page's cookies), then opens the panel: for tests about the
 * panel, which need a session, not the /auth page once more. Each call is
 * its own session: refresh tokens rotate, and a saved one presented again
 * would end the session it belongs to.
 */
export async function signIn(page: Page, staff: Staff, path = "/admin"): Promise<void> {
  const answer = await page.request.post("/api/auth/login", {
    data: { email: staff.email, password: staff.password },
    headers: { Origin: siteUrl() },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await page.goto(path);
  await expect(page.getByText(`Logado como ${staff.email}`)).toBeAttached();
}
