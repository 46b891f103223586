import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnApp } from "../support/app";
import { Browser, postLead } from "../support/leads";
import { eventually } from "../support/net";
import {
  asReleaseLeftIt,
  asUpgradedSince,
  migrationFilesSince,
  migrationsSince,
  type Rows,
  type Upgraded,
  upgradeRelease,
  visitsByLine,
} from "../support/release";
import { sourceOf } from "../support/seed";
import { StaffClient } from "../support/staff";

// A database as each kept release left it: its own migrations applied the way
// `wrangler d1 migrations apply` applies them, filled with the rows that
// release's own worker wrote (tests/fixtures/release-<commit>.sql, every
// table, made by tests/fixtures/release.make.ts), the last lead's webhook
// event refused by the receiver and waiting. The migrations since are applied
// as production would get them; then every row is read back, each id counter
// is where it was, the waiting event goes, and the release's own checks run.
// Which releases are kept, and why: docs/decisions.md, 'Upgrade tests' (the
// database made before migrations, 66b2b0b, is upgrade.test.ts's).

const OWNER = { email: "ana.responsavel@altosdaserraimoveis.com.br", password: "vinho-tinto-2026" };

/** The release's database, upgraded, and its id counters as the release left them. */
type Upgrade = Upgraded & { sequencesBefore: Rows };

type Release = {
  commit: string;
  /** The migrations it ran: its database is what they made. */
  migrations: number;
  /** What the migrations since must have done with this release's own rows, by name. */
  checks: Record<string, (upgrade: Upgrade) => Promise<void>>;
};

async function signedInOwner(upgrade: Upgrade): Promise<StaffClient> {
  const staff = new StaffClient(upgrade.app);
  expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
  return staff;
}

