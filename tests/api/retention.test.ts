import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { eventually } from "../support/net";
import { StaffClient, signedInStaff, staffEmail } from "../support/staff";

// What the cron stops keeping (worker/src/platform/retention.rs): sessions and links a
// month after they stopped working, rate-limit counters after a day, webhook
// events a month after they were made.

let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = "vinho-tinto-2026";

/** The session a client's refresh cookie belongs to. */
async function sessionOf(client: StaffClient): Promise<string> {
  const hash = createHash("sha256")
    .update(client.cookie ?? "")
    .digest("hex");
  const [row] = await app.sql<{ session_id: string }>(
    "SELECT session_id FROM refresh_tokens WHERE token_hash = ?1",
    hash,
  );
  if (!row) throw new Error("the client holds no known refresh token");
  return row.session_id;
}

async function count(query: string, ...params: unknown[]): Promise<number> {
  const [row] = await app.sql<{ n: number }>(query, ...params);
  return row?.n ?? 0;
}

const sessionRows = (id: string) => count("SELECT count(*) AS n FROM staff_sessions WHERE id = ?1", id);
const tokenRows = (id: string) => count("SELECT count(*) AS n FROM refresh_tokens WHERE session_id = ?1", id);
const confirmationRows = (email: string) =>
  count(
    "SELECT count(*) AS n FROM email_confirmations c JOIN staff_users u ON u.id = c.user_id WHERE u.email = ?1",
    email,
  );

/** Makes a session or link look as if it stopped working `daysAgo` days ago. */
function endedDaysAgo(table: string, where: string, param: unknown, daysAgo: number) {
  return app.sql(`UPDATE ${table} SET expires_at = ?1 WHERE ${where}`, Date.now() - daysAgo * DAY, param);
}

describe("sessions", () => {
  it("go with their refresh tokens a month after they ended; a live one keeps working", async () => {
    const { client: old, email } = await signedInStaff(app, mail, PASSWORD);
    await old.refresh();
    const recent = new StaffClient(app);
    const live = new StaffClient(app);
    expect((await recent.login(email, PASSWORD)).status).toBe(200);
    expect((await live.login(email, PASSWORD)).status).toBe(200);
    expect((await live.refresh()).status).toBe(200);
    const oldId = await sessionOf(old);
    const recentId = await sessionOf(recent);
    const liveId = await sessionOf(live);
    expect(await tokenRows(oldId)).toBe(2);

    await endedDaysAgo("staff_sessions", "id = ?2", oldId, 31);
    await endedDaysAgo("staff_sessions", "id = ?2", recentId, 29);
    await app.runCron();

    expect(await sessionRows(oldId)).toBe(0);
    expect(await tokenRows(oldId)).toBe(0);
    expect(await sessionRows(recentId)).toBe(1);
    expect(await tokenRows(recentId)).toBe(1);
    expect(await sessionRows(liveId)).toBe(1);
    expect(await tokenRows(liveId)).toBe(2);
    expect((await old.refresh()).status).toBe(401);
    expect((await live.refresh()).status).toBe(200);
    expect((await live.session()).status).toBe(200);
    expect(app.logs()).toMatch(/retention: removed .*2 refresh tokens, 1 sessions/);
  });
});

