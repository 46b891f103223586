import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { eventually, sleep } from "../support/net";
import { insertLeads } from "../support/seed";
import { type Call, StaffClient, signedInStaff, staffEmail } from "../support/staff";

// Owners ('Responsável') and staff: who has access, switching an ex-employee
// off, roles, and the activity they can read.
let app: App;
const mail = new FakeMail();
let owner: Awaited<ReturnType<typeof signedInStaff>>;

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  // The first account confirmed on a new site is its owner.
  owner = await signedInStaff(app, mail);
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

type Account = {
  id: string;
  email: string;
  mailbox: string;
  role: string;
  confirmed: boolean;
  disabled: boolean;
  live_sessions: number;
};

async function team(by = owner.client): Promise<Account[]> {
  const answer = await by.call("GET", "/api/staff");
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.accounts as Account[];
}

async function accountOf(email: string): Promise<Account> {
  const found = (await team()).find((a) => a.email === email);
  if (!found) throw new Error(`no account ${email}`);
  return found;
}

/** The id of the newest entry in 'Atividade', to read what a test adds after it. */
async function lastEntry(): Promise<number | undefined> {
  return (await app.sql<{ last: number }>("SELECT max(id) AS last FROM audit_log"))[0]?.last;
}

/**
 * Returns once a reset link someone else asks for now has reached the fake e-mail API. The
 * worker sends a reset's e-mail after answering (`wait_until`): any e-mail a request before
 * this one set on its way, to a switched-off account's address included, went first.
 */
async function afterTheMailsBefore(): Promise<void> {
  const someone = await signedInStaff(app, mail);
  expect((await new StaffClient(app).requestReset(someone.email)).status).toBe(200);
  await eventually(async () => mail.resetToken(someone.email));
}

function act(by: StaffClient, account: { id: string }, action: string): Promise<Call> {
  return by.call("POST", `/api/staff/${account.id}/${action}`, {});
}

describe("roles", () => {
  it("the first account confirmed is an owner; the next ones are staff", async () => {
    expect((await owner.client.session()).body).toMatchObject({ user: { role: "owner" } });
    const next = await signedInStaff(app, mail);
    expect((await next.client.session()).body).toMatchObject({ user: { role: "staff" } });
  });

  it("with OWNER_EMAIL set, the account it names is the first owner, however many confirm before it", async () => {
    const ownMail = await new FakeMail().start();
    const named = staffEmail("dona");
    const site = await spawnApp({ vars: { ...ownMail.settings(), OWNER_EMAIL: ` ${named.toUpperCase()} ` } });
    try {
      // Someone else at the agency's domain confirms first, even at the same moment.
      const [early, alsoEarly] = await Promise.all([signedInStaff(site, ownMail), signedInStaff(site, ownMail)]);
      for (const person of [early, alsoEarly]) {
        expect((await person.client.session()).body).toMatchObject({ user: { role: "staff" } });
      }
      const owner = await signedInStaff(site, ownMail, "vinho-tinto-2026", named);
      expect((await owner.client.session()).body).toMatchObject({ user: { role: "owner" } });
      const [notices] = await site.sql<{ lead_notices: number }>(
        "SELECT lead_notices FROM staff_users WHERE email = ?1",
        named,
      );
      expect(notices?.lead_notices).toBe(1);
      expect((await early.client.call("GET", "/api/staff")).status).toBe(403);
    } finally {
      await site.stop();
      await ownMail.stop();
    }
  });

  it("staff who are not owners get 403 from the team and the activity", async () => {
    const { client } = await signedInStaff(app, mail);
    const target = await accountOf(owner.email);
    for (const [method, path] of [
      ["GET", "/api/staff"],
      ["POST", `/api/staff/${target.id}/disable`],
      ["POST", `/api/staff/${target.id}/remove-owner`],
      ["GET", "/api/audit"],
    ] as const) {
      const answer = await client.call(method, path, method === "POST" ? {} : undefined);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error).toBe("Apenas os responsáveis pelo painel podem fazer isso.");
    }
    expect((await accountOf(owner.email)).disabled).toBe(false);
  });
});