const RELEASES: Release[] = [
  {
    commit: "26f5d23",
    migrations: 14,
    checks: {
      "0016: a visitor of that release who changes their details waits for staff, the lead unchanged until accepted":
        async (upgrade) => {
          const { app, before } = upgrade;
          const lead = before.leads?.find((l) => l.delivery_status === "sent") as {
            id: string;
            name: string;
            email: string;
          };
          const whatsapp = "(49) 98765-0000";
          expect((await postLead(app, { name: lead.name, email: lead.email, whatsapp })).status).toBe(200);
          const [row] = await app.sql<{ whatsapp: string }>("SELECT whatsapp FROM leads WHERE id = ?1", lead.id);
          expect(row?.whatsapp).not.toBe("+5549987650000");
          const [change] = await app.sql<{ id: number }>(
            "SELECT id FROM lead_submissions WHERE lead_id = ?1 AND kind = 'pending'",
            lead.id,
          );
          const staff = await signedInOwner(upgrade);
          expect((await staff.call("POST", `/api/leads/${lead.id}/changes/${change?.id}/accept`, {})).status).toBe(200);
          await eventually(async () => {
            const [now] = await app.sql<{ whatsapp: string }>("SELECT whatsapp FROM leads WHERE id = ?1", lead.id);
            return now?.whatsapp === "+5549987650000";
          });
        },
      "0016: staff of that release are all approved, with both permissions": async ({ app, before }) => {
        const staff = await app.sql(
          "SELECT approved_at IS NOT NULL AS approved, can_export, can_delete FROM staff_users",
        );
        const confirmed = before.staff_users?.filter((u) => u.confirmed_at !== null).length;
        expect(staff.filter((u) => u.approved === 1)).toHaveLength(confirmed ?? -1);
        expect(staff.every((u) => u.can_export === 1 && u.can_delete === 1)).toBe(true);
      },
      "0017: 'Enviado' is read from the delivery status, the campaign report's 'delivered' follows it, and nobody writes it":
        async (upgrade) => {
          const { app, before } = upgrade;
          const sent = (before.leads ?? []).filter((l) => l.jetimob_enviado === 1).map((l) => l.id);
          expect(sent.length).toBeGreaterThan(0);
          const now = await app.sql<{ id: string; jetimob_enviado: number; delivery_status: string }>(
            "SELECT id, jetimob_enviado, delivery_status FROM leads ORDER BY id",
          );
          // Sent then is sent now (the cron of the checks before may have delivered more since).
          expect(now.filter((l) => l.jetimob_enviado === 1).map((l) => l.id)).toEqual(expect.arrayContaining(sent));
          expect(now.every((l) => l.jetimob_enviado === (l.delivery_status === "sent" ? 1 : 0))).toBe(true);
          await expect(app.sql("UPDATE leads SET jetimob_enviado = 0")).rejects.toThrow(/generated column/);

          const staff = await signedInOwner(upgrade);
          const pending = now.find((l) => l.delivery_status !== "sent");
          const delivered = async () =>
            (await app.sql<{ d: number }>("SELECT sum(delivered) AS d FROM campaign_daily"))[0]?.d ?? 0;
          const deliveredBefore = await delivered();
          const marked = await staff.call("POST", `/api/leads/${pending?.id}/mark-sent`, {});
          expect(marked.status).toBe(200);
          expect(await app.sql("SELECT jetimob_enviado FROM leads WHERE id = ?1", pending?.id)).toEqual([
            { jetimob_enviado: 1 },
          ]);
          expect(await delivered()).toBe(deliveredBefore + 1);
        },
    },
  },
  {
    commit: "14fd90c",
    migrations: 17,
    checks: {
      "0019: each colleague keeps the rights an owner left them and may mark leads sent, until an owner says otherwise":
        async (upgrade) => {
          const { app, before } = upgrade;
          const rights = await app.sql("SELECT id, can_export, can_delete, can_mark_sent FROM staff_users ORDER BY id");
          expect(rights).toEqual(
            (before.staff_users ?? [])
              .map((u) => ({ id: u.id, can_export: u.can_export, can_delete: u.can_delete, can_mark_sent: 1 }))
              .sort((a, b) => String(a.id).localeCompare(String(b.id))),
          );
          expect(rights.some((u) => u.can_export === 0 && u.can_delete === 0)).toBe(true);
          const owner = await signedInOwner(upgrade);
          const colleague = rights.find((u) => u.can_export === 0) as { id: string };
          expect((await owner.call("POST", `/api/staff/${colleague.id}/deny-mark-sent`, {})).status).toBe(200);
          expect(await app.sql("SELECT can_mark_sent FROM staff_users WHERE id = ?1", colleague.id)).toEqual([
            { can_mark_sent: 0 },
          ]);
        },
      "0019: 'Atividade' reads the release's trail by person and action, naming each lead still there": async (
        upgrade,
      ) => {
        const { app, before } = upgrade;
        const owner = await signedInOwner(upgrade);
        const kept = (before.audit_log ?? []).filter((e) => e.lead_id !== null);
        expect(kept.length).toBeGreaterThan(0);
        const entry = kept[0] as { staff_id: string; action: string; lead_id: string };
        const page = await owner.call("GET", `/api/audit?pessoa=${entry.staff_id}&acao=${entry.action}`);
        expect(page.status).toBe(200);
        const entries = page.body.entries as { lead_id: string | null; lead_name: string | null; action: string }[];
        expect(entries.every((e) => e.action === entry.action)).toBe(true);
        const names = await app.sql<{ id: string; name: string }>("SELECT id, name FROM leads");
        for (const e of entries.filter((e) => e.lead_id !== null)) {
          expect(e.lead_name).toBe(names.find((l) => l.id === e.lead_id)?.name ?? null);
        }
        expect(entries.map((e) => e.lead_id)).toContain(entry.lead_id);
      },
      "0022: its leads are mobiles, none marked 'fixo' or answered; a landline sent now is marked, and its answers kept":
        async ({ app, before }) => {
          const leads = await app.sql<{ id: string; landline: number; answers: string | null }>(
            "SELECT id, landline, answers FROM leads",
          );
          expect(leads).toHaveLength(before.leads?.length ?? -1);
          expect(leads.every((l) => l.landline === 0 && l.answers === null)).toBe(true);
          const browser = new Browser();
          const lead = { name: "Helena Fixo", email: "helena.fixo@example.com", whatsapp: "(49) 3566-1200" };
          expect((await postLead(app, lead, { browser })).status).toBe(200);
          const answered = await fetch(`${app.baseUrl}/functions/v1/lead-answers`, {
            method: "POST",
            headers: { "Content-Type": "application/json", Origin: app.baseUrl, Cookie: browser.header() ?? "" },
            body: JSON.stringify({ question: "finalidade", answer: "Para morar" }),
          });
          expect(answered.status).toBe(200);
          expect(await app.sql("SELECT landline, answers FROM leads WHERE email = ?1", lead.email)).toEqual([
            { landline: 1, answers: JSON.stringify({ finalidade: "Para morar" }) },
          ]);
        },
      "0023: its leads wait for no first contact, a lead that arrives now does; 'Já falei' is recorded and its trail kept":
        async (upgrade) => {
          const { app, before } = upgrade;
          const owner = await signedInOwner(upgrade);
          const theirs = new Set((before.leads ?? []).map((l) => l.id));
          expect(theirs.size).toBeGreaterThan(0);
          const waiting = async () => {
            const answer = await owner.call("GET", "/api/leads?contato=nao");
            expect(answer.status).toBe(200);
            return answer.body as unknown as {
              leads: { id: string; email: string }[];
              counts: { uncontacted: number };
            };
          };
          const first = await waiting();
          expect(first.leads.filter((l) => theirs.has(l.id))).toEqual([]);
          // Only leads the other checks sent since are waiting.
          expect(first.counts.uncontacted).toBe(first.leads.length);
          const lead = { name: "Renata Nova", email: "renata.nova@example.com", whatsapp: "(49) 99123-4567" };
          expect((await postLead(app, lead)).status).toBe(200);
          const now = await waiting();
          expect(now.leads[0]?.email).toBe(lead.email);
          expect(now.counts.uncontacted).toBe(first.counts.uncontacted + 1);
          // An old lead contacted now is 'Contatado por', and out of the time to first contact.
          const old = before.leads?.[0] as { id: string };
          const contacted = await owner.call("POST", `/api/leads/${old.id}/contact`, {});
          expect(contacted.status).toBe(200);
          expect(contacted.body).toMatchObject({ recorded: true, contacted_by: OWNER.email });
          const report = await owner.call("GET", "/api/first-contact?de=2020-01-01&ate=2021-12-31");
          expect(report.status).toBe(200);
          const entries = await app.sql<{ id: number; action: string }>("SELECT id, action FROM audit_log ORDER BY id");
          const kept = (before.audit_log ?? [])
            .map((e) => ({ id: Number(e.id), action: e.action }))
            .sort((a, b) => a.id - b.id);
          expect(entries.slice(0, kept.length)).toEqual(kept);
          expect(entries.at(-1)?.action).toBe("contact");
          expect(entries.at(-1)?.id).toBeGreaterThan(Math.max(0, ...kept.map((e) => Number(e.id))));
        },
      "0020: the campaign report of the release's days reads as it did, each line's visits its keys' sum": async (
        upgrade,
      ) => {
        const { before } = upgrade;
        const days = [...new Set((before.visit_counts ?? []).map((v) => String(v.day)))];
        expect(days.length).toBeGreaterThan(0);
        const staff = await signedInOwner(upgrade);
        for (const day of days) {
          const answer = await staff.call("GET", `/api/campaigns?de=${day}&ate=${day}`);
          expect(answer.status).toBe(200);
          const body = answer.body as unknown as { rows: ReportLine[]; limits: unknown[] };
          // Under each source's one name (0024): the spellings of a line added into one.
          const visits = (rows: Rows) => {
            const lines: Record<string, number> = {};
            for (const r of rows.filter((r) => r.day === day && Number(r.visits ?? r.n) > 0)) {
              const key = JSON.stringify([sourceOf(String(r.source)), r.campaign, r.content]);
              lines[key] = (lines[key] ?? 0) + Number(r.visits ?? r.n);
            }
            return lines;
          };
          // What the release's report read (campaign_daily), what its keys add up to, and what it reads now.
          expect(visits(before.campaign_daily ?? [])).toEqual(visits(visitsByLine(before.visit_counts ?? [])));
          expect(visits(body.rows.filter((r) => r.visits > 0).map((r) => ({ ...r, day })))).toEqual(
            visits(before.campaign_daily ?? []),
          );
          expect(body.limits).toEqual([]);
        }
      },
      "0024: 'Instagram', 'instagram' and 'ig' are one source, its leads and visits on one line; spend imports": async (
        upgrade,
      ) => {
        const { app } = upgrade;
        expect(await app.sql("SELECT DISTINCT source FROM leads ORDER BY 1")).toEqual([
          { source: "Direto" },
          { source: "Google" },
          { source: "Instagram" },
        ]);
        expect(
          await app.sql(
            "SELECT source, campaign, content, visits FROM campaign_daily WHERE campaign = 'lancamento' ORDER BY content",
          ),
        ).toEqual([
          { source: "Instagram", campaign: "lancamento", content: "", visits: 1 },
          { source: "Instagram", campaign: "lancamento", content: "video-1", visits: 2 },
        ]);
        const owner = await signedInOwner(upgrade);
        const day = "2026-11-28";
        const report = (await owner.call("GET", `/api/campaigns?de=${day}&ate=${day}`)).body as unknown as {
          rows: (ReportLine & { platform: string })[];
        };
        expect(report.rows.filter((r) => r.campaign === "lancamento").map((r) => [r.platform, r.source])).toEqual([
          ["Meta", "Instagram"],
          ["Meta", "Instagram"],
        ]);
        const imported = await fetch(`${app.baseUrl}/api/campaigns/spend`, {
          method: "POST",
          headers: { Authorization: `Bearer ${owner.accessToken}`, Origin: app.baseUrl },
          body: "data;origem;campanha;investimento\n28/11/2026;ig;lancamento;R$ 10,00\n",
        });
        expect(imported.status).toBe(201);
      },
    },
  },
];