describe("links", () => {
  it("a sign-up's link goes a month after it expired, with the password waiting in it", async () => {
    const [forgotten, recent] = [staffEmail("esquecido"), staffEmail("recente")];
    for (const email of [forgotten, recent]) {
      expect((await new StaffClient(app).signup(email, PASSWORD)).status).toBe(200);
      await eventually(async () => (await confirmationRows(email)) === 1 || undefined);
    }
    await endedDaysAgo("email_confirmations", "user_id = (SELECT id FROM staff_users WHERE email = ?2)", forgotten, 31);
    await endedDaysAgo("email_confirmations", "user_id = (SELECT id FROM staff_users WHERE email = ?2)", recent, 29);
    const notConfirmed = await new StaffClient(app).login(forgotten, PASSWORD);
    expect(notConfirmed.status).toBe(403);

    await app.runCron();

    expect(await confirmationRows(forgotten)).toBe(0);
    expect(await confirmationRows(recent)).toBe(1);
    const forgottenNow = await new StaffClient(app).login(forgotten, PASSWORD);
    expect(forgottenNow.status).toBe(401);
    expect(forgottenNow.body.error).toBe("E-mail ou senha incorretos.");
    expect((await new StaffClient(app).login(recent, PASSWORD)).status).toBe(403);
    // Nothing can confirm that account any more: it goes too, and 'Equipe' no longer lists it.
    const accounts = await app.sql<{ email: string }>(
      "SELECT email FROM staff_users WHERE email IN (?1, ?2)",
      forgotten,
      recent,
    );
    expect(accounts.map((a) => a.email)).toEqual([recent]);
    expect(app.logs()).toMatch(/retention: removed .*accounts never confirmed/);
    // Signing up again starts afresh.
    expect((await new StaffClient(app).signup(forgotten, PASSWORD)).status).toBe(200);
  });

  it("an account never confirmed stays while any of its links is young, and one switched off stays", async () => {
    const [twoLinks, switchedOff] = [staffEmail("dois-links"), staffEmail("desativado")];
    for (const email of [twoLinks, twoLinks, switchedOff]) {
      expect((await new StaffClient(app).signup(email, PASSWORD)).status).toBe(200);
    }
    await eventually(async () => (await confirmationRows(twoLinks)) === 2 || undefined);
    await app.sql(
      "UPDATE email_confirmations SET expires_at = ?1 WHERE rowid = (SELECT min(rowid) FROM email_confirmations WHERE user_id = (SELECT id FROM staff_users WHERE email = ?2))",
      Date.now() - 31 * DAY,
      twoLinks,
    );
    await endedDaysAgo(
      "email_confirmations",
      "user_id = (SELECT id FROM staff_users WHERE email = ?2)",
      switchedOff,
      31,
    );
    await app.sql("UPDATE staff_users SET disabled_at = ?1 WHERE email = ?2", Date.now(), switchedOff);
    await app.runCron();
    const accounts = await app.sql<{ email: string }>(
      "SELECT email FROM staff_users WHERE email IN (?1, ?2) ORDER BY email",
      twoLinks,
      switchedOff,
    );
    expect(accounts.map((a) => a.email).sort()).toEqual([twoLinks, switchedOff].sort());
    // A sign-up's links go with its account, so none is left without the link that finds it.
    expect(await confirmationRows(twoLinks)).toBe(2);
  });

  it("a backlog of accounts never confirmed, larger than a run removes, goes over a few runs, none left behind", async () => {
    const expired = Date.now() - 31 * DAY;
    await app.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2100)
       INSERT INTO staff_users (id, email, password_hash, created_at) SELECT 'fila-' || i, 'fila' || i || '@x', '', ?1 FROM n`,
      expired,
    );
    await app.sql(
      `INSERT INTO email_confirmations (token_hash, user_id, created_at, expires_at)
       SELECT 'fila-link-' || id, id, ?1, ?1 FROM staff_users WHERE id LIKE 'fila-%'`,
      expired,
    );
    for (let run = 0; run < 3; run++) await app.runCron();
    expect(await app.sql("SELECT count(*) AS n FROM staff_users WHERE id LIKE 'fila-%'")).toEqual([{ n: 0 }]);
  });

  it("a reset link goes a month after it expired; a fresh one still works", async () => {
    const old = await signedInStaff(app, mail, PASSWORD);
    const fresh = await signedInStaff(app, mail, PASSWORD);
    for (const { email } of [old, fresh]) {
      expect((await new StaffClient(app).requestReset(email)).status).toBe(200);
    }
    const freshToken = await eventually(async () => {
      try {
        mail.resetToken(old.email);
        return mail.resetToken(fresh.email);
      } catch {
        return undefined;
      }
    });
    const resetRows = (email: string) =>
      count(
        "SELECT count(*) AS n FROM password_resets r JOIN staff_users u ON u.id = r.user_id WHERE u.email = ?1",
        email,
      );
    await endedDaysAgo("password_resets", "user_id = (SELECT id FROM staff_users WHERE email = ?2)", old.email, 31);

    await app.runCron();

    expect(await resetRows(old.email)).toBe(0);
    expect(await resetRows(fresh.email)).toBe(1);
    expect((await new StaffClient(app).reset(freshToken, "uva-branca-2027")).status).toBe(200);
    expect((await new StaffClient(app).login(fresh.email, "uva-branca-2027")).status).toBe(200);
  });
});

describe("rate-limit counters", () => {
  it("go a day after their window opened", async () => {
    const now = Date.now();
    await app.batch([
      [
        "INSERT INTO rate_limits (key, window_start, count) VALUES ('retention-test:old', ?1, 3)",
        now - 25 * 60 * 60 * 1000,
      ],
      ["INSERT INTO rate_limits (key, window_start, count) VALUES ('retention-test:new', ?1, 3)", now - 60 * 60 * 1000],
    ]);

    await app.runCron();

    const left = await app.sql<{ key: string }>(
      "SELECT key FROM rate_limits WHERE key LIKE 'retention-test:%' ORDER BY key",
    );
    expect(left.map((r) => r.key)).toEqual(["retention-test:new"]);
  });
});

/** A statement of worker/src/platform/retention.rs, as the worker sends it to D1. */
function retentionStatement(name: string): string {
  const source = readFileSync(new URL("../../worker/src/platform/retention.rs", import.meta.url), "utf8");
  const literal = new RegExp(`const ${name}: &str = "([^"]*)";`).exec(source)?.[1];
  if (!literal) throw new Error(`no ${name} in retention.rs`);
  return literal.replace(/\\\n\s*/g, "");
}

