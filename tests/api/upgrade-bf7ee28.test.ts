import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import {
  asReleaseLeftIt,
  asUpgradedSince,
  everyRow,
  migrationFilesSince,
  migrationsSince,
  type Rows,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release bf7ee28 left it: migrations 0001 to 0007 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-bf7ee28.sql, every table).
// The migrations since are applied as production would get them, then every
// row is read back, and the panel and the cron are used on it.
const RELEASE_MIGRATIONS = 7;
const DOMAIN = "altosdaserraimoveis.com.br";
const OWNER = { email: `ana.responsavel@${DOMAIN}`, password: "vinho-tinto-2026" };

let app: App;
let jetimob: FakeJetimob;
let before: Record<string, Rows>;
let after: Record<string, Rows>;

beforeAll(async () => {
  jetimob = await new FakeJetimob().start();
  app = await spawnApp({ migrate: false, vars: jetimob.settings() });
  await asReleaseLeftIt(app, "bf7ee28", RELEASE_MIGRATIONS);
  before = await everyRow(app);
  await app.migrate();
  after = await everyRow(app);
});

afterAll(async () => {
  await app?.stop();
  await jetimob?.stop();
});

async function health() {
  const answer = await fetch(`${app.baseUrl}/api/health`);
  return (await answer.json()) as { status: string; reason?: string; oldest_correction_minutes: number };
}

describe("a database made by release bf7ee28", () => {
  it("was filled in every table, a person's second address and a changed password among them", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
    const actions = (before.audit_log ?? []).map((a) => a.action);
    expect(actions.filter((a) => a === "disable")).toHaveLength(2);
    expect(actions).toContain("password_change");
  });

  it("gets the migrations since, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table as it was (0008 adds an index; 0009 two columns, empty on these rows; 0010 a table, 0011 one filled from the search index, 0012 the change counter)", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(expected[table]);
  });

  it("the oldest waiting correction is read from the new index's first entry, not by reading the leads", async () => {
    const plan = await app.sql<{ detail: string }>(
      "EXPLAIN QUERY PLAN SELECT min(update_requested_at) FROM leads WHERE update_status IS NOT NULL",
    );
    expect(plan.map((p) => p.detail)).toEqual(["SEARCH leads USING INDEX leads_corrections_waiting"]);
  });
});

describe("after the upgrade, through the API and the cron", () => {
  it("staff sign in as the release left them: the changed password, and nobody who was switched off", async () => {
    expect((await new StaffClient(app).login(OWNER.email, OWNER.password)).status).toBe(200);
    const colleague = `bruno.vendas@${DOMAIN}`;
    expect((await new StaffClient(app).login(colleague, "uva-merlot-2026")).status).toBe(401);
    expect((await new StaffClient(app).login(colleague, "uva-merlot-safra-2027")).status).toBe(200);
    for (const gone of [`carlos.saiu@${DOMAIN}`, `carlos.saiu+celular@${DOMAIN}`]) {
      expect((await new StaffClient(app).login(gone, "garrafa-rose-2026")).status, gone).toBe(403);
    }
  });

  it("the correction Jetimob refused for a week keeps an incident open until someone acts on it", async () => {
    // The cron delivers what waits (Marta's correction, Paulo's lead); Rui's
    // correction was given up and Fátima's lead too: both wait for a person.
    await app.runCron();
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const list = await staff.call("GET", "/api/leads?status=falhas");
    const waiting = list.body.leads as { id: string; name: string; update_status: string | null }[];
    expect(waiting.map((l) => l.name).sort()).toEqual(["Fátima Desistida", "Rui Correção Recusada"]);
    const incident = list.body.incident as { details: { what: string }[] };
    expect(incident.details.map((d) => d.what)).toEqual([
      "Há leads que o Jetimob não aceitou em 7 dias de tentativas: eles não estão no Jetimob e não serão mais enviados sozinhos.",
      "Há correções de visitantes esperando há mais de 15 minutos para chegar ao Jetimob: lá, esses leads ainda estão com os dados antigos (nome, e-mail ou WhatsApp).",
    ]);

    // Fátima's lead is sent again; Rui's correction is entered in Jetimob by hand.
    const fatima = waiting.find((l) => l.name === "Fátima Desistida");
    const rui = waiting.find((l) => l.name === "Rui Correção Recusada");
    expect((await staff.call("POST", `/api/leads/${fatima?.id}/resend`, {})).body).toMatchObject({ delivered: true });
    await app.runCron();
    const still = await staff.call("GET", "/api/leads");
    expect((still.body.incident as { details: { what: string }[] }).details.map((d) => d.what)).toEqual([
      "Há correções de visitantes esperando há mais de 15 minutos para chegar ao Jetimob: lá, esses leads ainda estão com os dados antigos (nome, e-mail ou WhatsApp).",
    ]);
    expect((await staff.call("POST", `/api/leads/${rui?.id}/mark-sent`, {})).status).toBe(200);
    await app.runCron();
    expect((await staff.call("GET", "/api/leads")).body.incident).toBeNull();
    const [open] = await app.sql<{ n: number }>(
      "SELECT count(*) AS n FROM delivery_incidents WHERE resolved_at IS NULL",
    );
    expect(open?.n).toBe(0);
    expect((await health()).oldest_correction_minutes).toBe(0);
  });
});
