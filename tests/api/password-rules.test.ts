import { pbkdf2Sync, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { eventually } from "../support/net";
import { StaffClient, signedInStaff, staffEmail } from "../support/staff";

// A staff password anyone would try first is refused wherever one is chosen
// (sign-up, reset, 'Alterar senha'), under the password field; signing in
// with a password an account already has is not these rules' business.
let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

let nextIp = 1;
const fresh = () => new StaffClient(app, `198.18.30.${nextIp++}`);

/** Passwords anyone would try first, and why each is refused. */
const GUESSABLE: [password: string, message: RegExp][] = [
  ["aaaaaa", /fácil de adivinhar/],
  ["121212", /fácil de adivinhar/],
  ["abcdef", /fácil de adivinhar/],
  ["654321", /fácil de adivinhar/],
  ["      ", /fácil de adivinhar/],
  ["teste123", /muito comum/],
  ["senha@123", /muito comum/],
  ["recantodasvideiras", /nome ligado ao site/],
  ["Recanto das Videiras 2026", /nome ligado ao site/],
];
const STRONG = "Parreira#Serrana-77";

describe("sign-up", () => {
  for (const [password, message] of GUESSABLE) {
    it(`refuses ${JSON.stringify(password)} under the password field and sends nothing`, async () => {
      const email = staffEmail("adivinhavel");
      const answer = await fresh().signup(email, password);
      expect(answer.status).toBe(422);
      expect(answer.body.fields).toEqual({ password: expect.stringMatching(message) });
      expect(mail.messagesTo(email)).toEqual([]);
    });
  }

  it("takes a strong password", async () => {
    const { client } = await signedInStaff(app, mail, STRONG);
    expect((await client.session()).status).toBe(200);
  });
});

describe("'Alterar senha'", () => {
  it("refuses each of them and keeps the current password", async () => {
    const { client, email, password } = await signedInStaff(app, mail);
    for (const [guessable, message] of GUESSABLE) {
      const answer = await client.changePassword(password, guessable);
      expect(answer.status, JSON.stringify(guessable)).toBe(422);
      expect(answer.body.fields).toEqual({ new_password: expect.stringMatching(message) });
    }
    expect((await fresh().login(email, password)).status).toBe(200);
    expect((await client.changePassword(password, STRONG)).status).toBe(200);
    expect((await fresh().login(email, STRONG)).status).toBe(200);
  });
});

describe("a reset link", () => {
  it("refuses a guessable password and takes a strong one", async () => {
    const { email } = await signedInStaff(app, mail);
    expect((await fresh().requestReset(email)).status).toBe(200);
    const token = await eventually(async () => {
      try {
        return mail.resetToken(email);
      } catch {
        return undefined;
      }
    });
    for (const [guessable, message] of GUESSABLE) {
      const answer = await fresh().reset(token, guessable);
      expect(answer.status, JSON.stringify(guessable)).toBe(422);
      expect(answer.body.fields).toEqual({ password: expect.stringMatching(message) });
    }
    expect((await fresh().reset(token, STRONG)).status).toBe(200);
  });
});

describe("signing in", () => {
  it("still takes a guessable password an account had before these rules", async () => {
    const { email } = await signedInStaff(app, mail);
    const salt = randomBytes(16);
    const hash = pbkdf2Sync("aaaaaa", salt, 1_000, 32, "sha256");
    const unpadded = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
    const stored = `pbkdf2-sha256$1000$${unpadded(salt)}$${unpadded(hash)}`;
    await app.sql("UPDATE staff_users SET password_hash = ?1 WHERE email = ?2", stored, email);
    expect((await fresh().login(email, "aaaaaa")).status).toBe(200);
  });
});