async function addEvent(key: string, createdAt: number, status: string) {
  await app.sql(
    "INSERT INTO webhook_events (event, payload, created_at, status, once_key) VALUES ('delivery.incident', '{}', ?1, ?2, ?3)",
    createdAt,
    status,
    key,
  );
}

describe("webhook events", () => {
  it("go a month after they were made, once sent or given up; an open incident's own event stays", async () => {
    const now = Date.now();
    const [old, recent] = [now - 31 * DAY, now - 29 * DAY];
    const [open] = await app.sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting) VALUES (?1, 'backlog', 1) RETURNING id",
      old,
    );
    const [ended] = await app.sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting, resolved_at) VALUES (?1, 'backlog', 1, ?1) RETURNING id",
      old,
    );
    await addEvent("retention-test:old-sent", old, "sent");
    await addEvent("retention-test:old-given-up", old, "failed");
    await addEvent("retention-test:old-still-trying", old, "pending");
    await addEvent(`incident:${open?.id}`, old, "sent");
    await addEvent(`incident:${ended?.id}`, old, "sent");
    await addEvent("retention-test:recent-sent", recent, "sent");

    await app.runCron();

    const left = await app.sql<{ once_key: string }>(
      "SELECT once_key FROM webhook_events WHERE once_key LIKE 'retention-test:%' OR once_key IN (?1, ?2) ORDER BY id",
      `incident:${open?.id}`,
      `incident:${ended?.id}`,
    );
    expect(left.map((e) => e.once_key)).toEqual([
      "retention-test:old-still-trying",
      `incident:${open?.id}`,
      "retention-test:recent-sent",
    ]);
    expect(app.logs()).toMatch(/retention: removed .*3 webhook events/);
    await app.sql("DELETE FROM webhook_events WHERE once_key LIKE 'retention-test:%' OR once_key LIKE 'incident:%'");
    await app.sql("DELETE FROM delivery_incidents");
  });

  it("a run with none to remove reads about one row, however many are kept", async () => {
    const recent = Date.now() - 29 * DAY;
    await app.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO webhook_events (event, payload, created_at, status, once_key)
       SELECT 'delivery.incident', '{}', ?1 + i, 'sent', 'retention-test:kept-' || i FROM n`,
      recent,
    );
    const { meta } = await app.db
      .prepare(retentionStatement("PRUNE_WEBHOOK_EVENTS"))
      .bind(Date.now() - 30 * DAY, 2000)
      .run();
    expect(meta.changes).toBe(0);
    expect(meta.rows_read).toBeLessThanOrEqual(3);
    await app.sql("DELETE FROM webhook_events WHERE once_key LIKE 'retention-test:%'");
  });
});

describe("the owners' copies of incident e-mails", () => {
  it("go a month after they were written, once sent or given up; one still retried stays", async () => {
    const now = Date.now();
    const [old, recent] = [now - 31 * DAY, now - 29 * DAY];
    const [incident] = await app.sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting, resolved_at) VALUES (?1, 'backlog', 1, ?1) RETURNING id",
      old,
    );
    const copy = (email: string, createdAt: number, status: string): [string, ...unknown[]] => [
      `INSERT INTO alert_mails (incident_id, kind, email, subject, text, html, created_at, status)
       VALUES (?1, 'alert', ?2, 'Leads não estão chegando ao Jetimob', '', '', ?3, ?4)`,
      incident?.id,
      email,
      createdAt,
      status,
    ];
    await app.batch([
      copy("old-sent@example.com", old, "sent"),
      copy("old-given-up@example.com", old, "failed"),
      copy("old-still-trying@example.com", old, "pending"),
      copy("recent-sent@example.com", recent, "sent"),
    ]);

    await app.runCron();

    const left = await app.sql<{ email: string }>("SELECT email FROM alert_mails ORDER BY id");
    expect(left.map((c) => c.email)).toEqual(["old-still-trying@example.com", "recent-sent@example.com"]);
    expect(app.logs()).toMatch(/retention: removed .*2 owners' alert e-mails/);
    await app.sql("DELETE FROM alert_mails");
    await app.sql("DELETE FROM delivery_incidents");
  });

  it("of an incident still open stay however old: its end goes to those its alert reached", async () => {
    const old = Date.now() - 45 * DAY;
    const [incident] = await app.sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting, alerted_at, alerted_reasons) VALUES (?1, 'given_up', 1, ?1, 'given_up') RETURNING id",
      old,
    );
    await app.sql(
      `INSERT INTO alert_mails (incident_id, kind, email, subject, text, html, created_at, status)
       VALUES (?1, 'alert', 'reached@example.com', 'Leads não estão chegando ao Jetimob', '', '', ?2, 'sent')`,
      incident?.id,
      old,
    );
    // The statement itself: a cron run would first end this incident, which has no cause.
    const { meta } = await app.db
      .prepare(retentionStatement("PRUNE_ALERT_MAILS"))
      .bind(Date.now() - 30 * DAY, 2000)
      .run();
    expect(meta.changes).toBe(0);
    const left = await app.sql<{ email: string }>("SELECT email FROM alert_mails");
    expect(left.map((c) => c.email)).toEqual(["reached@example.com"]);
    await app.sql("UPDATE delivery_incidents SET resolved_at = ?1", Date.now());
    await app.db
      .prepare(retentionStatement("PRUNE_ALERT_MAILS"))
      .bind(Date.now() - 30 * DAY, 2000)
      .run();
    expect(await app.sql("SELECT email FROM alert_mails")).toEqual([]);
    await app.sql("DELETE FROM alert_mails");
    await app.sql("DELETE FROM delivery_incidents");
  });

  it("a run with none to remove reads about one row, however many are kept", async () => {
    const recent = Date.now() - 29 * DAY;
    const [incident] = await app.sql<{ id: number }>(
      "INSERT INTO delivery_incidents (started_at, reasons, waiting, resolved_at) VALUES (?1, 'backlog', 1, ?1) RETURNING id",
      recent,
    );
    await app.sql(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO alert_mails (incident_id, kind, email, subject, text, html, created_at, status)
       SELECT ?2, 'alert', 'kept-' || i || '@example.com', 's', '', '', ?1 + i, 'sent' FROM n`,
      recent,
      incident?.id,
    );
    const { meta } = await app.db
      .prepare(retentionStatement("PRUNE_ALERT_MAILS"))
      .bind(Date.now() - 30 * DAY, 2000)
      .run();
    expect(meta.changes).toBe(0);
    expect(meta.rows_read).toBeLessThanOrEqual(3);
    await app.sql("DELETE FROM alert_mails");
    await app.sql("DELETE FROM delivery_incidents");
  });
});