type ReportLine = { source: string; campaign: string; content: string; visits: number };

describe("a day release 14fd90c counted keyword by keyword, past its 500 keys", () => {
  const DAY = "2026-11-20";
  // As that release's worker counted them: a key per medium, keyword and
  // referrer's host, the day's '(outras)' past its 500th, each visit added
  // to the report's row of its line.
  const KEYS: [string, string, string, string, string, string, number][] = [
    ["instagram", "paid", "verao", "video-1", "casa na serra", "", 5],
    ["instagram", "paid", "verao", "video-1", "chale", "", 3],
    ["instagram", "cpc", "verao", "video-1", "", "", 2],
    ["instagram", "paid", "verao", "carrossel", "casa na serra", "", 1],
    ["google", "", "", "", "", "www.google.com.br", 4],
    ["google", "", "", "", "", "google.com", 1],
    ["(outras)", "", "", "", "", "", 40],
  ];
  let app: Awaited<ReturnType<typeof spawnApp>>;
  let campaignRows: Rows;

  beforeAll(async () => {
    app = await spawnApp({ migrate: false });
    await asReleaseLeftIt(app, "14fd90c", 17);
    await app.batch([
      ...KEYS.map((k): [string, ...unknown[]] => [
        `INSERT INTO visit_counts (day, source, medium, campaign, content, term, referrer_host, n)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
        DAY,
        ...k,
      ]),
      [
        `INSERT INTO campaign_daily (day, source, campaign, content, visits)
         SELECT day, source, campaign, content, sum(n) FROM visit_counts WHERE day = ?1 GROUP BY 1, 2, 3, 4
         ON CONFLICT (day, source, campaign, content) DO UPDATE SET visits = visits + excluded.visits`,
        DAY,
      ],
    ]);
    campaignRows = await app.sql("SELECT * FROM campaign_daily WHERE day = ?1 ORDER BY 1, 2, 3, 4", DAY);
    await app.migrate();
  });

  afterAll(() => app?.stop());

  it("0020 adds up the keys of each line, and the report says what it said, with the day's limit", async () => {
    const lines = await app.sql<{ source: string; campaign: string; content: string; n: number }>(
      "SELECT source, campaign, content, n FROM visit_counts WHERE day = ?1 ORDER BY 1, 2, 3",
      DAY,
    );
    expect(lines).toEqual([
      { source: "(outras)", campaign: "", content: "", n: 40 },
      { source: "Google", campaign: "", content: "", n: 5 },
      { source: "Instagram", campaign: "verao", content: "carrossel", n: 1 },
      { source: "Instagram", campaign: "verao", content: "video-1", n: 10 },
    ]);
    // What the release's report read, column by column (later migrations add their own),
    // each under its source's one name (0024).
    const columns = Object.keys(campaignRows[0] ?? {}).join(", ");
    expect(await app.sql(`SELECT ${columns} FROM campaign_daily WHERE day = ?1 ORDER BY 1, 2, 3, 4`, DAY)).toEqual(
      campaignRows.map((r) => ({ ...r, source: sourceOf(String(r.source)) })),
    );
    const staff = new StaffClient(app);
    expect((await staff.login(OWNER.email, OWNER.password)).status).toBe(200);
    const answer = await staff.call("GET", `/api/campaigns?de=${DAY}&ate=${DAY}`);
    const body = answer.body as unknown as { rows: ReportLine[]; limits: unknown[] };
    const byName = (a: unknown[], b: unknown[]) => String(a).localeCompare(String(b));
    expect(
      body.rows
        .filter((r) => r.visits > 0)
        .map((r) => [r.source, r.campaign, r.content, r.visits])
        .sort(byName),
    ).toEqual(lines.map((l) => [l.source, l.campaign, l.content, l.n]).sort(byName));
    expect(body.limits).toEqual([{ day: DAY, overflow: 40, uncounted: 0 }]);
  });
});

describe.each(RELEASES)("a database made by release $commit", ({ commit, migrations, checks }) => {
  let upgrade: Upgrade;

  beforeAll(async () => {
    let sequencesBefore: Rows = [];
    const upgraded = await upgradeRelease(commit, migrations, async (release) => {
      sequencesBefore = await release.sql("SELECT name, seq FROM sqlite_sequence ORDER BY name");
    });
    upgrade = { ...upgraded, sequencesBefore };
  });

  afterAll(() => upgrade?.stop());

  it("was filled in every table, with a webhook event waiting after a refusal", () => {
    for (const [table, rows] of Object.entries(upgrade.before)) expect(rows.length, table).toBeGreaterThan(0);
    expect(upgrade.before.webhook_events?.filter((e) => e.status === "pending")).toEqual([
      expect.objectContaining({ event: "lead.created", attempts: 1, last_error: "HTTP 503: {}" }),
    ]);
  });

  it("gets every migration since, recorded as applied", async () => {
    expect(await migrationsSince(upgrade.app, migrations)).toEqual(await migrationFilesSince(migrations));
  });

  it("keeps every row of every table, ids included, the webhook events of the rebuilt submissions among them", async () => {
    const { app, before, after } = upgrade;
    const expected = await asUpgradedSince(app, before, migrations);
    expect(Object.keys(after)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(after[table], table).toEqual(expected[table]);
    expect(after.webhook_events?.filter((e) => e.submission_id !== null).length).toBeGreaterThan(0);
  });

  it("keeps each id counter where it was, past the rows pruned", async () => {
    const now = await upgrade.app.sql(
      "SELECT name, seq FROM sqlite_sequence WHERE name != 'd1_migrations' ORDER BY name",
    );
    expect(now).toEqual(upgrade.sequencesBefore.filter((s) => s.name !== "d1_migrations"));
  });

  it("sends the webhook event the release left waiting, once, when the receiver takes it again", async () => {
    const { app, before, hook } = upgrade;
    const waiting = before.webhook_events?.find((e) => e.status === "pending") as { id: number };
    await app.sql("UPDATE webhook_events SET next_attempt_at = 0 WHERE id = ?1", waiting.id);
    hook.clear();
    await app.runCron();
    const sent = hook.received.map((r) => JSON.parse(r.body.toString()) as { event: string; lead?: { name: string } });
    expect(sent.filter((e) => e.event === "lead.created" && e.lead?.name === "Olga Ouvida Depois")).toHaveLength(1);
    expect(await app.sql("SELECT status, attempts FROM webhook_events WHERE id = ?1", waiting.id)).toEqual([
      { status: "sent", attempts: 2 },
    ]);
  });

  for (const [name, check] of Object.entries(checks)) it(name, () => check(upgrade));
});
