import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { eventually } from "../support/net";
import { insertLeads } from "../support/seed";
import { type Call, type StaffClient, signedInStaff } from "../support/staff";

// Rights that mean something: what an owner takes from a colleague is gone
// from the answers the panel draws its buttons from and refused by the
// worker; without 'Exportar CSV' the list shows a limited number of leads an
// hour, and owners hear of someone who reads far more than they work.
let app: App;
const mail = new FakeMail();
let owner: Awaited<ReturnType<typeof signedInStaff>>;
const LEADS = 1_100;
const leadIds: string[] = [];

type Rights = { export: boolean; delete: boolean; mark_sent: boolean };
type Account = { id: string; email: string; can_export: boolean; can_delete: boolean; can_mark_sent: boolean };

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  owner = await signedInStaff(app, mail);
  const rows = Array.from({ length: LEADS }, (_, i) => ({
    name: i === 0 ? "Zuleica Quintanilha" : `Pessoa Lida ${i}`,
  }));
  // A few batches: one D1 batch holds up to a thousand statements.
  for (let i = 0; i < rows.length; i += 500)
    leadIds.push(...(await insertLeads(app, rows.slice(i, i + 500))).map((l) => l.id));
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

async function accountOf(email: string): Promise<Account> {
  const answer = await owner.client.call("GET", "/api/staff");
  const found = (answer.body.accounts as Account[]).find((a) => a.email === email);
  if (!found) throw new Error(`no account ${email}`);
  return found;
}

function act(by: StaffClient, account: { id: string }, action: string): Promise<Call> {
  return by.call("POST", `/api/staff/${account.id}/${action}`, {});
}

async function colleague(...taken: ("export" | "delete" | "mark-sent")[]) {
  const signedIn = await signedInStaff(app, mail);
  const account = await accountOf(signedIn.email);
  for (const right of taken) expect((await act(owner.client, account, `deny-${right}`)).status).toBe(200);
  return { ...signedIn, account };
}

function markSent(by: StaffClient, id: string) {
  return by.call("POST", `/api/leads/${id}/mark-sent`, {});
}

describe("'Marcar Enviado' is a right an owner can take away", () => {
  it("taken: 'Marcar Enviado' and 'Desfazer' are 403, the lead stays pending, and the answers say so", async () => {
    const bia = await colleague();
    const lead = leadIds[0] as string;
    expect((await markSent(bia.client, lead)).status).toBe(200);
    expect((await act(owner.client, bia.account, "deny-mark-sent")).status).toBe(200);
    expect((await accountOf(bia.email)).can_mark_sent).toBe(false);

    const undo = await bia.client.call("POST", `/api/leads/${lead}/unmark-sent`, {});
    expect(undo.status).toBe(403);
    const other = leadIds[1] as string;
    const refused = await markSent(bia.client, other);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(
      "Um responsável pelo painel tirou de você a permissão de marcar leads como enviados.",
    );
    expect(await app.sql("SELECT delivery_status FROM leads WHERE id = ?1", other)).toEqual([
      { delivery_status: "pending" },
    ]);

    const list = await bia.client.call("GET", "/api/leads");
    expect(list.body.rights).toEqual({ export: true, delete: true, mark_sent: false, import_spend: false });
    const story = await bia.client.call("GET", `/api/leads/${other}`);
    expect(story.body.rights).toEqual({ export: true, delete: true, mark_sent: false, import_spend: false });

    // The activity says which right, and that it was taken; given back, it works again.
    const [entry] = await app.sql<{ action: string; detail: string }>(
      "SELECT action, detail FROM audit_log WHERE account_id = ?1 ORDER BY id DESC LIMIT 1",
      bia.account.id,
    );
    expect(entry?.action).toBe("permissions");
    expect(JSON.parse(entry?.detail ?? "null")).toEqual({ right: "mark_sent", allowed: false });
    expect((await act(owner.client, bia.account, "allow-mark-sent")).status).toBe(200);
    expect((await markSent(bia.client, other)).status).toBe(200);
  });

  it("is an owner's always", async () => {
    const me = await accountOf(owner.email);
    expect(me.can_mark_sent).toBe(true);
    expect((await act(owner.client, me, "deny-mark-sent")).status).toBe(409);
    expect((await owner.client.call("GET", "/api/leads")).body.rights).toEqual({
      export: true,
      delete: true,
      mark_sent: true,
      import_spend: true,
    });
  });
});

