import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  ALERT,
  attempted,
  banner,
  cronRuns,
  FORM_ALERT,
  FORM_RECOVERED,
  health,
  healthOnceItAnswers,
  MINUTE,
  passing,
  scenario,
  stopAfterTest,
  stopScenarios,
  subjects,
  submit,
  TURNSTILE_TOKEN,
  withTurnstile,
} from "../support/alert-scenario";
import { spawnApp } from "../support/app";
import { refused } from "../support/fake-jetimob";
import { aLead, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { StaffClient, staffEmail } from "../support/staff";

// Trouble that is the site's own: a cron that stopped, an e-mail API that
// refuses, D1 that cannot answer, a bot check that cannot be made, and a
// cause that joins an incident already alerted.

afterEach(stopScenarios);
afterAll(stopScenarios);

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
    stopAfterTest(() => app.stop());
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
