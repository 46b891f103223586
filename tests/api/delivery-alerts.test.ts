import { createHmac } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { cronRowCounts } from "../../scripts/local-worker.mjs";
import { nothingDueUntilTomorrow, seedLeadsThrough } from "../../scripts/seed-leads.mjs";
import { type App, spawnApp } from "../support/app";
import { FakeService, type Responder } from "../support/fake-http";
import { accepted, FakeJetimob, refused } from "../support/fake-jetimob";
import { FakeMail, type SentMail } from "../support/fake-mail";
import { solvedAnswer, solvedToken } from "../support/fake-turnstile";
import { ageDelivery, aLead, ownBrowser, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { StaffClient, signedInStaff, staffEmail } from "../support/staff";

// Delivery trouble: the cron watches whether leads reach Jetimob and tells
// the owners once when they stop ('Leads não estão chegando ao Jetimob') and
// once when they start again ('Entrega ao Jetimob normalizada'); the panel
// shows a banner meanwhile and /api/health answers 503.
const ALERT = "Leads não estão chegando ao Jetimob";
/** The alert's subject when only visitors' corrections are stuck, or only the form refuses visitors. */
const CORRECTIONS_ALERT = "Correções de leads não estão chegando ao Jetimob";
const FORM_ALERT = "O formulário do site está recusando visitantes";
const RECOVERED = "Entrega ao Jetimob normalizada";
/** The recovery's subject speaks of what the alert named. */
const CORRECTIONS_RECOVERED = "Correções de leads normalizadas";
const FORM_RECOVERED = "Formulário do site normalizado";
const WEBHOOK_ALERT = "O webhook do site não está recebendo os avisos";
const WEBHOOK_RECOVERED = "Webhook do site normalizado";
const MINUTE = 60_000;

type Scenario = {
  app: App;
  mail: FakeMail;
  jetimob: FakeJetimob;
  /** The webhook's endpoint, when the scenario has one (ALERT_WEBHOOK_URL). */
  hook: FakeService | null;
  owner: { client: StaffClient; email: string };
  colleague: { client: StaffClient; email: string };
};

const running: (() => Promise<void>)[] = [];

async function scenario(options: { keys: boolean; webhook?: Responder }): Promise<Scenario> {
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
async function withWebhook(webhook: Responder): Promise<Scenario & { hook: FakeService }> {
  const s = await scenario({ keys: true, webhook });
  if (!s.hook) throw new Error("no webhook started");
  return { ...s, hook: s.hook };
}

afterEach(async () => {
  while (running.length) await running.pop()?.();
});

afterAll(async () => {
  while (running.length) await running.pop()?.();
});

function subjects(mails: SentMail[]): string[] {
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

async function submit(app: App, lead = aLead()) {
  expect((await postLead(app, lead, { browser: ownBrowser(lead) })).status).toBe(200);
  return String(lead.email);
}

async function attempted(app: App, email: string, attempts = 1) {
  await eventually(async () => {
    const [row] = await app.sql<{ delivery_attempts: number; lease_until: number | null }>(
      "SELECT delivery_attempts, lease_until FROM leads WHERE email = ?1",
      email,
    );
    return row && row.delivery_attempts >= attempts && row.lease_until === null ? row : undefined;
  }, 15_000);
}

async function health(app: App) {
  const answer = await fetch(`${app.baseUrl}/api/health`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown>, headers: answer.headers };
}

/** /api/health once it answers `status` (each isolate keeps an answer for 10 s). */
function healthOnceItAnswers(app: App, status: 200 | 503) {
  return eventually(async () => {
    const h = await health(app);
    return h.status === status ? h : undefined;
  }, 15_000);
}

/** The panel's list as the owner sees it: its `incident`. */
async function banner(s: Pick<Scenario, "owner">) {
  const list = await s.owner.client.call("GET", "/api/leads");
  expect(list.status).toBe(200);
  return list.body.incident as {
    summary: string;
    details: { what: string; todo: string; owners: boolean }[];
    kept: string;
  } | null;
}

async function cronRuns(app: App, times: number) {
  await Promise.all(Array.from({ length: times }, () => app.runCron()));
  for (let i = 0; i < times; i++) await app.runCron();
}

describe("Jetimob refusing our keys", () => {
  it("sends the owners one alert however many cron runs see it, shows the banner, and one e-mail when it recovers", async () => {
    const s = await scenario({ keys: true });
    expect(await health(s.app)).toMatchObject({
      status: 200,
      body: { status: "ok", database: "ok", crm: "configured", oldest_pending_minutes: 0 },
    });
    s.jetimob.answerEveryone(refused(401, { error: "invalid key" }));
    const email = await submit(s.app);
    await attempted(s.app, email);

    await cronRuns(s.app, 6);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT]);
    expect(subjects(s.mail.messagesTo(s.colleague.email))).toEqual([]);
    const [alert] = s.mail.messagesTo(s.owner.email).filter((m) => m.subject === ALERT);
    expect(alert?.text).toMatch(
      /^Leads não estão chegando ao Jetimob desde \d\d\/\d\d\/\d{4} \d\d:\d\d\. 1 lead esperando envio\./,
    );
    expect(alert?.text).toContain("O Jetimob recusou as chaves de acesso da integração (HTTP 401/403).");
    expect(alert?.text).toContain("O que fazer: Confira JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY");

    const shown = await banner(s);
    expect(alert?.text.startsWith(shown?.summary ?? "?")).toBe(true);
    expect(shown?.kept).toBe(
      "Nenhum lead se perde: todos ficam guardados no painel e são enviados ao Jetimob assim que possível.",
    );
    expect(shown?.details.map((d) => d.what)).toEqual([
      "O Jetimob recusou as chaves de acesso da integração (HTTP 401/403).",
    ]);
    const degraded = await healthOnceItAnswers(s.app, 503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "ok", crm: "configured" });
    expect(String(degraded.body.reason)).toContain("keys_refused");

    // The keys are fixed: the waiting lead goes at its next try, and the owners hear it once.
    s.jetimob.answerEveryone(accepted());
    await s.app.sql("UPDATE leads SET next_attempt_at = 0 WHERE email = ?1", email);
    await cronRuns(s.app, 4);
    const [row] = await s.app.sql<{ delivery_status: string }>(
      "SELECT delivery_status FROM leads WHERE email = ?1",
      email,
    );
    expect(row?.delivery_status).toBe("sent");
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, RECOVERED]);
    const [recovery] = s.mail.messagesTo(s.owner.email).filter((m) => m.subject === RECOVERED);
    expect(recovery?.text).toMatch(
      /os leads voltaram a chegar ao Jetimob \(o problema começou em \d\d\/\d\d\/\d{4} \d\d:\d\d\)/,
    );
    expect(await banner(s)).toBeNull();
    await healthOnceItAnswers(s.app, 200);
  });

  it("alerts once an hour at most when delivery flaps: the banner shows the new incident at once", async () => {
    const s = await scenario({ keys: true });
    s.jetimob.answerEveryone(refused(403));
    const first = await submit(s.app);
    await attempted(s.app, first);
    await s.app.runCron();
    s.jetimob.answerEveryone(accepted());
    await s.app.sql("UPDATE leads SET next_attempt_at = 0");
    await s.app.runCron();
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, RECOVERED]);

    // Refused again minutes later: the banner says so, the owners' inbox waits.
    s.jetimob.answerEveryone(refused(401));
    const second = await submit(s.app);
    await attempted(s.app, second);
    await cronRuns(s.app, 3);
    expect((await banner(s))?.summary).toMatch(/^Leads não estão chegando ao Jetimob desde/);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, RECOVERED]);

    // An hour after the first alert (the clock moved), the second one goes.
    await s.app.sql(
      "UPDATE delivery_incidents SET alerted_at = alerted_at - ?1 WHERE alerted_at IS NOT NULL",
      61 * MINUTE,
    );
    await cronRuns(s.app, 3);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, RECOVERED, ALERT]);
  });
});

