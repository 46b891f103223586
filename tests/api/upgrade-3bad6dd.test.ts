import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../support/app";
import type { FakeMail } from "../support/fake-mail";
import {
  alertSubjects,
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 3bad6dd left it: migrations 0001 to 0009 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-3bad6dd.sql, every table).
// 0010 to 0014 are applied as production would get them, then every row is
// read back, and the panel, the cron and the owners' e-mails are used on it.
const RELEASE_MIGRATIONS = 9;
const DOMAIN = "altosdaserraimoveis.com.br";
const OWNER = { email: `ana.responsavel@${DOMAIN}`, password: "vinho-tinto-2026" };

let app: App;
let mail: FakeMail;
let before: Record<string, Rows>;
let after: Record<string, Rows>;
let upgraded: Upgraded | undefined;

beforeAll(async () => {
  upgraded = await upgradeRelease("3bad6dd", RELEASE_MIGRATIONS);
  ({ app, mail, before, after } = upgraded);
});

afterAll(() => upgraded?.stop());

/** The subjects of the alerts the owner was e-mailed (new-lead notices left out). */
function alertsToOwner(): string[] {
  return alertSubjects(mail, OWNER.email);
}

describe("a database made by release 3bad6dd", () => {
  it("was filled in every table: an incident open and alerted, its alert naming a cause gone since", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
    expect(before.delivery_incidents).toEqual([
      expect.objectContaining({
        reasons: "backlog,corrections",
        alerted_reasons: "backlog,corrections,keys_refused",
        alerted_at: expect.any(Number),
        resolved_at: null,
      }),
    ]);
    expect(before.webhook_events?.find((e) => e.event === "delivery.incident")?.once_key).toBe("incident:1");
  });

  it("gets 0010 to 0014, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table, ids included; alert_mails starts empty, leads_search_rows names every search row", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(after[table], table).toEqual(expected[table]);
    expect(after.alert_mails).toEqual([]);
    // Every lead's search rows, its earlier details among them, are named by it.
    expect(after.leads_search_rows).toHaveLength(after.leads_search?.length ?? -1);
    expect(new Set(after.leads_search_rows?.map((r) => r.lead_id))).toEqual(new Set(before.leads?.map((l) => l.id)));
  });

  it("0010: the cron's looks for the last hour's alert and for a recovery to claim read their indexes", async () => {
    const plan = async (sql: string) =>
      (await app.sql<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)).map((p) => p.detail).join(" ");
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
});

describe("after the upgrade, through the API and the cron", () => {
  it("the incident the release alerted is not alerted again, and its end reaches the owner once, as a copy", async () => {
    await app.runCron();
    await app.runCron();
    // Only what this release tells and the last did not: a lead given up waits for a person. Once.
    expect(alertsToOwner()).toEqual(["Leads não estão chegando ao Jetimob"]);
    expect(
      mail.messagesTo(OWNER.email).find((m) => m.subject === "Leads não estão chegando ao Jetimob")?.text,
    ).toContain("Há leads que o Jetimob não aceitou em 7 dias de tentativas");

    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const waiting = (await staff.call("GET", "/api/leads?status=falhas")).body.leads as { id: string; name: string }[];
    expect(waiting.map((l) => l.name).sort()).toEqual(["Fátima Desistida", "Rui Correção Recusada"]);
    for (const lead of waiting) {
      expect((await staff.call("POST", `/api/leads/${lead.id}/mark-sent`, {})).status).toBe(200);
    }
    await Promise.all([app.runCron(), app.runCron()]);
    await app.runCron();

    expect((await staff.call("GET", "/api/leads")).body.incident).toBeNull();
    // Its end goes to the owner the alerts reached, and speaks of what they named: leads,
    // not only corrections.
    expect(alertsToOwner()).toEqual(["Leads não estão chegando ao Jetimob", "Entrega ao Jetimob normalizada"]);
    const copies = await app.sql<{ kind: string; email: string; status: string }>(
      "SELECT kind, email, status FROM alert_mails WHERE incident_id = 1 ORDER BY id",
    );
    expect(copies.map((c) => [c.kind.replace(/@\d+$/, ""), c.email, c.status])).toEqual([
      ["joined:~backlog,corrections,~keys_refused,given_up", OWNER.email, "sent"],
      ["recovery", OWNER.email, "sent"],
    ]);
  });

  it("'Excluir' on a lead the release wrote, corrected since, removes its search rows, earlier details too", async () => {
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const [marta] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE name = 'Marta Corrigindo'");
    const rows = () => app.sql("SELECT rowid FROM leads_search WHERE lead_id = ?1", marta?.id);
    expect((await rows()).length).toBeGreaterThan(1);
    expect((await staff.call("DELETE", `/api/leads/${marta?.id}`)).status).toBe(200);
    expect(await rows()).toEqual([]);
    expect(await app.sql("SELECT * FROM leads_search_rows WHERE lead_id = ?1", marta?.id)).toEqual([]);
    const found = await staff.call("GET", "/api/leads?q=Marta");
    expect(found.body.leads).toEqual([]);
  });
});
