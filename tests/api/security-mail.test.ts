import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { eventually } from "../support/net";
import { StaffClient, signedInStaff } from "../support/staff";

// Owners hear of every new account at once, and each account hears of a new
// password and of a sign-in from a browser it had not used: whoever did not
// do it has a link to reset the password ('Não foi você?').
let app: App;
const mail = new FakeMail();
let owner: Awaited<ReturnType<typeof signedInStaff>>;
let secondOwner: Awaited<ReturnType<typeof signedInStaff>>;

/** The e-mails to `to` whose subject is `subject`, once `count` of them arrived. */
async function mails(to: string, subject: string, count = 1) {
  return eventually(async () => {
    const found = mail.messagesTo(to).filter((m) => m.subject === subject);
    return found.length >= count ? found : undefined;
  });
}

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  owner = await signedInStaff(app, mail);
  secondOwner = await signedInStaff(app, mail);
  const [account] = await app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", secondOwner.email);
  expect((await owner.client.call("POST", `/api/staff/${account?.id}/make-owner`, {})).status).toBe(200);
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

describe("a new account confirmed at the staff domain", () => {
  it("is told to every owner once, with the way to 'Equipe' to switch it off", async () => {
    const newcomer = await signedInStaff(app, mail);
    const subject = `Novo acesso ao painel: ${newcomer.email}`;
    for (const to of [owner.email, secondOwner.email]) {
      const [news] = await mails(to, subject);
      expect(news?.text).toContain("desative a conta em 'Equipe'");
      expect(news?.text).toMatch(/Abrir 'Equipe': http:\/\/127\.0\.0\.1:\d+\/admin\/equipe/);
    }
    // Once the next colleague's e-mail arrived, this one was still sent once.
    const next = await signedInStaff(app, mail);
    await mails(owner.email, `Novo acesso ao painel: ${next.email}`);
    expect(mail.messagesTo(owner.email).filter((m) => m.subject === subject)).toHaveLength(1);
    expect(mail.messagesTo(newcomer.email).filter((m) => m.subject.startsWith("Novo acesso ao painel"))).toEqual([]);
  });
});

describe("an account", () => {
  it("hears of a sign-in from a browser it had not used, and not from its own", async () => {
    const ana = await signedInStaff(app, mail);
    const subject = "Novo acesso à sua conta do painel";
    // Her own browser (it confirmed the account) signs in again: nothing to tell.
    expect((await ana.client.login(ana.email, ana.password)).status).toBe(200);
    expect((await new StaffClient(app).login(ana.email, ana.password)).status).toBe(200);
    const [told] = await mails(ana.email, subject);
    expect(told?.text).toContain("Não foi você?");
    expect(told?.text).toMatch(/Redefinir minha senha: http:\/\/127\.0\.0\.1:\d+\/auth\?esqueci=1/);
    expect(mail.messagesTo(ana.email).filter((m) => m.subject === subject)).toHaveLength(1);
  });

  it("hears of its password changed and of its password reset", async () => {
    const bruno = await signedInStaff(app, mail);
    expect((await bruno.client.changePassword(bruno.password, "Parreiral-Norte-8421")).status).toBe(200);
    const [changed] = await mails(bruno.email, "Sua senha do painel foi alterada");
    expect(changed?.text).toContain("Não foi você?");
    expect((await new StaffClient(app).requestReset(bruno.email)).status).toBe(200);
    const token = await eventually(async () => mail.resetToken(bruno.email));
    expect((await new StaffClient(app).reset(token, "Colheita-Tardia-5130")).status).toBe(200);
    const [reset] = await mails(bruno.email, "Sua senha do painel foi redefinida");
    expect(reset?.text).toContain("Redefinir minha senha:");
  });
});
