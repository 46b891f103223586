import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  ALERT,
  attempted,
  banner,
  CORRECTIONS_ALERT,
  CORRECTIONS_RECOVERED,
  cronRuns,
  health,
  healthOnceItAnswers,
  MINUTE,
  RECOVERED,
  scenario,
  stopScenarios,
  subjects,
  submit,
} from "../support/alert-scenario";
import type { App } from "../support/app";
import { accepted, refused } from "../support/fake-jetimob";
import type { SentMail } from "../support/fake-mail";
import { ageDelivery, aLead } from "../support/leads";
import { eventually } from "../support/net";
import { type StaffClient, signedInStaff } from "../support/staff";

// Delivery trouble: the cron watches whether leads reach Jetimob and tells
// the owners once when they stop ('Leads não estão chegando ao Jetimob') and
// once when they start again ('Entrega ao Jetimob normalizada'); the panel
// shows a banner meanwhile and /api/health answers 503. The webhook's side is
// webhook-alerts.test.ts; the cron's, the e-mail API's, D1's and the form's own
// trouble is site-alerts.test.ts (one file each, so they run side by side).

afterEach(stopScenarios);
afterAll(stopScenarios);

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
    // The cron run that opened the incident dropped the answer its isolate kept: no 10 s of 'ok'.
    const degraded = await health(s.app);
    expect(degraded.status).toBe(503);
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
    expect((await health(s.app)).status).toBe(200);
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
