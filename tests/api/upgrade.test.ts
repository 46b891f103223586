import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { eventually } from "../support/net";
import { migrationFilesSince } from "../support/release";
import {
  buildReleaseDatabase,
  expectedAfterUpgrade,
  type ReleaseData,
  releaseData,
  rowsNow,
  SCHEMA_FILE,
} from "../support/release-66b2b0b";
import { StaffClient } from "../support/staff";

// A database made and filled by the last release before migrations (66b2b0b)
// is upgraded by `migrations/` exactly as `wrangler d1 migrations apply` would
// upgrade production, then read back: every row, and through the API.
// Every new migration extends this test with what it must keep.
let app: App;
let data: ReleaseData;
const jetimob = new FakeJetimob();
const mail = new FakeMail();

beforeAll(async () => {
  await Promise.all([jetimob.start(), mail.start()]);
  app = await spawnApp({
    migrate: false,
    vars: {
      ...jetimob.settings(),
      ...mail.settings(),
    },
  });
  data = releaseData();
  await buildReleaseDatabase(app, data);
  await app.migrate();
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([jetimob.stop(), mail.stop()]);
});

describe(`a database made by release 66b2b0b (${SCHEMA_FILE.split("/").at(-1)})`, () => {
  it("records every migration as applied", async () => {
    const applied = await app.sql<{ name: string }>("SELECT name FROM d1_migrations ORDER BY id");
    expect(applied.map((m) => m.name)).toEqual(await migrationFilesSince(0));
  });

  it("0002: the earliest confirmed account is the owner, the others staff, none switched off", async () => {
    const rows = await app.sql("SELECT id, role, disabled_at, last_sign_in_at FROM staff_users ORDER BY id");
    expect(rows).toEqual([
      { id: "staff-antigo-1", role: "owner", disabled_at: null, last_sign_in_at: null },
      { id: "staff-antigo-2", role: "staff", disabled_at: null, last_sign_in_at: null },
      { id: "staff-antigo-3", role: "staff", disabled_at: null, last_sign_in_at: null },
    ]);
  });

  it("0002: the audit trail keeps its ids, and new entries come after them", async () => {
    const [max] = await app.sql<{ id: number }>("SELECT max(id) AS id FROM audit_log");
    expect(max?.id).toBe(3);
    await app.sql(
      "INSERT INTO audit_log (at, staff_id, staff_email, action, account_id) VALUES (?1, NULL, 'x@y.z', 'sign_in_failed', NULL)",
      Date.now(),
    );
    const [next] = await app.sql<{ id: number }>("SELECT max(id) AS id FROM audit_log");
    expect(next?.id).toBe(4);
    await app.sql("DELETE FROM audit_log WHERE id = 4");
  });

  for (const table of [
    "leads",
    "staff_users",
    "email_confirmations",
    "staff_sessions",
    "refresh_tokens",
    "rate_limits",
    "audit_log",
  ]) {
    it(`keeps every row of ${table}, every column as it was (but for what a migration changes on purpose)`, async () => {
      expect(data.tables[table]?.rows.length).toBeGreaterThan(0);
      expect(await rowsNow(app, data, table)).toEqual(expectedAfterUpgrade(data, table));
    });
  }

  it("0003: each lead has its first submission on record, as the lead had it", async () => {
    const submissions = await app.sql<Record<string, unknown>>(
      `SELECT lead_id AS id, submitted_at AS created_at, name, email, whatsapp, origem, utm_source, utm_medium,
         utm_campaign, utm_term, utm_content, gclid, fbclid, referrer, page_url
       FROM lead_submissions ORDER BY lead_id`,
    );
    const firstTouch = (data.tables.leads?.rows ?? [])
      .map((l) => {
        const { id, created_at, name, email, whatsapp, origem } = l;
        const { utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, referrer, page_url } = l;
        return {
          id,
          created_at,
          name,
          email,
          whatsapp,
          origem,
          utm_source,
          utm_medium,
          utm_campaign,
          utm_term,
          utm_content,
          gclid,
          fbclid,
          referrer,
          page_url,
        };
      })
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(submissions).toEqual(firstTouch);
  });

  it("0003: a lead already in the CRM is taken as sent with the details it has", async () => {
    const rows = await app.sql("SELECT id, sent_name, sent_whatsapp, update_status FROM leads ORDER BY id");
    expect(rows.filter((r) => r.sent_name !== null)).toEqual([
      { id: "antigo-1", sent_name: "Joana Sent Pela Integração", sent_whatsapp: "+5549999000001", update_status: null },
      { id: "antigo-2", sent_name: "Marcos Marcado Pela Equipe", sent_whatsapp: "+5549999000002", update_status: null },
    ]);
  });

  it("0011: each search row of that release's leads is named with its lead", async () => {
    const index = await app.sql("SELECT rowid AS search_rowid, lead_id FROM leads_search ORDER BY rowid");
    expect(new Set(index.map((r) => r.lead_id))).toEqual(new Set(data.tables.leads?.rows.map((l) => l.id)));
    expect(await app.sql("SELECT search_rowid, lead_id FROM leads_search_rows ORDER BY search_rowid")).toEqual(index);
  });

  it("0007, 0008, 0010: the panel's and the cron's lookups read the indexes they made, not every row", async () => {
    const plan = async (sql: string) =>
      (await app.sql<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)).map((p) => p.detail).join(" ");
    // 'Falharam', newest first.
    expect(
      await plan(
        "SELECT id FROM leads WHERE (delivery_status = 'failed' OR update_status = 'failed') ORDER BY created_at DESC, id DESC LIMIT 50",
      ),
    ).toBe("SCAN leads USING INDEX leads_attention_newest");
    // The oldest correction waiting.
    expect(await plan("SELECT min(update_requested_at) FROM leads WHERE update_status IS NOT NULL")).toBe(
      "SEARCH leads USING INDEX leads_corrections_waiting",
    );
    // A recovery to claim, the last hour's alert, an owner's copy of an alert due.
    expect(
      await plan(
        "SELECT id FROM delivery_incidents WHERE resolved_at IS NOT NULL AND alerted_at IS NOT NULL AND recovery_alerted_at IS NULL ORDER BY id DESC LIMIT 1",
      ),
    ).toContain("delivery_incidents_recovery_due");
    expect(await plan("SELECT 1 FROM delivery_incidents WHERE alerted_at > 1")).toContain("delivery_incidents_alerted");
    expect(await plan("SELECT id FROM alert_mails WHERE status = 'pending' AND next_attempt_at <= 1")).toContain(
      "alert_mails_due",
    );
  });

  it("keeps the search index: an old lead is found by name, without accents", async () => {
    const staff = new StaffClient(app);
    expect((await staff.login(data.owner.email, data.owner.password)).status).toBe(200);
    const found = await staff.call("GET", "/api/leads?q=fatima%20conceicao");
    expect((found.body.leads as { id: string }[]).map((l) => l.id)).toEqual(["antigo-3"]);
  });
});

