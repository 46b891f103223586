import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { STAFF_DOMAIN, StaffClient, staffEmail } from "../support/staff";

// Only the owner of a mailbox can set the password of the account it
// confirms: a stranger who signs up someone else's address must never end up
// knowing the password of a confirmed account.
let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

const HER = "senha-da-ana-2026";
const HIS = "senha-do-estranho-77";

describe("a stranger who signs up an address that is not confirmed yet", () => {
  it("never signs in with his password; she confirms with hers and signs in", async () => {
    const email = staffEmail("ana");
    const ana = new StaffClient(app, "203.0.113.10");
    const stranger = new StaffClient(app, "198.51.100.66");
    expect((await ana.signup(email, HER)).status).toBe(200);
    const herLink = mail.confirmationToken(email);
    expect((await stranger.signup(email, HIS)).status).toBe(200);
    const hisLink = mail.confirmationToken(email);
    expect(hisLink).not.toBe(herLink);

    // She opens the newest e-mail, his: it asks for the sign-up's password, and hers is not it.
    const opened = await new StaffClient(app, "203.0.113.10").confirm(hisLink, HER);
    expect(opened.status).toBe(422);
    expect(opened.body.access_token).toBeUndefined();

    // Her own link with her own password confirms the account and signs her in.
    const confirmed = await new StaffClient(app, "203.0.113.10").confirm(herLink, HER);
    expect(confirmed.status).toBe(200);

    expect((await new StaffClient(app, "198.51.100.66").login(email, HIS)).status).toBe(401);
    expect((await new StaffClient(app, "203.0.113.10").login(email, HER)).status).toBe(200);
    // His link died with the confirmation, whatever password comes with it.
    expect((await stranger.confirm(hisLink, HIS)).status).toBe(400);
  });

  it("cannot change the password of a confirmed account, nor send its owner another link", async () => {
    const email = staffEmail("confirmada");
    const ana = new StaffClient(app, "203.0.113.11");
    await ana.signup(email, HER);
    expect((await ana.confirm(mail.confirmationToken(email), HER)).status).toBe(200);
    const mails = mail.messagesTo(email).length;

    const again = await new StaffClient(app, "198.51.100.67").signup(email, HIS);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("Este email já está cadastrado. Tente fazer login.");
    expect(mail.messagesTo(email)).toHaveLength(mails);
    expect((await new StaffClient(app, "198.51.100.67").login(email, HIS)).status).toBe(401);
    expect((await new StaffClient(app, "203.0.113.11").login(email, HER)).status).toBe(200);
  });
});

describe("a shared mailbox nobody signed up, such as contato@", () => {
  it("is not handed to the stranger by whoever reads it: the link needs his password", async () => {
    const alias = `contato.${Date.now()}@${STAFF_DOMAIN}`;
    const stranger = new StaffClient(app, "198.51.100.68");
    expect((await stranger.signup(alias, HIS)).status).toBe(200);
    const link = mail.confirmationToken(alias);

    // The colleague who reads the mailbox clicks the link; she does not know his password.
    const reader = new StaffClient(app, "203.0.113.12");
    expect((await reader.confirm(link, "um-palpite-qualquer")).status).toBe(422);
    const [account] = await app.sql("SELECT confirmed_at FROM staff_users WHERE email = ?1", alias);
    expect(account).toEqual({ confirmed_at: null });

    // She signs the alias up herself: her link, her password.
    expect((await reader.signup(alias, HER)).status).toBe(200);
    expect((await reader.confirm(mail.confirmationToken(alias), HER)).status).toBe(200);
    expect((await new StaffClient(app, "198.51.100.68").login(alias, HIS)).status).toBe(401);
    expect((await new StaffClient(app, "203.0.113.12").login(alias, HER)).status).toBe(200);
  });
});

describe("sign-up e-mails to one address", () => {
  it("stop after 3 an hour, so nobody can flood a colleague's inbox", async () => {
    const email = staffEmail("caixa");
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await new StaffClient(app, `198.51.101.${i + 1}`).signup(email, `senha-numero-${i}`)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(mail.messagesTo(email)).toHaveLength(3);
  });
});