describe("a lead waiting more than 15 minutes", () => {
  it("is an incident: the owners hear it once, with how long and what to do", async () => {
    const s = await scenario({ keys: true });
    s.jetimob.answerEveryone(refused(500, { error: "manutenção" }));
    const email = await submit(s.app);
    await attempted(s.app, email);
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([]);
    expect(await banner(s)).toBeNull();

    // Sixteen minutes pass (the lead's clock moved back, not waited for).
    await s.app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 16 * MINUTE, email);
    await cronRuns(s.app, 3);
    const alerts = s.mail.messagesTo(s.owner.email).filter((m) => m.subject === ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain("Há leads esperando há mais de 15 minutos para chegar ao Jetimob.");
    expect(alerts[0]?.text).toContain("O que fazer: Veja no painel o último erro dos leads pendentes.");
    const degraded = await healthOnceItAnswers(s.app, 503);
    expect(degraded.body.oldest_pending_minutes).toBeGreaterThanOrEqual(16);
    expect(String(degraded.body.reason)).toContain("backlog");
  });
});

describe("a lead given up after a week of refusals", () => {
  it("keeps the incident open, with no 'normalizada', until a person acts on it", async () => {
    const s = await scenario({ keys: true });
    s.jetimob.answerEveryone(refused(422, { error: "telefone inválido" }));
    const email = await submit(s.app);
    await attempted(s.app, email);
    await s.app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 16 * MINUTE, email);
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT]);

    // A week later (the clock moved) its last attempt is refused too, and it is given up.
    await ageDelivery(s.app, email, 7 * 24 * 60 * MINUTE);
    await cronRuns(s.app, 3);
    const [lead] = await s.app.sql<{ id: string; delivery_status: string }>(
      "SELECT id, delivery_status FROM leads WHERE email = ?1",
      email,
    );
    expect(lead?.delivery_status).toBe("failed");
    // Its retries are over: the owners hear that it now waits for a person.
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, ALERT]);
    const alerts = () => s.mail.messagesTo(s.owner.email).filter((m) => m.subject === ALERT);
    expect(alerts()[1]?.text).toContain("Há leads que o Jetimob não aceitou em 7 dias de tentativas");
    expect(alerts()[1]?.text).not.toContain("Há leads esperando há mais de 15 minutos");
    const shown = await banner(s);
    expect(shown?.summary).toMatch(/^Leads não estão chegando ao Jetimob desde/);
    expect(shown?.details.map((d) => d.what)).toEqual([
      "Há leads que o Jetimob não aceitou em 7 dias de tentativas: eles não estão no Jetimob e não serão mais enviados sozinhos.",
    ]);
    expect(shown?.details.map((d) => d.todo).join(" ")).toContain("em 'Falharam', o último erro de cada um");
    expect((await health(s.app)).status).toBe(503);

    // Nobody acts on it. Much later Jetimob stops taking leads at all: the
    // incident it keeps open must not hide this outage. Its backlog, named
    // by the first alert and ended since, is heard again (an hour after
    // the last alert at most).
    const later = await submit(s.app);
    await attempted(s.app, later);
    await s.app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 16 * MINUTE, later);
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, ALERT]);
    await s.app.sql("UPDATE delivery_incidents SET alerted_at = alerted_at - ?1", 61 * MINUTE);
    await cronRuns(s.app, 3);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, ALERT, ALERT]);
    expect(alerts()[2]?.text).toContain("Há leads esperando há mais de 15 minutos");

    // Someone fixes it in Jetimob and presses 'Reenviar' on each: now it is over.
    s.jetimob.answerEveryone(accepted());
    const [waiting] = await s.app.sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", later);
    for (const id of [lead?.id, waiting?.id]) {
      expect((await s.owner.client.call("POST", `/api/leads/${id}/resend`, {})).body).toMatchObject({
        delivered: true,
      });
    }
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT, ALERT, ALERT, RECOVERED]);
    expect(await banner(s)).toBeNull();
  });
});