describe("a backlog", () => {
  it("is cleared over several runs, at most 2,000 rows of a table each", async () => {
    const { client, email } = await signedInStaff(app, mail, PASSWORD);
    const session = await sessionOf(client);
    const ended = Date.now() - 40 * DAY;
    await app.batch([
      ["UPDATE staff_sessions SET expires_at = ?1 WHERE id = ?2", ended, session],
      [
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4499)
         INSERT INTO refresh_tokens (token_hash, session_id, created_at, rotated_at)
         SELECT 'backlog-' || i, ?1, ?2, ?2 FROM n`,
        session,
        ended,
      ],
      [
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
         INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
         SELECT 'backlog-' || i, id, ?2, ?2 FROM n, staff_users WHERE email = ?1`,
        email,
        ended,
      ],
      [
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500)
         INSERT INTO webhook_events (event, payload, created_at, status, once_key)
         SELECT 'delivery.incident', '{}', ?1, 'sent', 'backlog-' || i FROM n`,
        ended,
      ],
    ]);
    const left = async () => ({
      tokens: await tokenRows(session),
      session: await sessionRows(session),
      resets: await count("SELECT count(*) AS n FROM password_resets WHERE token_hash LIKE 'backlog-%'"),
      events: await count("SELECT count(*) AS n FROM webhook_events WHERE once_key LIKE 'backlog-%'"),
    });
    expect(await left()).toEqual({ tokens: 4500, session: 1, resets: 2500, events: 2500 });

    await app.runCron();
    expect(await left()).toEqual({ tokens: 2500, session: 1, resets: 500, events: 500 });
    await app.runCron();
    expect(await left()).toEqual({ tokens: 500, session: 1, resets: 0, events: 0 });
    await app.runCron();
    expect(await left()).toEqual({ tokens: 0, session: 0, resets: 0, events: 0 });
  });
});