describe("the team", () => {
  it("lists every account: e-mail, role, confirmed or not, created, last sign-in, live sessions", async () => {
    const pending = `pendente.${Date.now()}@${owner.email.split("@")[1]}`;
    await new StaffClient(app).signup(pending, "vinho-tinto-2026");
    const accounts = await team();
    const me = accounts.find((a) => a.email === owner.email);
    expect(me).toMatchObject({ role: "owner", confirmed: true, disabled: false, live_sessions: 1 });
    expect(me).toHaveProperty("created_at", expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(me).toHaveProperty("last_sign_in_at", expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(accounts.find((a) => a.email === pending)).toMatchObject({
      role: "staff",
      confirmed: false,
      live_sessions: 0,
      last_sign_in_at: null,
    });
  });
});

describe("'Desativar'", () => {
  it("cuts off the person's open panel at its next call, refuses their sign-in with a 403, and makes reset and sign-up do nothing", async () => {
    const leaver = await signedInStaff(app, mail);
    const laptop = new StaffClient(app);
    expect((await laptop.login(leaver.email, leaver.password)).status).toBe(200);
    const account = await accountOf(leaver.email);
    expect(account.live_sessions).toBe(2);

    const done = await act(owner.client, account, "disable");
    expect(done.status).toBe(200);
    expect(done.body.account).toMatchObject({ disabled: true, live_sessions: 0 });

    // The access tokens they hold are still unexpired, and refused at once.
    expect((await leaver.client.call("GET", "/api/leads")).status).toBe(401);
    expect((await laptop.session()).status).toBe(401);
    expect((await laptop.refresh()).status).toBe(401);

    const signIn = await new StaffClient(app).login(leaver.email, leaver.password);
    expect(signIn.status).toBe(403);
    expect(signIn.body.error).toBe("Conta desativada. Fale com o responsável pelo painel.");
    expect((await new StaffClient(app).login(leaver.email, "senha-errada")).status).toBe(401);

    const mails = mail.messagesTo(leaver.email).length;
    const reset = await new StaffClient(app).requestReset(leaver.email);
    expect(reset.body).toEqual({
      success: true,
      message: "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
    });
    expect((await new StaffClient(app).signup(leaver.email, "outra-senha-2026")).status).toBe(409);
    await afterTheMailsBefore();
    expect(mail.messagesTo(leaver.email)).toHaveLength(mails);

    // 'Reativar' lets them in again.
    expect((await act(owner.client, account, "enable")).status).toBe(200);
    expect((await new StaffClient(app).login(leaver.email, leaver.password)).status).toBe(200);
  });

  it("also holds for the person's other addresses: a sign-up with a '+' tag does nothing, and a link asked for before cannot confirm", async () => {
    const leaver = await signedInStaff(app, mail);
    const [local, domain] = leaver.email.split("@");
    const earlier = `${local}+antes@${domain}`;
    expect((await new StaffClient(app).signup(earlier, "vinho-tinto-2026")).status).toBe(200);
    const earlierLink = mail.confirmationToken(earlier);
    expect((await act(owner.client, await accountOf(leaver.email), "disable")).status).toBe(200);

    const tagged = `${local}+painel@${domain}`;
    const signup = await new StaffClient(app).signup(tagged, "vinho-tinto-2026");
    expect(signup.status).toBe(409);
    expect(signup.body.error).toBe("Este email já está cadastrado. Tente fazer login.");
    await afterTheMailsBefore();
    expect(mail.messagesTo(tagged)).toEqual([]);

    const confirm = await new StaffClient(app).confirm(earlierLink, "vinho-tinto-2026");
    expect(confirm.status).toBe(400);
    expect(confirm.body.access_token).toBeUndefined();
    expect(await app.sql("SELECT confirmed_at FROM staff_users WHERE email = ?1", earlier)).toEqual([
      { confirmed_at: null },
    ]);

    // Someone else's tagged address is not affected.
    expect(
      (await new StaffClient(app).signup(`outra.pessoa.${Date.now()}+painel@${domain}`, "vinho-tinto-2026")).status,
    ).toBe(200);
  });

  it("switches off the person's other addresses made before (ana+x@ with ana@), even as they sign in, and only those", async () => {
    const leaver = await signedInStaff(app, mail);
    const [local, domain] = leaver.email.split("@");
    const tagged = `${local}+painel@${domain}`;
    const { client: second } = await signedInStaff(app, mail, "outra-senha-2026", tagged);
    // Someone else's tagged address, and an address that only begins like the leaver's.
    const bystanders = [`outra.${Date.now()}+painel@${domain}`, `${local}x@${domain}`];
    for (const email of bystanders) await signedInStaff(app, mail, undefined, email);
    const account = await accountOf(leaver.email);
    expect((await accountOf(tagged)).mailbox).toBe(account.mailbox);

    // The tagged address signs in on five devices while the owner switches the person off.
    const devices = Array.from({ length: 5 }, () => new StaffClient(app));
    const [done] = await Promise.all([
      act(owner.client, account, "disable"),
      ...devices.map((d) => d.login(tagged, "outra-senha-2026")),
    ]);
    expect(done.status).toBe(200);
    for (const client of [second, ...devices]) expect((await client.call("GET", "/api/leads")).status).toBe(401);
    const signIn = await new StaffClient(app).login(tagged, "outra-senha-2026");
    expect(signIn.status).toBe(403);
    expect(await accountOf(tagged)).toMatchObject({ disabled: true, live_sessions: 0 });
    for (const email of bystanders) expect(await accountOf(email)).toMatchObject({ disabled: false, live_sessions: 1 });

    // Each address in the activity, once.
    const [taggedId, leaverId] = [(await accountOf(tagged)).id, account.id];
    const trail = await app.sql<{ account_id: string }>(
      "SELECT account_id FROM audit_log WHERE action = 'disable' AND account_id IN (?1, ?2) ORDER BY account_id",
      taggedId,
      leaverId,
    );
    expect(trail.map((e) => e.account_id)).toEqual([taggedId, leaverId].sort());

    // 'Reativar' brings back the address it is given, alone.
    expect((await act(owner.client, account, "enable")).status).toBe(200);
    expect((await new StaffClient(app).login(leaver.email, leaver.password)).status).toBe(200);
    expect((await accountOf(tagged)).disabled).toBe(true);
  });

  it("leaves no session behind for a sign-in that races it, however the race falls", async () => {
    const leaver = await signedInStaff(app, mail);
    const account = await accountOf(leaver.email);
    const last = await lastEntry();
    const devices = Array.from({ length: 12 }, () => new StaffClient(app));
    // 'Desativar' lands while the sign-ins are between reading the account and making their session.
    const [done, ...signIns] = await Promise.all([
      sleep(25).then(() => act(owner.client, account, "disable")),
      ...devices.map((d) => d.login(leaver.email, leaver.password)),
    ]);
    expect(done.status).toBe(200);
    // Each sign-in came before (its session ended with the others) or found the account off.
    for (const signIn of signIns) expect([200, 403, 429]).toContain(signIn.status);
    expect((await accountOf(leaver.email)).live_sessions).toBe(0);
    // 'Atividade' tells each sign-in as its answer did: made before 'Desativar', refused after it.
    const trail = await app.sql<{ action: string }>(
      "SELECT action FROM audit_log WHERE id > ?1 AND (staff_id = ?2 OR account_id = ?2) ORDER BY id",
      last,
      account.id,
    );
    const actions = trail.map((e) => e.action);
    const answered = (status: number) => signIns.filter((s) => s.status === status).length;
    expect(actions.filter((a) => a === "sign_in")).toHaveLength(answered(200));
    expect(actions.filter((a) => a === "sign_in_failed")).toHaveLength(answered(403));
    expect(actions.slice(actions.indexOf("disable"))).not.toContain("sign_in");

    // Switched on again, none of those sessions comes back: each device signs in anew.
    expect((await act(owner.client, account, "enable")).status).toBe(200);
    for (const device of [leaver.client, ...devices]) expect((await device.refresh()).status).toBe(401);
    expect((await accountOf(leaver.email)).live_sessions).toBe(0);
    // From the person's own browser (known by its device cookie): the racing sign-ins may have
    // spent the address's own allowance of attempts.
    expect((await leaver.client.login(leaver.email, leaver.password)).status).toBe(200);
  });

  it("stops a lead action that passed its check a moment before: each one is in 'Atividade' before it, or changed nothing", async () => {
    const leaver = await signedInStaff(app, mail);
    const account = await accountOf(leaver.email);
    const leads = await insertLeads(
      app,
      Array.from({ length: 16 }, () => ({})),
    );
    const last = await lastEntry();
    // One action every 4 ms (deleting, or 'Marcar Enviado'); 'Desativar' lands 30 ms in, while
    // some are between their session check and their change.
    const deletes = (i: number) => i % 2 === 1;
    const [done, ...answers] = await Promise.all([
      sleep(30).then(() => act(owner.client, account, "disable")),
      ...leads.map((lead, i) =>
        sleep(i * 4).then(() =>
          deletes(i)
            ? leaver.client.call("DELETE", `/api/leads/${lead.id}`)
            : leaver.client.call("POST", `/api/leads/${lead.id}/mark-sent`, {}),
        ),
      ),
    ]);
    expect(done.status).toBe(200);
    for (const answer of answers) expect([200, 401]).toContain(answer.status);

    // A lead changed exactly when its action was answered 200.
    const rows = await app.sql<{ id: string; delivery_status: string }>(
      `SELECT id, delivery_status FROM leads WHERE id IN (${leads.map((_, i) => `?${i + 1}`).join(", ")})`,
      ...leads.map((l) => l.id),
    );
    const status = new Map(rows.map((r) => [r.id, r.delivery_status]));
    const changed = leads.map((lead, i) => (deletes(i) ? !status.has(lead.id) : status.get(lead.id) === "sent"));
    expect(changed).toEqual(answers.map((a) => a.status === 200));

    // 'Atividade' has each change once, and none after 'Desativar'.
    const trail = await app.sql<{ action: string }>(
      "SELECT action FROM audit_log WHERE id > ?1 AND (staff_id = ?2 OR account_id = ?2) ORDER BY id",
      last,
      account.id,
    );
    const actions = trail.map((e) => e.action);
    expect(actions.filter((a) => a !== "disable")).toHaveLength(answers.filter((a) => a.status === 200).length);
    expect(actions.slice(actions.indexOf("disable"))).toEqual(["disable"]);
  });

  it("of your own account is refused", async () => {
    const me = await accountOf(owner.email);
    const answer = await act(owner.client, me, "disable");
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe("Você não pode desativar a sua própria conta.");
    expect((await owner.client.session()).status).toBe(200);
  });
});

describe("'Encerrar sessões'", () => {
  it("ends every session of the account; the person can sign in again", async () => {
    const colleague = await signedInStaff(app, mail);
    const account = await accountOf(colleague.email);
    expect((await act(owner.client, account, "end-sessions")).status).toBe(200);
    expect((await colleague.client.session()).status).toBe(401);
    expect((await new StaffClient(app).login(colleague.email, colleague.password)).status).toBe(200);
  });

  it("stops the team actions an owner already has on their way: each one is in 'Atividade' before it, or changed nothing", async () => {
    const bia = await signedInStaff(app, mail);
    const biaAccount = await accountOf(bia.email);
    expect((await act(owner.client, biaAccount, "make-owner")).status).toBe(200);
    const targets = [];
    for (let i = 0; i < 16; i++) targets.push(await accountOf((await signedInStaff(app, mail)).email));
    const last = await lastEntry();
    // Bia switches someone off every 4 ms; 30 ms in, the owner ends her sessions, while some of
    // her actions are between their session check and their change.
    const [done, ...answers] = await Promise.all([
      sleep(30).then(() => act(owner.client, biaAccount, "end-sessions")),
      ...targets.map((target, i) => sleep(i * 4).then(() => act(bia.client, target, "disable"))),
    ]);
    expect(done.status).toBe(200);
    for (const answer of answers) expect([200, 401]).toContain(answer.status);

    // An account is off exactly when its 'Desativar' was answered 200.
    const now = await team();
    const off = targets.map((t) => now.find((a) => a.id === t.id)?.disabled);
    expect(off).toEqual(answers.map((a) => a.status === 200));

    // 'Atividade' has each of them once, and none after 'Encerrar sessões'.
    const trail = await app.sql<{ action: string }>(
      "SELECT action FROM audit_log WHERE id > ?1 AND staff_id IN (?2, ?3) ORDER BY id",
      last,
      biaAccount.id,
      (await accountOf(owner.email)).id,
    );
    const actions = trail.map((e) => e.action);
    expect(actions.filter((a) => a === "disable")).toHaveLength(answers.filter((a) => a.status === 200).length);
    expect(actions.slice(actions.indexOf("end_sessions"))).toEqual(["end_sessions"]);
    // The owners' tests below count on one owner.
    expect((await act(owner.client, biaAccount, "remove-owner")).status).toBe(200);
  });
});

describe("owners", () => {
  it("can make others owners and take it away; the last active owner cannot be removed or switched off", async () => {
    const second = await signedInStaff(app, mail);
    const secondAccount = await accountOf(second.email);
    const first = await accountOf(owner.email);

    // While alone, the first owner cannot step down.
    const alone = await act(owner.client, first, "remove-owner");
    expect(alone.status).toBe(409);
    expect(alone.body.error).toMatch(/pelo menos um responsável ativo/);

    expect((await act(owner.client, secondAccount, "make-owner")).body.account).toMatchObject({ role: "owner" });
    // The new owner sees the team (their role is read on every call).
    expect((await second.client.call("GET", "/api/staff")).status).toBe(200);

    // Both at once, each removing the other: one of them stays an owner.
    const last = await lastEntry();
    const [a, b] = await Promise.all([
      act(owner.client, secondAccount, "remove-owner"),
      act(second.client, first, "remove-owner"),
    ]);
    // Whichever is written first stands; the other finds its sender no longer an owner.
    expect([a.status, b.status].sort()).toEqual([200, 403]);
    expect((a.status === 200 ? b : a).body.error).toBe("Apenas os responsáveis pelo painel podem fazer isso.");
    // The account removed is the one whose removal was answered 200, and the activity says so, once.
    const [stays, removed] = a.status === 200 ? [first, secondAccount] : [secondAccount, first];
    expect(
      await app.sql("SELECT id, role FROM staff_users WHERE id IN (?1, ?2) ORDER BY role", stays.id, removed.id),
    ).toEqual([
      { id: stays.id, role: "owner" },
      { id: removed.id, role: "staff" },
    ]);
    expect(
      await app.sql("SELECT staff_id, account_id FROM audit_log WHERE id > ?1 AND action = 'remove_owner'", last),
    ).toEqual([{ staff_id: stays.id, account_id: removed.id }]);
    const owners = (
      await app.sql<{ n: number }>("SELECT count(*) AS n FROM staff_users WHERE role = 'owner' AND disabled_at IS NULL")
    )[0];
    expect(owners?.n).toBe(1);

    // Put things back: the first account is the owner again.
    const stillOwner = a.status === 200 ? owner.client : second.client;
    if (a.status !== 200) {
      expect((await act(stillOwner, first, "make-owner")).status).toBe(200);
      expect((await act(owner.client, secondAccount, "remove-owner")).status).toBe(200);
    }
    expect((await accountOf(owner.email)).role).toBe("owner");
  });

  it("an owner switched off while another remains loses access like anyone", async () => {
    const extra = await signedInStaff(app, mail);
    const account = await accountOf(extra.email);
    expect((await act(owner.client, account, "make-owner")).status).toBe(200);
    expect((await act(owner.client, account, "disable")).status).toBe(200);
    expect((await extra.client.call("GET", "/api/staff")).status).toBe(401);
  });

  it("only an active, confirmed, approved account can be made an owner", async () => {
    const pending = `convite.${Date.now()}@${owner.email.split("@")[1]}`;
    await new StaffClient(app).signup(pending, "vinho-tinto-2026");
    const answer = await act(owner.client, await accountOf(pending), "make-owner");
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatch(/confirmada, aprovada e ativa/);
  });

  it("an account that does not exist is a 404", async () => {
    expect((await act(owner.client, { id: "nao-existe" }, "disable")).status).toBe(404);
  });
});

describe("'Atividade'", () => {
  it("lists sign-ins, failures, exports and account changes, newest first, a page at a time", async () => {
    const someone = await signedInStaff(app, mail);
    await new StaffClient(app).login(someone.email, "errada");
    await fetch(`${app.baseUrl}/api/leads/export.csv`, {
      headers: { Authorization: `Bearer ${someone.client.accessToken}` },
    });
    await act(owner.client, await accountOf(someone.email), "end-sessions");

    const first = await owner.client.call("GET", "/api/audit");
    expect(first.status).toBe(200);
    const entries = first.body.entries as {
      id: number;
      action: string;
      actor_email: string;
      account_email: string | null;
    }[];
    expect(entries.slice(0, 4).map((e) => e.action)).toEqual(["end_sessions", "export", "sign_in_failed", "confirm"]);
    expect(entries[0]).toMatchObject({ actor_email: owner.email, account_email: someone.email });
    expect(entries[2]).toMatchObject({ actor_email: someone.email });
    const ids = entries.map((e) => e.id);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
  });

  it("pages 50 at a time, each page after the last entry of the one before", async () => {
    const now = Date.now();
    await app.batch(
      Array.from({ length: 160 }, (_, i): [string, ...unknown[]] => [
        "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) VALUES (?1, ?2, ?3, 'mark_sent', ?4)",
        now + i,
        "staff-x",
        owner.email,
        `lead-pagina-${i}`,
      ]),
    );
    const seen: number[] = [];
    let before: unknown = null;
    for (let page = 0; page < 3; page++) {
      const answer = await owner.client.call("GET", before ? `/api/audit?before=${before}` : "/api/audit");
      const entries = answer.body.entries as { id: number }[];
      expect(entries.length).toBe(50);
      seen.push(...entries.map((e) => e.id));
      before = answer.body.next_before;
    }
    expect(new Set(seen).size).toBe(150);
    expect([...seen].sort((x, y) => y - x)).toEqual(seen);
  });
});

describe("two owners acting on each other at once", () => {
  it("Bia removing Ana while Ana switches off Bia's second address (and Bia with it): one is refused", async () => {
    // Whichever lands second finds its owner no longer one (removed, or switched off), so the
    // panel can never be left without an active owner by two owners at once.
    for (let round = 0; round < 10; round++) {
      const ana = await signedInStaff(app, mail);
      const bia = await signedInStaff(app, mail);
      const [local, domain] = bia.email.split("@");
      const tagged = `${local}+teste@${domain}`;
      await signedInStaff(app, mail, "outra-senha-2026", tagged);
      const anaAccount = await accountOf(ana.email);
      const biaAccount = await accountOf(bia.email);
      const taggedAccount = await accountOf(tagged);
      for (const made of [anaAccount, biaAccount]) {
        expect((await act(owner.client, made, "make-owner")).status).toBe(200);
      }

      const [removed, switchedOff] = await Promise.all([
        act(bia.client, anaAccount, "remove-owner"),
        act(ana.client, taggedAccount, "disable"),
      ]);
      expect([removed.status, switchedOff.status].sort()).toEqual([200, 403]);
      // Ana removed (and her switching-off refused), or Bia switched off (and her removing refused).
      if (removed.status === 200) expect((await accountOf(ana.email)).role).toBe("staff");
      else expect((await accountOf(bia.email)).disabled).toBe(true);

      // Put things back: only the file's first owner stays an owner.
      for (const email of [ana.email, bia.email]) {
        const account = await accountOf(email);
        if (!account.disabled) expect((await act(owner.client, account, "disable")).status).toBe(200);
      }
    }
  });
});