describe("a visitor's correction that has not reached Jetimob in 15 minutes", () => {
  const CORRECTIONS = "Há correções de visitantes esperando há mais de 15 minutos para chegar ao Jetimob";

  it("is an incident while it is retried and after it is given up, until a person acts on it", async () => {
    const s = await scenario({ keys: true });
    const lead = aLead();
    const email = await submit(s.app, lead);
    await attempted(s.app, email);
    // Jetimob has the lead; then it refuses the visitor's new number.
    s.jetimob.answerEveryone(refused(500, { error: "manutenção" }));
    await submit(s.app, { ...lead, whatsapp: "(49) 98877-6655" });
    const correcting = async (attempts: number) =>
      eventually(async () => {
        const [row] = await s.app.sql<{ id: string; update_attempts: number; update_lease_until: number | null }>(
          "SELECT id, update_attempts, update_lease_until FROM leads WHERE email = ?1",
          email,
        );
        return row && row.update_attempts >= attempts && row.update_lease_until === null ? row : undefined;
      }, 15_000);
    const { id } = await correcting(1);
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([]);
    expect(await banner(s)).toBeNull();

    // Sixteen minutes pass (the correction's clock moved back, not waited for).
    await s.app.sql(
      "UPDATE leads SET update_requested_at = update_requested_at - ?1 WHERE email = ?2",
      16 * MINUTE,
      email,
    );
    await cronRuns(s.app, 3);
    // Leads reach Jetimob: the subject and the banner say it is the corrections.
    const alerts = s.mail.messagesTo(s.owner.email).filter((m) => m.subject === CORRECTIONS_ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain(
      `${CORRECTIONS}: lá, esses leads ainda estão com os dados antigos (nome, e-mail ou WhatsApp).`,
    );
    expect(alerts[0]?.text).toContain(
      "O que fazer: Antes de falar com esses visitantes, veja no painel os dados que eles corrigiram.",
    );
    expect(alerts[0]?.text).not.toContain("Há leads esperando");
    expect(alerts[0]?.text).toMatch(
      /^Correções de leads não estão chegando ao Jetimob desde \d\d\/\d\d\/\d{4} \d\d:\d\d\./,
    );
    const shown = await banner(s);
    expect(shown?.summary).toMatch(/^Correções de leads não estão chegando ao Jetimob desde/);
    expect(shown?.details.map((d) => d.what)).toEqual([
      `${CORRECTIONS}: lá, esses leads ainda estão com os dados antigos (nome, e-mail ou WhatsApp).`,
    ]);
    const degraded = await healthOnceItAnswers(s.app, 503);
    expect(degraded.body.oldest_correction_minutes).toBeGreaterThanOrEqual(16);
    expect(degraded.body.oldest_pending_minutes).toBe(0);
    expect(String(degraded.body.reason)).toContain("corrections");

    // A week later (the clock moved) its last attempt is refused too: given up, still open.
    await ageDelivery(s.app, email, 7 * 24 * 60 * MINUTE, "update");
    await cronRuns(s.app, 3);
    const [row] = await s.app.sql<{ update_status: string }>("SELECT update_status FROM leads WHERE id = ?1", id);
    expect(row?.update_status).toBe("failed");
    expect((await banner(s))?.details.map((d) => d.todo).join(" ")).toContain("'Precisam de atenção'");
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([CORRECTIONS_ALERT]);

    // Someone enters the new number in Jetimob and presses 'Marcar Enviado': over.
    expect((await s.owner.client.call("POST", `/api/leads/${id}/mark-sent`, {})).status).toBe(200);
    await cronRuns(s.app, 2);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([CORRECTIONS_ALERT, CORRECTIONS_RECOVERED]);
    const recovery = s.mail.messagesTo(s.owner.email).find((m) => m.subject === CORRECTIONS_RECOVERED);
    expect(recovery?.text).toMatch(
      /^Correções de leads normalizadas: nenhuma correção de visitante espera mais para chegar ao Jetimob \(o problema começou em \d\d\/\d\d\/\d{4} \d\d:\d\d\)\./,
    );
    expect(await banner(s)).toBeNull();
  });
});

describe("delivery off (no Jetimob keys) while leads wait", () => {
  it("is an incident too, and /api/health says so without a word about any lead", async () => {
    const s = await scenario({ keys: false });
    const fine = await health(s.app);
    expect(fine.status).toBe(200);
    expect(fine.body).toEqual({
      status: "ok",
      database: "ok",
      crm: "off",
      waiting: 0,
      oldest_pending_minutes: 0,
      oldest_correction_minutes: 0,
      last_watch_minutes: null,
    });
    expect(Number(fine.headers.get("cache-control")?.match(/max-age=(\d+)/)?.[1])).toBeLessThanOrEqual(10);

    const lead = aLead({ name: "Sem Chaves" });
    await submit(s.app, lead);
    await cronRuns(s.app, 3);
    const alerts = s.mail.messagesTo(s.owner.email).filter((m) => m.subject === ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain(
      "A entrega ao Jetimob está desligada: as chaves da integração não estão configuradas.",
    );
    expect((await banner(s))?.details[0]?.todo).toContain("Cadastre JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY");

    const degraded = await healthOnceItAnswers(s.app, 503);
    expect(degraded.body).toMatchObject({ status: "degraded", database: "ok", crm: "off" });
    const said = JSON.stringify(degraded.body);
    expect(said).not.toContain("Sem Chaves");
    expect(said).not.toContain(String(lead.email));
  });

  it("reaches no owner whose account is switched off", async () => {
    const s = await scenario({ keys: false });
    const second = await signedInStaff(s.app, s.mail);
    const [account] = await s.app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", second.email);
    expect((await s.owner.client.call("POST", `/api/staff/${account?.id}/make-owner`, {})).status).toBe(200);
    expect((await s.owner.client.call("POST", `/api/staff/${account?.id}/disable`, {})).status).toBe(200);
    await submit(s.app);
    await s.app.runCron();
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT]);
    expect(subjects(s.mail.messagesTo(second.email))).toEqual([]);
  });
});

