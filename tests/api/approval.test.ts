import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { insertLeads } from "../support/seed";
import { type Call, type StaffClient, signedInStaff } from "../support/staff";

// Owners decide who joins (with STAFF_APPROVAL on) and what a colleague may
// do: a confirmed account reaches nothing until an owner's 'Aprovar', and a
// colleague may lose 'Exportar CSV' and 'Excluir'.
let app: App;
const mail = new FakeMail();
let owner: Awaited<ReturnType<typeof signedInStaff>>;

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: { ...mail.settings(), STAFF_APPROVAL: "true" } });
  // The first owner needs nobody's approval.
  owner = await signedInStaff(app, mail);
  await insertLeads(app, [{ id: "lead-aprovacao-1" }, { id: "lead-aprovacao-2" }]);
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

type Account = { id: string; email: string; approved: boolean; can_export: boolean; can_delete: boolean };

async function accountOf(email: string): Promise<Account> {
  const answer = await owner.client.call("GET", "/api/staff");
  const found = (answer.body.accounts as Account[]).find((a) => a.email === email);
  if (!found) throw new Error(`no account ${email}`);
  return found;
}

function act(by: StaffClient, account: { id: string }, action: string): Promise<Call> {
  return by.call("POST", `/api/staff/${account.id}/${action}`, {});
}

/** Every lead, staff and export route, as a colleague would call them. */
function everyRoute(client: StaffClient): Promise<Call>[] {
  return [
    client.call("GET", "/api/leads"),
    client.call("GET", "/api/leads/lead-aprovacao-1"),
    client.call("GET", "/api/leads/export.csv"),
    client.call("POST", "/api/leads/lead-aprovacao-1/mark-sent", {}),
    client.call("POST", "/api/leads/lead-aprovacao-1/resend", {}),
    client.call("DELETE", "/api/leads/lead-aprovacao-2"),
    client.call("GET", "/api/campaigns"),
    client.call("GET", "/api/staff"),
    client.call("GET", "/api/audit"),
  ];
}

describe("with STAFF_APPROVAL on, a new account", () => {
  it("signs in to 'Aguardando aprovação' and gets 403 on every lead, staff and export route", async () => {
    const waiting = await signedInStaff(app, mail);
    const session = await waiting.client.session();
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email: waiting.email, approved: false });
    const answers = await Promise.all(everyRoute(waiting.client));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 403));
    expect(answers[0]?.body.error).toBe("Seu acesso ao painel aguarda a aprovação de um responsável.");
    expect(await app.sql("SELECT id FROM leads WHERE id = 'lead-aprovacao-2'")).toHaveLength(1);
    expect((await accountOf(waiting.email)).approved).toBe(false);
  });

  it("gets in on its open session once an owner approves it, and the activity says who did", async () => {
    const waiting = await signedInStaff(app, mail);
    expect((await waiting.client.call("GET", "/api/leads")).status).toBe(403);
    const account = await accountOf(waiting.email);
    expect((await act(owner.client, account, "approve")).status).toBe(200);
    // The same access token, no new sign-in.
    expect((await waiting.client.call("GET", "/api/leads")).status).toBe(200);
    expect((await waiting.client.session()).body.user).toMatchObject({ approved: true });
    const [entry] = await app.sql("SELECT staff_email, action, account_id FROM audit_log ORDER BY id DESC LIMIT 1");
    expect(entry).toEqual({ staff_email: owner.email, action: "approve", account_id: account.id });
    // Approved once: again changes nothing.
    expect((await act(owner.client, account, "approve")).status).toBe(409);
  });

  it("is switched off by 'Recusar', its session ended", async () => {
    const refused = await signedInStaff(app, mail);
    const account = await accountOf(refused.email);
    expect((await act(owner.client, account, "refuse")).status).toBe(200);
    expect((await refused.client.session()).status).toBe(401);
    expect((await refused.client.login(refused.email, refused.password)).status).toBe(403);
    const entries = await app.sql("SELECT staff_email, action FROM audit_log WHERE account_id = ?1", account.id);
    expect(entries).toContainEqual({ staff_email: owner.email, action: "refuse" });
  });

  it("cannot approve itself or anyone: only owners decide", async () => {
    const first = await signedInStaff(app, mail);
    const second = await signedInStaff(app, mail);
    const account = await accountOf(second.email);
    expect((await act(first.client, account, "approve")).status).toBe(403);
    expect((await accountOf(second.email)).approved).toBe(false);
  });
});

describe("a colleague's permissions", () => {
  async function approvedColleague() {
    const colleague = await signedInStaff(app, mail);
    const account = await accountOf(colleague.email);
    expect((await act(owner.client, account, "approve")).status).toBe(200);
    return { ...colleague, account };
  }

  it("without 'Exportar CSV' the export is 403, and given back it works again", async () => {
    const colleague = await approvedColleague();
    expect((await colleague.client.call("GET", "/api/leads/export.csv")).status).toBe(200);
    expect((await act(owner.client, colleague.account, "deny-export")).status).toBe(200);
    const refused = await colleague.client.call("GET", "/api/leads/export.csv");
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/exportar/);
    expect((await accountOf(colleague.email)).can_export).toBe(false);
    expect((await act(owner.client, colleague.account, "allow-export")).status).toBe(200);
    expect((await colleague.client.call("GET", "/api/leads/export.csv")).status).toBe(200);
  });

  it("without 'Excluir' a delete is 403 and the lead stays", async () => {
    const colleague = await approvedColleague();
    expect((await act(owner.client, colleague.account, "deny-delete")).status).toBe(200);
    const [lead] = await insertLeads(app, [{}]);
    const refused = await colleague.client.call("DELETE", `/api/leads/${lead?.id}`);
    expect(refused.status).toBe(403);
    expect(await app.sql("SELECT id FROM leads WHERE id = ?1", lead?.id)).toHaveLength(1);
    const [entry] = await app.sql("SELECT action FROM audit_log ORDER BY id DESC LIMIT 1");
    expect(entry).toEqual({ action: "permissions" });
  });

  it("are an owner's always: an owner's cannot be taken", async () => {
    const account = await accountOf(owner.email);
    expect(account).toMatchObject({ can_export: true, can_delete: true });
    expect((await act(owner.client, account, "deny-export")).status).toBe(409);
  });
});
