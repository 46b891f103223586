import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead, uniqueIp } from "../support/leads";
import { eventually } from "../support/net";
import { type Call, StaffClient, signedInStaff, staffEmail } from "../support/staff";

// Three of the smaller points of the second trust round: an office's
// 'Esqueci minha senha' never locks its people out, owners and new-lead
// notices need approval, and 'Desativar' on a stranger's alias stays on it.
let app: App;
const mail = new FakeMail();
let owner: Awaited<ReturnType<typeof signedInStaff>>;

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: { ...mail.settings(), STAFF_APPROVAL: "true" } });
  owner = await signedInStaff(app, mail);
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

type Account = { id: string; email: string; disabled: boolean; live_sessions: number; role: string };

async function accountOf(email: string): Promise<Account> {
  const answer = await owner.client.call("GET", "/api/staff");
  const found = (answer.body.accounts as Account[]).find((a) => a.email === email);
  if (!found) throw new Error(`no account ${email}`);
  return found;
}

function act(account: { id: string }, action: string): Promise<Call> {
  return owner.client.call("POST", `/api/staff/${account.id}/${action}`, {});
}

async function approved(email?: string) {
  const person = await signedInStaff(app, mail, undefined, email);
  expect((await act(await accountOf(person.email), "approve")).status).toBe(200);
  return person;
}

describe("'Esqueci minha senha' from an office's one address", () => {
  const office = "198.51.100.40";

  it("is not counted per address for a browser that signed in to the account it asks for", async () => {
    // Six colleagues, each from the browser they use every day, behind the office's address.
    const people = await Promise.all(Array.from({ length: 6 }, () => approved()));
    const asked = await Promise.all(
      people.map((p) => {
        const browser = new StaffClient(app, office);
        browser.device = p.client.device;
        return browser.requestReset(p.email);
      }),
    );
    expect(asked.map((a) => a.status)).toEqual(asked.map(() => 200));
    for (const p of people) await eventually(async () => mail.resetToken(p.email));

    // The account's own limit holds on its own browser: 3 an hour.
    const mine = people[0] as (typeof people)[number];
    const again: number[] = [];
    for (let i = 0; i < 3; i++) {
      const browser = new StaffClient(app, office);
      browser.device = mine.client.device;
      again.push((await browser.requestReset(mine.email)).status);
    }
    expect(again).toEqual([200, 200, 429]);
  });

  it("is counted per address for anyone else: a stranger's sixth is refused", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await new StaffClient(app, "198.51.100.41").requestReset(staffEmail())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // A device cookie of another account vouches for nothing.
    const someone = await approved();
    const browser = new StaffClient(app, "198.51.100.41");
    browser.device = someone.client.device;
    expect((await browser.requestReset(staffEmail())).status).toBe(429);
  });
});

describe("approval comes first", () => {
  it("'Tornar responsável' refuses an account an owner has not approved", async () => {
    const waiting = await signedInStaff(app, mail);
    const account = await accountOf(waiting.email);
    const refused = await act(account, "make-owner");
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe("Só uma conta confirmada, aprovada e ativa pode ser responsável pelo painel.");
    expect((await accountOf(waiting.email)).role).toBe("staff");
    expect((await waiting.client.call("GET", "/api/leads")).status).toBe(403);
  });

  it("an account waiting for approval gets no new-lead notice, nor can switch them on", async () => {
    const waiting = await signedInStaff(app, mail);
    expect((await waiting.client.call("PUT", "/api/auth/notices", { enabled: true })).status).toBe(403);
    // Even with the switch on (as an older release could leave it), the notices skip it.
    await app.sql("UPDATE staff_users SET lead_notices = 1, notices_sent_through = 0 WHERE email = ?1", waiting.email);
    const lead = aLead();
    expect((await postLead(app, lead, { ip: uniqueIp() })).status).toBe(200);
    await app.runCron();
    const toOwner = await eventually(async () =>
      mail.messagesTo(owner.email).find((m) => m.text.includes(String(lead.name))),
    );
    expect(toOwner).toBeTruthy();
    expect(mail.messagesTo(waiting.email).filter((m) => m.text.includes(String(lead.name)))).toEqual([]);
  });
});

describe("'Desativar' on an alias", () => {
  it("switches off that row only, not the person whose mailbox it names", async () => {
    const ana = await approved();
    const [local, domain] = ana.email.split("@");
    // A stranger signs up an alias of Ana's mailbox; it waits, unconfirmed.
    const alias = `${local}+x@${domain}`;
    expect((await new StaffClient(app).signup(alias, "outra-senha-2026")).status).toBe(200);
    expect((await act(await accountOf(alias), "disable")).status).toBe(200);
    expect(await accountOf(alias)).toMatchObject({ disabled: true });
    expect(await accountOf(ana.email)).toMatchObject({ disabled: false, live_sessions: 1 });
    expect((await ana.client.call("GET", "/api/leads")).status).toBe(200);
    expect((await new StaffClient(app).login(ana.email, ana.password)).status).toBe(200);
    const disabled = await app.sql<{ email: string }>(
      "SELECT s.email FROM audit_log a JOIN staff_users s ON s.id = a.account_id WHERE a.action = 'disable' AND s.email IN (?1, ?2)",
      ana.email,
      alias,
    );
    expect(disabled).toEqual([{ email: alias }]);
    // Another alias of hers can still be signed up (she may want one); her own address switched off takes them all.
    const other = `${local}+celular@${domain}`;
    await approved(other);
    expect((await act(await accountOf(ana.email), "disable")).status).toBe(200);
    expect(await accountOf(other)).toMatchObject({ disabled: true, live_sessions: 0 });
  });
});