describe("an alert the e-mail API refuses for one owner", () => {
  /** A scenario whose three owners are `owners`; the second one's copies are answered by `refuse` (null: taken). */
  async function threeOwners(refuse: () => { status: number; body: Record<string, unknown> } | null) {
    const s = await scenario({ keys: false });
    const owners = [s.owner.email];
    for (let i = 0; i < 2; i++) {
      const next = await signedInStaff(s.app, s.mail);
      const [account] = await s.app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", next.email);
      expect((await s.owner.client.call("POST", `/api/staff/${account?.id}/make-owner`, {})).status).toBe(200);
      owners.push(next.email);
    }
    const [first, refusedOwner, third] = owners as [string, string, string];
    const mail = (request: { body: Buffer }) => JSON.parse(request.body.toString()) as SentMail;
    const taken: SentMail[] = [];
    s.mail.respondWith((request) => {
      const refusal = mail(request).to[0] === refusedOwner ? refuse() : null;
      if (!refusal) taken.push(mail(request));
      return refusal ?? { status: 200, body: { id: "mail-ok" } };
    });
    /** The alert e-mails the e-mail API took for `address`. */
    const alertsTo = (address: string) => subjects(taken.filter((m) => m.to[0] === address));
    /** How often the e-mail API was asked to send `address` an alert, taken or not. */
    const triesFor = (address: string) => subjects(s.mail.received.map(mail).filter((m) => m.to[0] === address)).length;
    return { ...s, first, refusedOwner, third, alertsTo, triesFor };
  }

  /** Each address's `alert_missed_at` as an owner reads 'Equipe'. */
  async function missedAlerts(s: { owner: { client: StaffClient } }) {
    const { body } = await s.owner.client.call("GET", "/api/staff");
    const accounts = body.accounts as { email: string; alert_missed_at: string | null }[];
    return Object.fromEntries(accounts.map((a) => [a.email, a.alert_missed_at]));
  }

  /** Time passes until every copy waiting for a retry is due. */
  async function retriesDue(app: App) {
    await app.sql("UPDATE alert_mails SET next_attempt_at = 0 WHERE status = 'pending'");
  }

  it("reaches that owner once the API takes it, and is not sent again to those it reached", async () => {
    let down = true;
    const s = await threeOwners(() => (down ? { status: 503, body: { message: "try again later" } } : null));
    await submit(s.app);
    await cronRuns(s.app, 3);
    expect(s.alertsTo(s.first)).toEqual([ALERT]);
    expect(s.alertsTo(s.third)).toEqual([ALERT]);
    expect(s.triesFor(s.refusedOwner)).toBe(1);

    // A minute later the API still refuses it; then it takes it, once, however many runs.
    await retriesDue(s.app);
    await s.app.runCron();
    expect(s.triesFor(s.refusedOwner)).toBe(2);
    down = false;
    await retriesDue(s.app);
    await cronRuns(s.app, 3);
    expect(s.alertsTo(s.refusedOwner)).toEqual([ALERT]);
    expect(s.alertsTo(s.first)).toEqual([ALERT]);
    expect(s.alertsTo(s.third)).toEqual([ALERT]);
    const copies = await s.app.sql("SELECT email, status, attempts FROM alert_mails ORDER BY email");
    expect(copies).toEqual(
      [s.first, s.refusedOwner, s.third]
        .sort()
        .map((email) => ({ email, status: "sent", attempts: email === s.refusedOwner ? 3 : 1 })),
    );
  });

  it("is tried again for a day, then given up and no more", async () => {
    const s = await threeOwners(() => ({ status: 422, body: { message: "invalid recipient" } }));
    await submit(s.app);
    await cronRuns(s.app, 3);
    const [copy] = await s.app.sql<{ status: string; next_attempt_at: number; created_at: number }>(
      "SELECT status, next_attempt_at, created_at FROM alert_mails WHERE email = ?1",
      s.refusedOwner,
    );
    // The first retry a minute after the refusal.
    expect(copy?.status).toBe("pending");
    expect((copy?.next_attempt_at ?? 0) - (copy?.created_at ?? 0)).toBeGreaterThanOrEqual(MINUTE);
    expect((copy?.next_attempt_at ?? 0) - (copy?.created_at ?? 0)).toBeLessThan(2 * MINUTE);

    // A day later (its time moved back), the next refusal is its last.
    await s.app.sql(
      "UPDATE alert_mails SET created_at = created_at - ?1, next_attempt_at = 0 WHERE email = ?2",
      25 * 60 * MINUTE,
      s.refusedOwner,
    );
    await s.app.runCron();
    const tries = s.triesFor(s.refusedOwner);
    expect(tries).toBe(2);
    const [given] = await s.app.sql<{ status: string; last_error: string }>(
      "SELECT status, last_error FROM alert_mails WHERE email = ?1",
      s.refusedOwner,
    );
    expect(given).toMatchObject({ status: "failed", last_error: expect.stringContaining("422") });
    await retriesDue(s.app);
    await cronRuns(s.app, 2);
    expect(s.triesFor(s.refusedOwner)).toBe(tries);
    expect(s.alertsTo(s.first)).toEqual([ALERT]);

    // 'Equipe' says so beside that address (the other owners can check it), until an
    // incident e-mail reaches it again.
    const [missed] = await s.app.sql<{ created_at: number; incident_id: number }>(
      "SELECT created_at, incident_id FROM alert_mails WHERE email = ?1",
      s.refusedOwner,
    );
    expect(await missedAlerts(s)).toMatchObject({
      [s.refusedOwner]: new Date(missed?.created_at ?? 0).toISOString(),
      [s.first]: null,
      [s.third]: null,
    });
    await s.app.sql(
      "INSERT INTO alert_mails (incident_id, kind, email, subject, text, html, created_at, status, sent_at) \
       VALUES (?1, 'recovery', ?2, 'Entrega normalizada', 't', 'h', ?3, 'sent', ?3)",
      missed?.incident_id,
      s.refusedOwner,
      Date.now(),
    );
    expect((await missedAlerts(s))[s.refusedOwner]).toBeNull();
  });

  it("is not sent to them once they are switched off", async () => {
    const s = await threeOwners(() => ({ status: 503, body: { message: "try again later" } }));
    await submit(s.app);
    await cronRuns(s.app, 2);
    expect(s.triesFor(s.refusedOwner)).toBe(1);
    const [account] = await s.app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", s.refusedOwner);
    expect((await s.owner.client.call("POST", `/api/staff/${account?.id}/disable`, {})).status).toBe(200);
    s.mail.respondWith(() => ({ status: 200, body: { id: "mail-ok" } }));
    await retriesDue(s.app);
    await cronRuns(s.app, 2);
    expect(s.triesFor(s.refusedOwner)).toBe(1);
    const [copy] = await s.app.sql("SELECT status, last_error FROM alert_mails WHERE email = ?1", s.refusedOwner);
    expect(copy).toEqual({ status: "failed", last_error: "não é mais responsável pelo painel" });
    // Not sent because they left, not because their mailbox refused it: nothing to look into.
    expect((await missedAlerts(s))[s.refusedOwner]).toBeNull();
  });

  it("is dropped if the trouble ends before it goes, and so is its recovery: that owner hears of neither", async () => {
    let down = true;
    const s = await threeOwners(() => (down ? { status: 503, body: { message: "try again later" } } : null));
    await submit(s.app);
    await cronRuns(s.app, 2);
    expect(s.triesFor(s.refusedOwner)).toBe(1);
    // The lead is marked sent by hand: nothing waits, the incident ends.
    const [lead] = await s.app.sql<{ id: string }>("SELECT id FROM leads");
    expect((await s.owner.client.call("POST", `/api/leads/${lead?.id}/mark-sent`, {})).status).toBe(200);
    down = false;
    await retriesDue(s.app);
    await cronRuns(s.app, 2);
    expect(s.alertsTo(s.refusedOwner)).toEqual([]);
    expect(s.triesFor(s.refusedOwner)).toBe(1);
    expect(s.alertsTo(s.first)).toEqual([ALERT, RECOVERED]);
    expect(s.alertsTo(s.third)).toEqual([ALERT, RECOVERED]);
  });
});