describe("the answers the panel draws its buttons from", () => {
  it("name each right the person has, and a reload after one is taken is not told 'unchanged'", async () => {
    const caio = await colleague("delete");
    const first = await caio.client.call("GET", "/api/leads");
    expect(first.body.rights as Rights).toEqual({ export: true, delete: false, mark_sent: true, import_spend: false });
    expect((await act(owner.client, caio.account, "deny-export")).status).toBe(200);
    const again = await caio.client.call("GET", "/api/leads", undefined, {
      "If-None-Match": first.headers.get("ETag") ?? "",
    });
    expect(again.status).toBe(200);
    expect(again.body.rights as Rights).toEqual({ export: false, delete: false, mark_sent: true, import_spend: false });
  });
});

describe("without 'Exportar CSV', reading the base through the list", () => {
  const pageOf = (n: number) => `/api/leads?page=${n}`;

  it("stops at 500 leads an hour, however many pages are asked for at once", async () => {
    const dani = await colleague("export");
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => dani.client.call("GET", pageOf(i + 1))));
    const shown = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(shown).toHaveLength(10);
    expect(refused).toHaveLength(10);
    const leads = new Set(shown.flatMap((a) => (a.body.leads as { id: string }[]).map((l) => l.id)));
    expect(leads.size).toBe(500);
    expect(refused[0]?.body.error).toMatch(
      /^Sem a permissão de exportar, a lista mostra a cada pessoa até 500 leads por hora, e você chegou a esse limite\. A lista volta a mostrar novos leads às \d\d:00;/,
    );
    // A page already shown this hour is shown again (the panel's reload), a new one is not.
    const shownPage = answers.findIndex((a) => a.status === 200) + 1;
    expect((await dani.client.call("GET", pageOf(shownPage))).status).toBe(200);
    expect((await dani.client.call("GET", pageOf(21))).status).toBe(429);
    // A search is a view like any other.
    expect((await dani.client.call("GET", "/api/leads?q=Pessoa+Lida+7")).status).toBe(429);
  });

  it("charges a search what it shows, and a colleague with 'Exportar CSV' is not counted", async () => {
    const edu = await colleague("export");
    for (let page = 1; page <= 9; page++) expect((await edu.client.call("GET", pageOf(page))).status).toBe(200);
    // 450 shown: a search that finds one lead still fits, another full page would not.
    const found = await edu.client.call("GET", `/api/leads?q=${encodeURIComponent("Zuleica Quintanilha")}`);
    expect(found.status).toBe(200);
    expect((found.body.leads as unknown[]).length).toBe(1);
    const [counter] = await app.sql<{ count: number }>(
      "SELECT count FROM rate_limits WHERE key = ?1",
      `leads-read:${edu.account.id}`,
    );
    expect(counter?.count).toBe(451);
    expect((await edu.client.call("GET", pageOf(10))).status).toBe(429);

    const fabi = await colleague();
    const all = await Promise.all(Array.from({ length: 22 }, (_, i) => fabi.client.call("GET", pageOf(i + 1))));
    expect(all.map((a) => a.status)).toEqual(all.map(() => 200));
  });

  it("tells the owners, once an hour, when someone reads far more than they work", async () => {
    const gil = await colleague("export");
    for (let page = 1; page <= 4; page++) expect((await gil.client.call("GET", pageOf(page))).status).toBe(200);
    // 200 leads read: not yet.
    expect(
      await app.sql("SELECT id FROM audit_log WHERE action = 'bulk_read' AND staff_id = ?1", gil.account.id),
    ).toEqual([]);
    for (let page = 5; page <= 7; page++) expect((await gil.client.call("GET", pageOf(page))).status).toBe(200);
    const entries = await app.sql<{ detail: string; staff_email: string }>(
      "SELECT detail, staff_email FROM audit_log WHERE action = 'bulk_read' AND staff_id = ?1",
      gil.account.id,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.staff_email).toBe(gil.email);
    expect(JSON.parse(entries[0]?.detail ?? "{}")).toMatchObject({ read: 250, worked: 0 });
    const subject = `Muitos leads vistos por ${gil.email}`;
    const told = await eventually(async () => mail.messagesTo(owner.email).find((m) => m.subject === subject));
    expect(told.text).toContain("viu 250 leads");
    // More reading this hour adds nothing.
    expect((await gil.client.call("GET", pageOf(8))).status).toBe(200);
    expect(
      await app.sql("SELECT id FROM audit_log WHERE action = 'bulk_read' AND staff_id = ?1", gil.account.id),
    ).toHaveLength(1);
  });

  it("does not tell them of someone who works what they read", async () => {
    const hugo = await colleague("export");
    // 25 leads worked ('Marcar Enviado'), then 250 read: one in ten.
    for (const id of leadIds.slice(100, 125)) expect((await markSent(hugo.client, id)).status).toBe(200);
    for (let page = 1; page <= 5; page++) expect((await hugo.client.call("GET", pageOf(page))).status).toBe(200);
    expect(
      await app.sql("SELECT id FROM audit_log WHERE action = 'bulk_read' AND staff_id = ?1", hugo.account.id),
    ).toEqual([]);
  });
});