describe("after the upgrade, through the API", () => {
  it("staff sign in with the passwords they had, and the panel lists every lead with its state", async () => {
    const staff = new StaffClient(app);
    expect((await staff.login(data.owner.email, data.owner.password)).status).toBe(200);
    const list = await staff.call("GET", "/api/leads");
    expect(list.status).toBe(200);
    const leads = list.body.leads as Record<string, unknown>[];
    const leadRows = data.tables.leads?.rows ?? [];
    expect(leads.map((l) => l.id).sort()).toEqual(leadRows.map((l) => l.id).sort());
    // Each lead once; none waits for a first contact (they came before contacts were recorded).
    expect(list.body.counts).toEqual({
      total: 6,
      sent: 2,
      pending: 3,
      failed: 1,
      attention: 1,
      duplicates: 0,
      delivered: 2,
      uncontacted: 0,
      mine: 0,
    });
    const joana = leads.find((l) => l.id === "antigo-1");
    expect(joana).toMatchObject({
      name: "Joana Sent Pela Integração",
      whatsapp_display: "(49) 99900-0001",
      delivery_status: "sent",
      sent_by: "crm",
      gclid: "g-antigo-1",
      utm_campaign: "pre-lancamento",
    });
    expect(leads.find((l) => l.id === "antigo-4")).toMatchObject({ submission_count: 3, delivery_attempts: 2 });
  });

  it("a colleague signed in before the upgrade stays signed in", async () => {
    const colleague = new StaffClient(app);
    colleague.cookie = data.colleagueRefreshToken;
    const refreshed = await colleague.refresh();
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ user: { email: data.colleague.email } });
    expect((await colleague.session()).status).toBe(200);
  });

  it("a refresh token rotated before the upgrade still counts as stolen", async () => {
    const thief = new StaffClient(app);
    thief.cookie = data.rotatedRefreshToken;
    expect((await thief.refresh()).status).toBe(401);
  });

  it("a sign-up left unconfirmed then is confirmed with the password chosen then", async () => {
    const pending = new StaffClient(app);
    expect((await pending.confirm(data.confirmationToken, "outra-senha")).status).toBe(422);
    const confirmed = await pending.confirm(data.confirmationToken, "ainda-nao-confirmada");
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ user: { email: data.pendingStaff, role: "staff" } });
  });

  it("the owner sees the whole team and the old activity", async () => {
    const owner = new StaffClient(app);
    const signedIn = await owner.login(data.owner.email, data.owner.password);
    expect(signedIn.body).toMatchObject({ user: { role: "owner" } });
    const team = await owner.call("GET", "/api/staff");
    expect(team.status).toBe(200);
    const emails = (team.body.accounts as { email: string }[]).map((a) => a.email);
    expect(emails.sort()).toEqual([data.owner.email, data.colleague.email, data.pendingStaff].sort());
    const activity = await owner.call("GET", "/api/audit");
    const old = (activity.body.entries as { id: number; action: string; lead_id: string | null }[]).filter(
      (e) => e.id <= 3,
    );
    expect(old).toEqual([
      expect.objectContaining({ id: 3, action: "delete", lead_id: "antigo-apagado" }),
      expect.objectContaining({ id: 2, action: "resend", lead_id: "antigo-3" }),
      expect.objectContaining({ id: 1, action: "mark_sent", lead_id: "antigo-2" }),
    ]);
  });

  it("the rate-limit counters of the window in progress still count", async () => {
    const blocked = await new StaffClient(app).login("bloqueado@example.com", "qualquer-senha");
    expect(blocked.status).toBe(429);
  });

  it("0004: the owner gets the new-lead notices from the upgrade on, the others can switch them on", async () => {
    const [last] = await app.sql<{ id: number }>("SELECT max(id) AS id FROM lead_submissions");
    const rows = await app.sql("SELECT id, lead_notices, notices_sent_through FROM staff_users ORDER BY id");
    expect(rows).toEqual([
      { id: "staff-antigo-1", lead_notices: 1, notices_sent_through: last?.id },
      { id: "staff-antigo-2", lead_notices: 0, notices_sent_through: null },
      // Confirmed since the upgrade (above), a new colleague starts with them on (0023's default).
      { id: "staff-antigo-3", lead_notices: 1, notices_sent_through: last?.id },
    ]);
    const kinds = await app.sql("SELECT DISTINCT kind FROM lead_submissions");
    expect(kinds).toEqual([{ kind: "new" }]);
  });

  it("0005: the panel's counters start as a count of that release's leads says", async () => {
    const counters = await app.sql("SELECT name, n FROM lead_counters ORDER BY name");
    const leads = data.tables.leads?.rows ?? [];
    const count = (status: string) => leads.filter((l) => l.delivery_status === status).length;
    expect(counters).toEqual([
      { name: "attention", n: count("failed") },
      { name: "duplicates", n: 0 },
      { name: "failed", n: count("failed") },
      { name: "pending", n: count("pending") },
      { name: "sent", n: count("sent") },
    ]);
    expect(count("sent") + count("pending") + count("failed")).toBe(leads.length);
  });

  it("a pending lead due before the upgrade is delivered by the next cron run", async () => {
    await app.runCron();
    // ...and nobody is sent a notice about the leads from before the upgrade.
    expect(mail.messages().filter((m) => /lead/i.test(m.subject) && !/Jetimob/.test(m.subject))).toEqual([]);
    const calls = jetimob.callsFor("lead.antigo4@example.com");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.fields.full_name).toBe("Paulo Pendente Repetido");
    const [row] = await app.sql("SELECT delivery_status, delivery_attempts FROM leads WHERE id = 'antigo-4'");
    expect(row).toEqual({ delivery_status: "sent", delivery_attempts: 3 });
  });

  it("a visitor of that release who corrects their number waits for staff, and once accepted reaches the CRM as a correction", async () => {
    // That release set no proof cookie: the browser is one the lead cannot tell from a stranger's.
    const answer = await fetch(`${app.baseUrl}/functions/v1/send-lead-jetimob`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: app.baseUrl, "CF-Connecting-IP": "203.0.113.99" },
      body: JSON.stringify({
        name: "Joana Sent Pela Integração",
        email: "lead.antigo1@example.com",
        whatsapp: "(49) 98888-7777",
      }),
    });
    expect(answer.status).toBe(200);
    const [change] = await app.sql<{ id: number }>(
      "SELECT id FROM lead_submissions WHERE lead_id = 'antigo-1' AND kind = 'pending'",
    );
    expect(change).toBeDefined();
    const staff = new StaffClient(app);
    expect((await staff.login(data.owner.email, data.owner.password)).status).toBe(200);
    expect((await staff.call("POST", `/api/leads/antigo-1/changes/${change?.id}/accept`, {})).status).toBe(200);
    const message = "Dados atualizados pelo visitante: WhatsApp (49) 98888-7777 (antes (49) 99900-0001)";
    await eventually(async () => jetimob.callsFor("lead.antigo1@example.com").at(-1)?.fields.message === message);
  });

  it("0006: the cron removes that release's confirmation link that expired 39 days ago, and nothing else of it", async () => {
    await app.runCron();
    const monthAgo = Date.now() - 30 * 24 * 60 * 60 * 1000;
    const links = expectedAfterUpgrade(data, "email_confirmations");
    const kept = links.filter((r) => Number(r.expires_at) > monthAgo);
    expect(kept).toHaveLength(links.length - 1);
    // (An earlier test used the other link, so only which links are left is compared.)
    const left = await rowsNow(app, data, "email_confirmations");
    expect(left.map((r) => r.token_hash)).toEqual(kept.map((r) => r.token_hash));
    // Earlier tests used that release's sessions and counters: every one of them is still there.
    for (const table of ["staff_sessions", "refresh_tokens", "rate_limits"]) {
      const key = data.tables[table]?.key ?? "";
      const keys = (rows: Record<string, unknown>[]) => rows.map((r) => r[key]);
      expect(keys(await rowsNow(app, data, table))).toEqual(
        expect.arrayContaining(keys(expectedAfterUpgrade(data, table))),
      );
    }
  });

  it("the CSV export has every lead", async () => {
    const staff = new StaffClient(app);
    await staff.login(data.owner.email, data.owner.password);
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + (data.tables.leads?.rows.length ?? 0));
    expect(lines.some((l) => l.startsWith(`"<b>O'Brien</b> ""aspas"" 🍇";`))).toBe(true);
  });
});
