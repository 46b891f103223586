import { expect } from "vitest";
import { type App, spawnApp } from "./app";
import { FakeService, type Responder } from "./fake-http";
import { FakeJetimob } from "./fake-jetimob";
import { FakeMail, type SentMail } from "./fake-mail";
import { solvedAnswer, solvedToken } from "./fake-turnstile";
import { aLead, ownBrowser, postLead } from "./leads";
import { eventually } from "./net";
import { StaffClient, signedInStaff, staffEmail } from "./staff";

// The alert tests' sites (delivery-alerts, webhook-alerts, site-alerts): a
// worker with a fake Jetimob and e-mail API (and a webhook receiver or
// Turnstile when asked), its owner and a colleague signed in, and what the
// tests read of it: the alerts' subjects, /api/health, the panel's banner.

export const ALERT = "Leads não estão chegando ao Jetimob";
/** The alert's subject when only visitors' corrections are stuck, or only the form refuses visitors. */
export const CORRECTIONS_ALERT = "Correções de leads não estão chegando ao Jetimob";
export const FORM_ALERT = "O formulário do site está recusando visitantes";
export const RECOVERED = "Entrega ao Jetimob normalizada";
/** The recovery's subject speaks of what the alert named. */
export const CORRECTIONS_RECOVERED = "Correções de leads normalizadas";
export const FORM_RECOVERED = "Formulário do site normalizado";
export const WEBHOOK_ALERT = "O webhook do site não está recebendo os avisos";
export const WEBHOOK_RECOVERED = "Webhook do site normalizado";
export const MINUTE = 60_000;

export type Scenario = {
  app: App;
  mail: FakeMail;
  jetimob: FakeJetimob;
  /** The webhook's endpoint, when the scenario has one (ALERT_WEBHOOK_URL). */
  hook: FakeService | null;
  owner: { client: StaffClient; email: string };
  colleague: { client: StaffClient; email: string };
};

const running: (() => Promise<void>)[] = [];

export async function scenario(options: { keys: boolean; webhook?: Responder }): Promise<Scenario> {
  const mail = await new FakeMail().start();
  const jetimob = await new FakeJetimob().start();
  const hook = options.webhook ? await new FakeService(options.webhook).start() : null;
  // Without the keys, delivery is off.
  const jetimobSettings = options.keys ? jetimob.settings() : { JETIMOB_BASE_URL: jetimob.url };
  const hookSettings: Record<string, string> = hook ? { ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads` } : {};
  const app = await spawnApp({ vars: { ...mail.settings(), ...jetimobSettings, ...hookSettings } });
  running.push(async () => {
    await app.stop();
    await Promise.all([jetimob.stop(), mail.stop(), hook?.stop()]);
  });
  const owner = await signedInStaff(app, mail);
  const colleague = await signedInStaff(app, mail);
  return { app, mail, jetimob, hook, owner, colleague };
}

/** A scenario with Jetimob's keys whose webhook answers with `webhook`. */
export async function withWebhook(webhook: Responder): Promise<Scenario & { hook: FakeService }> {
  const s = await scenario({ keys: true, webhook });
  if (!s.hook) throw new Error("no webhook started");
  return { ...s, hook: s.hook };
}

export function subjects(mails: SentMail[]): string[] {
  return mails
    .map((m) => m.subject)
    .filter((s) =>
      [
        ALERT,
        CORRECTIONS_ALERT,
        FORM_ALERT,
        WEBHOOK_ALERT,
        RECOVERED,
        CORRECTIONS_RECOVERED,
        FORM_RECOVERED,
        WEBHOOK_RECOVERED,
      ].includes(s),
    );
}

export async function submit(app: App, lead = aLead()) {
  expect((await postLead(app, lead, { browser: ownBrowser(lead) })).status).toBe(200);
  return String(lead.email);
}

export async function attempted(app: App, email: string, attempts = 1) {
  await eventually(async () => {
    const [row] = await app.sql<{ delivery_attempts: number; lease_until: number | null }>(
      "SELECT delivery_attempts, lease_until FROM leads WHERE email = ?1",
      email,
    );
    return row && row.delivery_attempts >= attempts && row.lease_until === null ? row : undefined;
  }, 15_000);
}

export async function health(app: App) {
  const answer = await fetch(`${app.baseUrl}/api/health`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown>, headers: answer.headers };
}

/** /api/health once it answers `status` (each isolate keeps an answer for 10 s). */
export function healthOnceItAnswers(app: App, status: 200 | 503) {
  return eventually(async () => {
    const h = await health(app);
    return h.status === status ? h : undefined;
  }, 15_000);
}

/** The panel's list as the owner sees it: its `incident`. */
export async function banner(s: Pick<Scenario, "owner">) {
  const list = await s.owner.client.call("GET", "/api/leads");
  expect(list.status).toBe(200);
  return list.body.incident as {
    summary: string;
    details: { what: string; todo: string; owners: boolean }[];
    kept: string;
  } | null;
}

export async function cronRuns(app: App, times: number) {
  await Promise.all(Array.from({ length: times }, () => app.runCron()));
  for (let i = 0; i < times; i++) await app.runCron();
}

export const TURNSTILE_TOKEN = solvedToken("127.0.0.1", "lead");
export const SIGNUP_TOKEN = solvedToken("127.0.0.1", "signup");

/** Turnstile's answer when the check passes: where and for which form the token was solved. */
export const passing = solvedAnswer;

/** A site with Turnstile on (its verification a fake that passes until told otherwise), and its owner. */
export async function withTurnstile() {
  const siteverify = await new FakeService(passing).start();
  const mail = await new FakeMail().start();
  const jetimob = await new FakeJetimob().start();
  const app = await spawnApp({
    vars: {
      ...mail.settings(),
      ...jetimob.settings(),
      TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
      TURNSTILE_SECRET_KEY: "chave-secreta-do-site",
      TURNSTILE_VERIFY_URL: `${siteverify.url}/turnstile/v0/siteverify`,
    },
  });
  running.push(async () => {
    await app.stop();
    await Promise.all([jetimob.stop(), mail.stop(), siteverify.stop()]);
  });
  // The owner signs up while the check works (sign-up is behind it too).
  const client = new StaffClient(app);
  const email = staffEmail("responsavel");
  const body = { email, password: "vinho-tinto-2026", turnstile_token: SIGNUP_TOKEN };
  expect((await client.call("POST", "/api/auth/signup", body)).status).toBe(200);
  expect((await client.confirm(mail.confirmationToken(email), "vinho-tinto-2026")).status).toBe(200);
  return { app, mail, jetimob, siteverify, owner: { client, email } };
}

/** Has `stop` run after the test (its own site, started outside {@link scenario}). */
export function stopAfterTest(stop: () => Promise<void>): void {
  running.push(stop);
}

/** Stops every scenario started since the last call (each test file's afterEach and afterAll). */
export async function stopScenarios(): Promise<void> {
  while (running.length) await running.pop()?.();
}