describe("'Atividade'", () => {
  type Entry = {
    id: number;
    at: string;
    actor_email: string;
    action: string;
    lead_id: string | null;
    lead_name: string | null;
  };
  type Page = { entries: Entry[]; next_before: string | null; people: { id: string; email: string }[] };
  const audit = async (query: string) => {
    const answer = await owner.client.call("GET", `/api/audit${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as Page;
  };

  it("names each lead by its name now, or as gone", async () => {
    const ivo = await colleague();
    const [kept, gone] = [leadIds[200] as string, leadIds[201] as string];
    expect((await markSent(ivo.client, kept)).status).toBe(200);
    expect((await markSent(ivo.client, gone)).status).toBe(200);
    expect((await ivo.client.call("DELETE", `/api/leads/${gone}`)).status).toBe(200);
    await app.sql("UPDATE leads SET name = 'Nome Corrigido' WHERE id = ?1", kept);
    const { entries } = await audit(`?pessoa=${ivo.account.id}`);
    const aboutLeads = entries.filter((e) => e.lead_id !== null);
    expect(aboutLeads.map((e) => [e.action, e.lead_id, e.lead_name])).toEqual([
      ["delete", gone, null],
      ["mark_sent", gone, null],
      ["mark_sent", kept, "Nome Corrigido"],
    ]);
    expect(new Set(entries.map((e) => e.actor_email))).toEqual(new Set([ivo.email]));
  });

  it("filters by person, action and period, a page at a time", async () => {
    const [joao, lia] = [await colleague(), await colleague()];
    for (const id of leadIds.slice(300, 360)) expect((await markSent(joao.client, id)).status).toBe(200);
    expect((await markSent(lia.client, leadIds[360] as string)).status).toBe(200);

    const first = await audit(`?pessoa=${joao.account.id}&acao=mark_sent`);
    expect(first.entries).toHaveLength(50);
    expect(new Set(first.entries.map((e) => e.actor_email))).toEqual(new Set([joao.email]));
    expect(first.next_before).not.toBeNull();
    const second = await audit(`?pessoa=${joao.account.id}&acao=mark_sent&before=${first.next_before}`);
    expect(second.entries).toHaveLength(10);
    expect(second.next_before).toBeNull();
    const seen = [...first.entries, ...second.entries].map((e) => e.lead_id);
    expect(new Set(seen)).toEqual(new Set(leadIds.slice(300, 360)));
    expect(first.people.map((p) => p.email)).toContain(lia.email);

    // Today (Brasília) holds them; a period that ended yesterday does not.
    const today = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 27 * 3_600_000).toISOString().slice(0, 10);
    expect((await audit(`?pessoa=${lia.account.id}&acao=mark_sent&de=${today}&ate=${today}`)).entries).toHaveLength(1);
    expect((await audit(`?pessoa=${lia.account.id}&de=2020-01-01&ate=${yesterday}`)).entries).toEqual([]);

    const bad = await owner.client.call("GET", "/api/audit?acao=apagar_tudo");
    expect(bad.status).toBe(422);
    expect((await owner.client.call("GET", "/api/audit?de=ontem")).status).toBe(422);
  });

  it("reads a page of one person, or of one action, through its index and in its order", async () => {
    // The page's statement (team::activity), with each filter.
    const plan = async (filter: string) => {
      const rows = await app.sql<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT a.*, l.name, t.email FROM audit_log a
           LEFT JOIN staff_users t ON t.id = a.account_id LEFT JOIN leads l ON l.id = a.lead_id
           WHERE (a.at, a.id) < (?1, ?2) AND a.at >= ?3 AND a.at < ?1 AND ${filter}
           ORDER BY a.at DESC, a.id DESC LIMIT 51`,
        9e15,
        9e15,
        0,
      );
      return rows.map((r) => r.detail).join(" | ");
    };
    const byPerson = await plan("a.staff_id = 'x'");
    expect(byPerson).toMatch(/SEARCH a USING INDEX audit_log_staff \(staff_id=\? AND at>\? AND at<\?\)/);
    const byAction = await plan("a.action = 'export'");
    expect(byAction).toMatch(/SEARCH a USING INDEX audit_log_action \(action=\? AND at>\? AND at<\?\)/);
    for (const read of [byPerson, byAction, await plan("1")]) expect(read).not.toMatch(/TEMP B-TREE/);
  });
});