describe("the webhook (ALERT_WEBHOOK_URL)", () => {
  it("gets each lead and each incident as JSON, retried after a failure", async () => {
    const hook = await new FakeService(() => ({ status: 500, body: { error: "fora" } })).start();
    const jetimob = await new FakeJetimob().start();
    const app = await spawnApp({
      vars: {
        ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads`,
        ...jetimob.settings(),
        SITE_ORIGIN: "https://painel.example",
      },
    });
    running.push(async () => {
      await app.stop();
      await jetimob.stop();
      await hook.stop();
    });
    const events = () =>
      hook.received.map((r) => ({
        path: r.path,
        type: r.headers["content-type"],
        body: JSON.parse(r.body.toString()),
      }));

    jetimob.answerEveryone(refused(401));
    const lead = aLead({ name: "Wanda Webhook", whatsapp: "(49) 98123-0001", utm_campaign: "outono" });
    await submit(app, lead);
    await attempted(app, String(lead.email));
    await app.runCron();
    const first = events();
    expect(first.map((e) => e.body.event).sort()).toEqual(["delivery.incident", "lead.created"]);
    const created = first.find((e) => e.body.event === "lead.created");
    expect(created?.path).toBe("/hooks/leads");
    expect(created?.type).toBe("application/json");
    expect(created?.body.lead).toMatchObject({
      name: "Wanda Webhook",
      email: lead.email,
      whatsapp: "+5549981230001",
      utm_campaign: "outono",
    });
    expect(created?.body.lead.panel_url).toMatch(/^https:\/\/painel\.example\/admin\/leads\/[\w-]+$/);
    expect(first.find((e) => e.body.event === "delivery.incident")?.body).toMatchObject({
      reasons: ["keys_refused"],
      waiting: 1,
    });
    // Without ALERT_WEBHOOK_SECRET, nothing is signed.
    expect(hook.received.map((r) => r.headers["x-webhook-signature"])).toEqual([undefined, undefined]);

    // Both failed (HTTP 500): they wait for their next try, then go again, once each.
    hook.respondWith(() => ({ status: 204 }));
    await app.runCron();
    expect(hook.received).toHaveLength(2);
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    await app.runCron();
    const retried = events().slice(2);
    expect(retried.map((e) => e.body.event).sort()).toEqual(["delivery.incident", "lead.created"]);
    expect(retried.find((e) => e.body.event === "lead.created")?.body).toEqual(created?.body);
    expect(await app.sql("SELECT status, attempts FROM webhook_events ORDER BY id")).toEqual([
      { status: "sent", attempts: 2 },
      { status: "sent", attempts: 2 },
    ]);

    // A correction is lead.updated with what changed; the recovery is delivery.recovered.
    hook.clear();
    jetimob.answerEveryone(accepted());
    await submit(app, { ...lead, whatsapp: "(49) 98123-0002" });
    await app.sql("UPDATE leads SET next_attempt_at = 0");
    await app.runCron();
    await app.runCron();
    const later = events().map((e) => e.body);
    expect(later.map((e) => e.event).sort()).toEqual(["delivery.recovered", "lead.updated"]);
    expect(later.find((e) => e.event === "lead.updated")).toMatchObject({
      lead: { name: "Wanda Webhook", whatsapp: "+5549981230002" },
      before: { whatsapp: "+5549981230001" },
    });
  });
});

describe("the webhook, on a launch-day crowd", () => {
  it("gets every waiting lead in one cron run, and an incident before the leads that waited longer", async () => {
    // The receiver is down while 20 leads arrive: their events wait.
    const s = await withWebhook(() => ({ status: 503 }));
    const emails = await Promise.all(Array.from({ length: 20 }, () => submit(s.app)));
    for (const email of emails) await attempted(s.app, email);
    await s.app.runCron();
    // It is back; Jetimob now refuses our keys, which the next run finds.
    s.hook.clear();
    s.hook.respondWith(() => ({ status: 204 }));
    s.jetimob.answerEveryone(refused(401));
    const refusedLead = await submit(s.app);
    await attempted(s.app, refusedLead);
    await s.app.runCron();
    const events = s.hook.received.map((r) => JSON.parse(r.body.toString()).event as string);
    expect(events[0]).toBe("delivery.incident");
    expect(events.filter((e) => e === "lead.created")).toHaveLength(21);
    expect(await s.app.sql("SELECT count(*) AS n FROM webhook_events WHERE status = 'pending'")).toEqual([{ n: 0 }]);
  });
});

describe("the webhook, after its receiver was down for a day", () => {
  /**
   * 3,000 leads' events made over the last day and refused once or twice, each due `dueAfter`
   * ms after it was made; none of the leads is due at Jetimob this minute.
   */
  async function backlog(s: Scenario, dueAfter: number) {
    await seedLeadsThrough(s.app.db, { count: 3000, seed: 5 });
    await nothingDueUntilTomorrow(s.app.db);
    await s.app.sql(
      `INSERT INTO webhook_events (event, submission_id, created_at, next_attempt_at, attempts, last_error)
       SELECT 'lead.created', id, ?1 - 86400000 + id * 20000, ?1 - 86400000 + id * 20000 + ?2,
              1 + id % 2, 'HTTP 503: {}'
       FROM lead_submissions`,
      Date.now() - 3_600_000,
      dueAfter,
    );
    await s.app.sql(
      "INSERT OR REPLACE INTO cron_state (name, value) VALUES ('webhook_cursor', (SELECT max(id) FROM lead_submissions))",
    );
  }

  it("while it is still down, each run reads a few rows, not the events waiting out their backoff", async () => {
    const s = await withWebhook(() => ({ status: 503 }));
    await backlog(s, 30 * 3_600_000);
    // The first run opens an incident for the seeded leads Jetimob never took; its event is refused.
    await s.app.runCron();
    await s.app.runCron();
    expect(s.hook.received.map((r) => JSON.parse(r.body.toString()).event)).toEqual(["delivery.incident"]);
    // Each claim looks only at what is due, and the watch at events refused three times: a run
    // read 3,071 rows before (every refused event, each minute of the outage).
    expect(cronRowCounts(s.app.logs()).at(-1)?.read).toBeLessThanOrEqual(100);
  }, 120_000);

  it("sends the events in order, each run reading the events it sends, not the thousands waiting", async () => {
    const s = await withWebhook(() => ({ status: 204 }));
    await backlog(s, 300_000);
    const oldestDue = await s.app.sql<{ submission_id: number }>(
      "SELECT submission_id FROM webhook_events ORDER BY next_attempt_at, id LIMIT 30",
    );

    // An incident meanwhile: its event goes before the leads'.
    await s.app.sql(
      `INSERT INTO webhook_events (event, payload, created_at, next_attempt_at, once_key)
       VALUES ('delivery.incident', '{"event":"delivery.incident"}', ?1, ?1, 'incident:9')`,
      Date.now(),
    );
    await s.app.runCron();
    const sent = s.hook.received.map((r) => JSON.parse(r.body.toString()) as { event: string; lead?: { id: string } });
    expect(sent).toHaveLength(30);
    // The incidents (this one, and the one the run opened for the leads Jetimob never took) first.
    const incidents = sent.filter((e) => !e.lead);
    expect(incidents.map((e) => e.event)).toEqual(["delivery.incident", "delivery.incident"]);
    expect(sent.slice(0, 2)).toEqual(incidents);
    const sentIds = (
      await s.app.sql<{ submission_id: number }>(
        "SELECT submission_id FROM webhook_events WHERE status = 'sent' AND submission_id IS NOT NULL ORDER BY submission_id",
      )
    ).map((e) => e.submission_id);
    expect(sentIds).toEqual(
      oldestDue
        .slice(0, 28)
        .map((e) => e.submission_id)
        .sort((a, b) => a - b),
    );

    // A run reads what it sends (about 14 rows an event: its claim, its lead's submissions and
    // its mark as sent) and the watch reads no refused event (none was refused three times),
    // not the 3,000 waiting: each claim sorted them, and the watch read them all (32,969 rows).
    await s.app.runCron();
    const runs = cronRowCounts(s.app.logs());
    expect(s.hook.received).toHaveLength(60);
    expect(runs.at(-1)?.read).toBeLessThanOrEqual(500);
  }, 120_000);
});

describe("the webhook's POSTs, for a receiver that checks them", () => {
  it("carry the same id on every retry, and with ALERT_WEBHOOK_SECRET a signature of their moment and body", async () => {
    const secret = "segredo-do-webhook-de-teste";
    const hook = await new FakeService(() => ({ status: 503, body: { error: `fora; segredo ${secret}` } })).start();
    const app = await spawnApp({
      vars: { ALERT_WEBHOOK_URL: `${hook.url}/hooks/leads`, ALERT_WEBHOOK_SECRET: secret },
    });
    running.push(async () => {
      await app.stop();
      await hook.stop();
    });
    await submit(app);
    await app.runCron();
    // What is kept of the failure never holds the secret, even when the receiver echoes it.
    const [failed] = await app.sql<{ last_error: string }>(
      "SELECT last_error FROM webhook_events WHERE event = 'lead.created'",
    );
    expect(failed?.last_error).toContain("HTTP 503");
    expect(failed?.last_error).not.toContain(secret);

    hook.respondWith(() => ({ status: 204 }));
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    // The lead's event (no Jetimob keys here, so an incident's event goes beside it).
    const posts = hook.received.filter((r) => JSON.parse(r.body.toString()).event === "lead.created");
    expect(posts).toHaveLength(2);
    const [first, retry] = posts;
    expect(first?.headers["x-webhook-id"]).toMatch(/^\d+$/);
    expect(retry?.headers["x-webhook-id"]).toBe(first?.headers["x-webhook-id"]);
    for (const post of [first, retry]) {
      const timestamp = String(post?.headers["x-webhook-timestamp"]);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      // Computed as a receiver would, from the raw body it got.
      const expected = createHmac("sha256", secret).update(`${timestamp}.${post?.body.toString()}`).digest("hex");
      expect(post?.headers["x-webhook-signature"]).toBe(`v1=${expected}`);
    }
  });
});

describe("a webhook that keeps refusing (its channel hears nothing)", () => {
  it("is an incident after three refused tries: the owners are e-mailed, the banner says what to check, and it ends once the events go", async () => {
    const s = await withWebhook(() => ({ status: 404, body: { error: "no such hook" } }));
    const { app, mail, owner, hook } = s;
    const retryNow = () => app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");

    // A lead's event is refused, and refused again a minute later: a hiccup, not yet an incident.
    await submit(app);
    await app.runCron();
    await retryNow();
    await app.runCron();
    await cronRuns(app, 1);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([]);

    // The third try is refused too: one alert, however many runs see it.
    await retryNow();
    await app.runCron();
    await cronRuns(app, 3);
    const alerts = mail.messagesTo(owner.email).filter((m) => m.subject === WEBHOOK_ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toMatch(
      /^O webhook do site não está recebendo os avisos desde \d\d\/\d\d\/\d{4} \d\d:\d\d\./,
    );
    expect(alerts[0]?.text).toContain("O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso três vezes");
    expect(alerts[0]?.text).toContain("Confira se o endereço em ALERT_WEBHOOK_URL continua válido");
    const shown = await banner(s);
    expect(shown?.summary).toMatch(/^O webhook do site não está recebendo os avisos desde/);
    expect(shown?.details.map((d) => d.what)).toEqual([
      "O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso três vezes: o canal que o recebe (um chat, uma automação) está sem notícias dos novos leads e dos alertas.",
    ]);
    // A secret to change: an owner's step, which the panel shows everyone else as one to pass on.
    expect(shown?.details.map((d) => d.owners)).toEqual([true]);
    const degraded = await healthOnceItAnswers(app, 503);
    expect(degraded.body.reason).toBe("delivery incident: webhook_failing");

    // The address is fixed: the waiting events go (the incident's own among them), and it ends.
    hook.respondWith(() => ({ status: 204 }));
    await retryNow();
    await app.runCron();
    await cronRuns(app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([WEBHOOK_ALERT, WEBHOOK_RECOVERED]);
    const delivered = await app.sql<{ event: string; status: string }>(
      "SELECT event, status FROM webhook_events ORDER BY id",
    );
    expect(delivered).toEqual([
      { event: "lead.created", status: "sent" },
      { event: "delivery.incident", status: "sent" },
      { event: "delivery.recovered", status: "sent" },
    ]);
    // Every cron run asks it (alerts::incidents' snapshot); the events sent, one per lead
    // for months, are not read, nor those refused fewer times: the first entry of the
    // refused events' partial index (0013) answers it.
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN SELECT min(created_at) FROM webhook_events INDEXED BY webhook_events_refused WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3",
    );
    expect(plan.map((p) => p.detail)).toEqual(["SEARCH webhook_events USING INDEX webhook_events_refused"]);
  });

  it("ends within minutes of the receiver answering again, not after the refused events' backoff (up to 6 hours)", async () => {
    const s = await withWebhook(() => ({ status: 404, body: { error: "no such hook" } }));
    const { app, mail, owner, hook } = s;
    await submit(app);
    for (let i = 0; i < 3; i++) {
      await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE status = 'pending'");
      await app.runCron();
    }
    await cronRuns(app, 2);
    expect(await banner(s)).not.toBeNull();
    const waiting = await app.sql<{ next_attempt_at: number }>(
      "SELECT next_attempt_at FROM webhook_events WHERE status = 'pending' AND attempts >= 3",
    );
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((e) => e.next_attempt_at > Date.now() + 10 * MINUTE)).toBe(true);

    // Fixed; the next lead's event goes through, and the refused ones follow at once.
    hook.respondWith(() => ({ status: 204 }));
    await submit(app);
    await cronRuns(app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([WEBHOOK_ALERT, WEBHOOK_RECOVERED]);
    expect(await app.sql("SELECT status FROM webhook_events WHERE status != 'sent'")).toEqual([]);
    // Asked after each run's first event sent: the pending events only, through their index.
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN UPDATE webhook_events SET next_attempt_at = 1 WHERE status = 'pending' AND next_attempt_at > 1 AND last_error IS NOT NULL",
    );
    expect(plan.map((p) => p.detail)).toEqual([
      "SEARCH webhook_events USING INDEX webhook_events_due (next_attempt_at>?)",
    ]);
  });
});

describe("a webhook switched off (ALERT_WEBHOOK_URL removed) while it was refusing", () => {
  it("is no incident: what waited for it is marked failed, and a URL set later starts afresh", async () => {
    const s = await scenario({ keys: true });
    // What a refusing webhook left when its URL was removed: a lead's event refused three
    // times, and the cursor of the submissions already turned into events.
    await submit(s.app);
    const [submission] = await s.app.sql<{ id: number }>("SELECT max(id) AS id FROM lead_submissions");
    await s.app.batch([
      [
        "INSERT INTO webhook_events (event, submission_id, created_at, next_attempt_at, attempts, last_error) VALUES ('lead.created', ?1, ?2, 0, 3, 'HTTP 404: no such hook')",
        submission?.id,
        Date.now() - 30 * MINUTE,
      ],
      ["INSERT INTO cron_state (name, value) VALUES ('webhook_cursor', ?1)", submission?.id],
    ]);
    await cronRuns(s.app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([]);
    expect(await s.app.sql("SELECT status, last_error FROM webhook_events")).toEqual([
      { status: "failed", last_error: "webhook desligado (sem ALERT_WEBHOOK_URL)" },
    ]);
    expect(await s.app.sql("SELECT value FROM cron_state WHERE name = 'webhook_cursor'")).toEqual([]);
  });
});

describe("the webhook while the e-mail API refuses (the alerts themselves are e-mails)", () => {
  it("hears the incident and the e-mail trouble, once each, and then each end", async () => {
    const { app, mail, jetimob, owner, hook } = await withWebhook(() => ({ status: 204 }));
    /** The events that are not leads, as the webhook got them. */
    const told = () =>
      hook.received
        .map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>)
        .filter((e) => !String(e.event).startsWith("lead."));
    await cronRuns(app, 1);
    expect(told()).toEqual([]);

    // The e-mail API's key is revoked, and Jetimob refuses ours: no alert e-mail can go.
    mail.respondWith(() => ({ status: 401, body: { message: "API key is invalid" } }));
    jetimob.answerEveryone(refused(401));
    const email = await submit(app);
    await attempted(app, email);
    await cronRuns(app, 3);
    const during = told();
    expect(during.map((e) => e.event).sort()).toEqual(["delivery.incident", "mail.failing"]);
    expect(during.find((e) => e.event === "delivery.incident")).toMatchObject({
      reasons: ["keys_refused"],
      waiting: 1,
      message: expect.stringMatching(/^Leads não estão chegando ao Jetimob desde/),
    });
    const failing = during.find((e) => e.event === "mail.failing");
    expect(failing?.message).toMatch(
      /^Os e-mails do site não estão saindo: o último envio, em \d\d\/\d\d\/\d{4} \d\d:\d\d, foi recusado\.$/,
    );
    // The alert was claimed once; the API refused the owner's copy, which waits for its retry.
    expect(mail.messagesTo(owner.email).filter((m) => m.subject === ALERT)).toHaveLength(1);
    const [incident] = await app.sql<{ alerted_at: number | null }>("SELECT alerted_at FROM delivery_incidents");
    expect(incident?.alerted_at).toEqual(expect.any(Number));
    expect(await app.sql("SELECT kind, status, attempts FROM alert_mails")).toEqual([
      { kind: "alert", status: "pending", attempts: 1 },
    ]);

    // Jetimob takes our keys again while the e-mail API still refuses: the incident ends, and the webhook hears it.
    jetimob.answerEveryone(accepted());
    await app.sql("UPDATE leads SET next_attempt_at = 0");
    await cronRuns(app, 3);
    const ended = told().slice(during.length);
    expect(ended.map((e) => e.event)).toEqual(["delivery.recovered"]);
    expect(ended[0]?.message).toMatch(/^Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob/);

    // The key is fixed: the owner's own reset request goes, and the webhook hears that e-mail works again.
    const refusedTries = mail.messagesTo(owner.email).length;
    mail.respondWith(() => ({ status: 200, body: { id: "mail-ok" } }));
    expect((await owner.client.requestReset(owner.email)).status).toBe(200);
    await cronRuns(app, 3);
    const back = told().slice(during.length + ended.length);
    expect(back.map((e) => e.event)).toEqual(["mail.recovered"]);
    expect(back[0]).toMatchObject({
      since: failing?.since,
      message: expect.stringMatching(/^Os e-mails do site voltaram a sair \(o problema começou em /),
    });
    // The owners were never alerted by e-mail, so neither the alert (dropped when the incident
    // ended) nor its 'normalizada' follows, however long after.
    await app.sql("UPDATE alert_mails SET next_attempt_at = 0 WHERE status = 'pending'");
    await cronRuns(app, 2);
    expect(subjects(mail.messagesTo(owner.email).slice(refusedTries))).toEqual([]);
    expect(await app.sql("SELECT kind, status FROM alert_mails")).toEqual([{ kind: "alert", status: "failed" }]);
  });
});

describe("a cron that stopped (its alerts go out from the cron, so they cannot say it)", () => {
  const STOPPED = /^O envio automático está parado desde \d\d\/\d\d\/\d{4} \d\d:\d\d\.$/;
  const NEVER_RAN = "O envio automático ainda não rodou, e há leads esperando há mais de 15 minutos.";

  it("is said by /api/health and the panel's banner after 5 minutes without a run; the next run clears both", async () => {
    const s = await scenario({ keys: true });
    await s.app.runCron();
    const running = await health(s.app);
    expect(running.body).toMatchObject({ status: "ok", last_watch_minutes: 0 });

    // Six minutes without a run (the last one's time moved back, not waited for).
    await s.app.sql("UPDATE cron_state SET value = value - ?1 WHERE name = 'delivery_watched_at'", 6 * MINUTE);
    const shown = await banner(s);
    expect(shown?.summary).toMatch(STOPPED);
    expect(shown?.details).toHaveLength(1);
    expect(shown?.details[0]?.what).toBe(
      "O agendador do site (o Cron Trigger, que roda a cada minuto) parou: nenhum lead é enviado ao Jetimob, e ninguém recebe os avisos por e-mail, nem o deste problema.",
    );
    expect(shown?.details[0]?.todo).toContain("se o Cron Trigger continua cadastrado");
    const stopped = await healthOnceItAnswers(s.app, 503);
    expect(stopped.body).toMatchObject({ status: "degraded", database: "ok", reason: "cron stopped" });
    expect(stopped.body.last_watch_minutes).toBeGreaterThanOrEqual(6);

    await s.app.runCron();
    expect(await banner(s)).toBeNull();
    await healthOnceItAnswers(s.app, 200);
  });

  it("before it ever ran, a lead waiting more than 15 minutes says so; its first run turns that into the incident", async () => {
    const s = await scenario({ keys: true });
    s.jetimob.answerEveryone(refused(500));
    const email = await submit(s.app);
    await attempted(s.app, email);
    expect(await banner(s)).toBeNull();
    await s.app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 16 * MINUTE, email);
    expect((await banner(s))?.summary).toBe(NEVER_RAN);
    const stopped = await healthOnceItAnswers(s.app, 503);
    expect(stopped.body).toMatchObject({ reason: "cron stopped", last_watch_minutes: null });

    await s.app.runCron();
    expect((await banner(s))?.summary).toMatch(/^Leads não estão chegando ao Jetimob desde/);
    expect(subjects(s.mail.messagesTo(s.owner.email))).toEqual([ALERT]);
  });
});

describe("an e-mail API that refuses (its key revoked, its quota spent)", () => {
  const FAILING =
    "A API de e-mail recusou o último envio: confirmações de cadastro, redefinições de senha, avisos de novos leads e os alertas do painel não estão saindo.";

  it("is said by /api/health and the panel, alone or beside a delivery incident, until an e-mail goes again", async () => {
    const s = await scenario({ keys: true });
    expect(await banner(s)).toBeNull();

    s.mail.respondWith(() => ({ status: 401, body: { message: "API key is invalid" } }));
    const newcomer = await new StaffClient(s.app).signup(staffEmail("nova"), "vinho-tinto-2026");
    expect(newcomer.status).toBe(502);
    const shown = await banner(s);
    expect(shown?.summary).toMatch(
      /^Os e-mails do site não estão saindo: o último envio, em \d\d\/\d\d\/\d{4} \d\d:\d\d, foi recusado\.$/,
    );
    expect(shown?.details.map((d) => d.what)).toEqual([FAILING]);
    expect(shown?.details[0]?.todo).toContain("Confira MAIL_API_KEY");
    expect(shown?.kept).toBe("Os leads continuam chegando ao painel e ao Jetimob; só os e-mails deixam de sair.");
    const failing = await healthOnceItAnswers(s.app, 503);
    expect(failing.body).toMatchObject({ status: "degraded", database: "ok", reason: "mail failing" });

    // Jetimob refuses our keys too: the incident's banner, with the e-mail's line under it.
    s.jetimob.answerEveryone(refused(401));
    const email = await submit(s.app);
    await attempted(s.app, email);
    await s.app.runCron();
    const both = await banner(s);
    expect(both?.summary).toMatch(/^Leads não estão chegando ao Jetimob desde/);
    expect(both?.details.map((d) => d.what)).toEqual([
      "O Jetimob recusou as chaves de acesso da integração (HTTP 401/403).",
      FAILING,
    ]);

    // The key is fixed: the owner asks a reset for their own address, it goes, and the line goes with it.
    s.mail.respondWith(() => ({ status: 200, body: { id: "mail-ok" } }));
    expect((await s.owner.client.requestReset(s.owner.email)).status).toBe(200);
    await eventually(async () => ((await banner(s))?.details.length === 1 ? true : undefined), 15_000);
    expect((await banner(s))?.details.map((d) => d.what)).toEqual([
      "O Jetimob recusou as chaves de acesso da integração (HTTP 401/403).",
    ]);
  });
});

describe("/api/health when D1 cannot answer", () => {
  it("answers 503 'database unavailable', and 200 again within 10 s of the database coming back", async () => {
    // A D1 the worker cannot read: no migration applied, so every query fails.
    const app = await spawnApp({ migrate: false });
    running.push(() => app.stop());
    const down = await health(app);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: "degraded",
      database: "unavailable",
      crm: "off",
      reason: "database unavailable",
    });

    await app.migrate();
    const up = await healthOnceItAnswers(app, 200);
    expect(up.body).toMatchObject({ status: "ok", database: "ok" });
  });
});

/** A token as the fake Turnstile widget gives one. */
/** Tokens a real widget on this site hands out, for the lead form and the sign-up. */
const TURNSTILE_TOKEN = solvedToken("127.0.0.1", "lead");
const SIGNUP_TOKEN = solvedToken("127.0.0.1", "signup");

/** Turnstile's answer when the check passes: where and for which form the token was solved. */
const passing = solvedAnswer;

/** A site with Turnstile on (its verification a fake that passes until told otherwise), and its owner. */
async function withTurnstile() {
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

describe("a lead form whose bot check (Turnstile) cannot be made", () => {
  it("refuses visitors, so it is an incident: one alert saying what to do, and the recovery once a lead gets through", async () => {
    const { app, mail, siteverify, owner } = await withTurnstile();
    const s = { owner };
    siteverify.respondWith(() => ({ status: 503, body: { error: "indisponível" } }));
    await cronRuns(app, 1);
    expect(await banner(s)).toBeNull();

    // Ten visitors at once, all refused; the cron runs beside them.
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, () => postLead(app, aLead({ turnstile_token: TURNSTILE_TOKEN }))),
      app.runCron(),
    ]);
    for (const answer of answers.slice(0, 10)) expect((answer as { status: number }).status).toBe(502);
    await cronRuns(app, 3);
    const alerts = mail.messagesTo(owner.email).filter((m) => m.subject === FORM_ALERT);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain("O formulário do site está recusando os visitantes");
    expect(alerts[0]?.text).toContain("Confira TURNSTILE_SECRET_KEY");
    // It does not promise that nothing was lost: the refused visitors were not recorded.
    expect(alerts[0]?.text).toContain("os visitantes que o formulário recusou não ficaram registrados");
    expect(alerts[0]?.text).not.toContain("Nenhum lead se perde");
    const shown = await banner(s);
    expect(shown?.summary).toMatch(
      /^O formulário do site está recusando visitantes desde \d\d\/\d\d\/\d{4} \d\d:\d\d\.$/,
    );
    expect(shown?.kept).toBe(
      "Os leads já recebidos ficam guardados no painel, mas os visitantes que o formulário recusou não ficaram registrados.",
    );
    expect(shown?.details.map((d) => d.what)).toEqual([
      "O formulário do site está recusando os visitantes: a verificação anti-robô (Turnstile) não pôde ser feita.",
    ]);
    expect((await health(app)).status).toBe(503);

    // The check works again: the next visitor's lead lands, and the incident ends.
    siteverify.respondWith(passing);
    expect((await postLead(app, aLead({ turnstile_token: TURNSTILE_TOKEN }))).status).toBe(200);
    await cronRuns(app, 2);
    expect(await banner(s)).toBeNull();
    expect(subjects(mail.messagesTo(owner.email))).toEqual([FORM_ALERT, FORM_RECOVERED]);
    // It speaks of the form, not of leads coming back to Jetimob (they never stopped).
    const recovery = mail.messagesTo(owner.email).find((m) => m.subject === FORM_RECOVERED);
    expect(recovery?.text).toMatch(
      /^Formulário do site normalizado: a verificação anti-robô \(Turnstile\) não recusa mais visitantes \(o problema começou em /,
    );
    expect(recovery?.text).not.toContain("leads voltaram");
  });
});

describe("a cause that joins an incident already alerted", () => {
  it("gets an alert of its own, once: the form refusing visitors while a lead Jetimob refuses keeps the incident open", async () => {
    const { app, mail, jetimob, siteverify, owner } = await withTurnstile();
    // A lead Jetimob refuses for good: the incident opens and the owners hear of it.
    jetimob.answerEveryone(refused(422, { error: "telefone inválido" }));
    const email = await submit(app, aLead({ turnstile_token: TURNSTILE_TOKEN }));
    await attempted(app, email);
    await app.sql("UPDATE leads SET created_at = created_at - ?1 WHERE email = ?2", 16 * MINUTE, email);
    await cronRuns(app, 2);
    expect(subjects(mail.messagesTo(owner.email))).toEqual([ALERT]);

    // Later, while nobody has acted on it, the bot check stops working: visitors are refused.
    siteverify.respondWith(() => ({ status: 503, body: { error: "indisponível" } }));
    expect((await postLead(app, aLead({ turnstile_token: TURNSTILE_TOKEN }))).status).toBe(502);
    await cronRuns(app, 3);
    expect(subjects(mail.messagesTo(owner.email))).toEqual([ALERT, FORM_ALERT]);
    const joined = mail.messagesTo(owner.email).find((m) => m.subject === FORM_ALERT);
    expect(joined?.text).toContain("O formulário do site está recusando os visitantes");
    expect(joined?.text).toContain("os visitantes que o formulário recusou não ficaram registrados");
    const shown = await banner({ owner });
    expect(shown?.details.map((d) => d.what)).toContain(
      "O formulário do site está recusando os visitantes: a verificação anti-robô (Turnstile) não pôde ser feita.",
    );

    // The check works again and fails again within the same incident: that cause was already told.
    siteverify.respondWith(passing);
    expect((await postLead(app, aLead({ turnstile_token: TURNSTILE_TOKEN }))).status).toBe(200);
    await cronRuns(app, 2);
    siteverify.respondWith(() => ({ status: 503, body: { error: "indisponível" } }));
    expect((await postLead(app, aLead({ turnstile_token: TURNSTILE_TOKEN }))).status).toBe(502);
    await cronRuns(app, 2);
    expect(subjects(mail.messagesTo(owner.email))).toEqual([ALERT, FORM_ALERT]);
  });
});
