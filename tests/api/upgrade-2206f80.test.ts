import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { accepted, type FakeJetimob } from "../support/fake-jetimob";
import { aLead, postLead } from "../support/leads";
import {
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
} from "../support/release";
import { StaffClient } from "../support/staff";

// A database as release 2206f80 left it: migrations 0001 to 0011 applied the
// way `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-2206f80.sql, every table).
// 0012 to 0014 are applied as production would get them, then every row is read back,
// and the panel's tagged reload is used on it.
const RELEASE_MIGRATIONS = 11;
const DOMAIN = "altosdaserraimoveis.com.br";
const OWNER = { email: `ana.responsavel@${DOMAIN}`, password: "vinho-tinto-2026" };

let app: App;
let jetimob: FakeJetimob;
let before: Record<string, Rows>;
let after: Record<string, Rows>;
let upgraded: Upgraded | undefined;

beforeAll(async () => {
  upgraded = await upgradeRelease("2206f80", RELEASE_MIGRATIONS);
  ({ app, jetimob, before, after } = upgraded);
});

afterAll(() => upgraded?.stop());

describe("a database made by release 2206f80", () => {
  it("was filled in every table", () => {
    for (const [table, rows] of Object.entries(before)) expect(rows.length, table).toBeGreaterThan(0);
  });

  it("gets 0012 to 0014, recorded as applied", async () => {
    expect(await migrationsSince(app, RELEASE_MIGRATIONS)).toEqual(await migrationFilesSince(RELEASE_MIGRATIONS));
  });

  it("keeps every row of every table, ids included; the change counter starts at nought, moved once a lead by 0015", async () => {
    const expected = await asUpgradedSince(app, before, RELEASE_MIGRATIONS);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(after[table], table).toEqual(expected[table]);
    // 0015 wrote each lead's source: an open panel's list is read again once.
    expect(after.lead_changes).toEqual([{ id: 1, n: before.leads?.length }]);
  });
});

describe("after the upgrade, the panel's reload", () => {
  it("is 304 while the release's leads stay as they were, and shows what changes them", async () => {
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const list = (tag?: string | null) =>
      staff.call("GET", "/api/leads", undefined, tag ? { "If-None-Match": tag } : {});
    const names = (answer: { body: Record<string, unknown> }) =>
      (answer.body.leads as { name: string }[]).map((l) => l.name);

    const first = await list();
    expect(first.status).toBe(200);
    expect(names(first)).toContain("Paulo Pendente");
    const [counter] = await app.sql<{ n: number }>("SELECT n FROM lead_changes WHERE id = 1");
    expect(first.headers.get("ETag")).toMatch(new RegExp(`^W/"${counter?.n}-`));
    expect((await list(first.headers.get("ETag"))).status).toBe(304);

    // 'Marcar Enviado' on a lead the release left waiting.
    const paulo = (first.body.leads as { id: string; name: string }[]).find((l) => l.name === "Paulo Pendente");
    expect((await staff.call("POST", `/api/leads/${paulo?.id}/mark-sent`, {})).status).toBe(200);
    const marked = await list(first.headers.get("ETag"));
    expect(marked.status).toBe(200);
    expect(marked.body.leads as { name: string; jetimob_enviado: boolean }[]).toContainEqual(
      expect.objectContaining({ name: "Paulo Pendente", jetimob_enviado: true }),
    );

    // A visitor's new lead.
    jetimob.answerEveryone(accepted());
    expect((await postLead(app, aLead({ name: "Nina Depois Da Migração" }))).status).toBe(200);
    const arrived = await list(marked.headers.get("ETag"));
    expect(arrived.status).toBe(200);
    expect(names(arrived)).toContain("Nina Depois Da Migração");
  });
});
