import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { STAFF_DOMAIN, StaffClient, signedInStaff, staffEmail } from "../support/staff";

let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

async function countUsers(): Promise<number> {
  const [row] = await app.sql<{ n: number }>("SELECT count(*) AS n FROM staff_users");
  return row?.n ?? 0;
}

describe("sign-up", () => {
  const refusals: [string, string, string, number, string][] = [
    [
      "an address outside the company's domain",
      "ana@gmail.com",
      "123456",
      403,
      `Apenas emails @${STAFF_DOMAIN} são permitidos`,
    ],
    ["a look-alike domain", `ana@evil-${STAFF_DOMAIN}`, "123456", 403, `Apenas emails @${STAFF_DOMAIN} são permitidos`],
    ["a malformed address", `ana@@${STAFF_DOMAIN}`, "123456", 422, "Email inválido"],
    [
      "a password under 6 characters",
      `ana.curta@${STAFF_DOMAIN}`,
      "12345",
      422,
      "A senha deve ter pelo menos 6 caracteres",
    ],
  ];
  for (const [what, email, password, status, message] of refusals) {
    it(`with ${what} is refused by the worker (${status}) and changes nothing`, async () => {
      const users = await countUsers();
      const mails = mail.messages().length;
      const answer = await new StaffClient(app).signup(email, password);
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ success: false, error: message });
      expect(await countUsers()).toBe(users);
      expect(mail.messages()).toHaveLength(mails);
    });
  }

  it("keeps the password as a salted PBKDF2 hash on its link and e-mails the link in Portuguese", async () => {
    const email = staffEmail("nova");
    const answer = await new StaffClient(app).signup(email, "vinho-tinto-2026");
    expect(answer).toMatchObject({ status: 200, body: { success: true } });

    const [user] = await app.sql<{ password_hash: string; confirmed_at: number | null; link_hash: string }>(
      `SELECT u.password_hash, u.confirmed_at, c.password_hash AS link_hash
       FROM staff_users u JOIN email_confirmations c ON c.user_id = u.id WHERE u.email = ?1`,
      email,
    );
    // The account has no password of its own until the link is used with this one.
    expect(user?.password_hash).toBe("!");
    expect(user?.link_hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(user?.link_hash).not.toContain("vinho");
    expect(user?.confirmed_at).toBeNull();

    const sent = mail.messages().at(-1);
    expect(sent?.to).toEqual([email]);
    expect(sent?.subject).toBe("Confirme seu acesso ao painel");
    expect(sent?.text).toContain("válido por 24 horas");
    expect(sent?.html).toContain("Confirmar meu e-mail e entrar");
    const request = mail.received.at(-1);
    expect(request?.headers.authorization).toBe("Bearer mail-test-key");

    const token = mail.confirmationToken(email);
    expect(mail.confirmationLink(email)).toBe(`${app.baseUrl}/auth?confirmar=${token}`);
    const stored = await app.sql("SELECT token_hash FROM email_confirmations WHERE token_hash = ?1", token);
    expect(stored).toEqual([]);
  });

  it("for an address already confirmed answers that it is registered", async () => {
    const { email } = await signedInStaff(app, mail);
    const answer = await new StaffClient(app).signup(email, "outra-senha");
    expect(answer).toMatchObject({ status: 409, body: { error: "Este email já está cadastrado. Tente fazer login." } });
  });

  it("again for an unconfirmed address sends another link bound to its own password; the first link used wins", async () => {
    const email = staffEmail("repete");
    const client = new StaffClient(app);
    expect((await client.signup(email, "primeira-senha")).status).toBe(200);
    const first = mail.confirmationToken(email);
    expect((await client.signup(email, "segunda-senha")).status).toBe(200);
    const second = mail.confirmationToken(email);
    expect(second).not.toBe(first);
    expect(mail.messagesTo(email)).toHaveLength(2);

    // Each link confirms only with the password of the sign-up that sent it.
    const crossed = await client.confirm(first, "segunda-senha");
    expect(crossed.status).toBe(422);
    expect(crossed.body.fields).toEqual({ password: expect.stringMatching(/não confere/) });
    expect((await client.confirm(first, "primeira-senha")).status).toBe(200);
    expect((await client.confirm(second, "segunda-senha")).status).toBe(400);
    expect((await new StaffClient(app).login(email, "primeira-senha")).status).toBe(200);
    expect((await new StaffClient(app).login(email, "segunda-senha")).status).toBe(401);
  });
});

describe("the confirmation link", () => {
  it("with the sign-up's password confirms the account, signs the user in and works only once", async () => {
    const email = staffEmail("link");
    const client = new StaffClient(app);
    await client.signup(email, "vinho-tinto-2026");
    const answer = await client.confirm(mail.confirmationToken(email), "vinho-tinto-2026");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, user: { email } });
    expect(answer.body.access_token).toEqual(expect.any(String));
    expect((await client.session()).status).toBe(200);

    const again = await new StaffClient(app).confirm(mail.confirmationToken(email), "vinho-tinto-2026");
    expect(again.status).toBe(400);
    expect(String(again.body.error)).toMatch(/inválido ou expirado/);
  });

  it("without the password, or with another, confirms nothing", async () => {
    const email = staffEmail("semsenha");
    const client = new StaffClient(app);
    await client.signup(email, "vinho-tinto-2026");
    const token = mail.confirmationToken(email);
    expect((await client.confirm(token, "")).status).toBe(422);
    expect((await client.confirm(token, "outra-senha-qualquer")).status).toBe(422);
    const [user] = await app.sql("SELECT confirmed_at FROM staff_users WHERE email = ?1", email);
    expect(user).toEqual({ confirmed_at: null });
    expect((await client.confirm(token, "vinho-tinto-2026")).status).toBe(200);
  });

  it("stops after 5 wrong passwords: the link is spent", async () => {
    const email = staffEmail("tentativas");
    const client = new StaffClient(app);
    await client.signup(email, "vinho-tinto-2026");
    const token = mail.confirmationToken(email);
    for (let i = 0; i < 5; i++) expect((await client.confirm(token, `errada-${i}`)).status).toBe(422);
    expect((await client.confirm(token, "vinho-tinto-2026")).status).toBe(400);
  });

  it("is refused after 24 hours", async () => {
    const email = staffEmail("expira");
    const client = new StaffClient(app);
    await client.signup(email, "vinho-tinto-2026");
    await app.sql(
      "UPDATE email_confirmations SET expires_at = ?1 WHERE user_id = (SELECT id FROM staff_users WHERE email = ?2)",
      Date.now() - 1000,
      email,
    );
    expect((await client.confirm(mail.confirmationToken(email), "vinho-tinto-2026")).status).toBe(400);
    expect((await client.login(email, "vinho-tinto-2026")).status).toBe(403);
  });

  it("that is made up is refused", async () => {
    expect((await new StaffClient(app).confirm("x".repeat(43), "vinho-tinto-2026")).status).toBe(400);
    expect((await new StaffClient(app).confirm("", "vinho-tinto-2026")).status).toBe(400);
  });
});

describe("sign-in", () => {
  it("before confirming the e-mail fails with a clear message", async () => {
    const email = staffEmail("pendente");
    const client = new StaffClient(app);
    await client.signup(email, "vinho-tinto-2026");
    const answer = await client.login(email, "vinho-tinto-2026");
    expect(answer.status).toBe(403);
    expect(String(answer.body.error)).toMatch(/Confirme seu e-mail/);
    expect(answer.cookie).toBeNull();
  });

  it("gives an access token and an HttpOnly, SameSite=Strict refresh cookie for the whole site (__Host- over https)", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const client = new StaffClient(app);
    const answer = await client.login(email.toUpperCase(), password);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ user: { email } });
    const expiresIn = Number(answer.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(55 * 60 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(answer.cookie).toMatch(/^staff_refresh=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    // The session, and so its cookie, ends 30 days after the sign-in.
    const maxAge = Number(answer.cookie?.match(/Max-Age=(\d+)/)?.[1]);
    expect(maxAge).toBeGreaterThan(30 * 86_400 - 60);
    expect(maxAge).toBeLessThanOrEqual(30 * 86_400);
    expect(answer.deviceCookie).toMatch(
      /^staff_device=[\w-]{22}\.[\w-]{43}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Strict$/,
    );
  });

  it("refuses a refresh that carries two refresh cookies, a planted one beside the real: neither is read", async () => {
    const ana = await signedInStaff(app, mail);
    const bruno = await signedInStaff(app, mail);
    const planted = new StaffClient(app);
    const answer = await planted.call(
      "POST",
      "/api/auth/refresh",
      {},
      {
        Cookie: `staff_refresh=${bruno.client.cookie}; staff_refresh=${ana.client.cookie}`,
      },
    );
    expect(answer.status).toBe(401);
    expect(answer.body.access_token).toBeUndefined();
    // Both tokens are still their owners' own, unrotated.
    expect((await ana.client.refresh()).status).toBe(200);
    expect((await bruno.client.refresh()).status).toBe(200);
  });

  it("answers a wrong password and an unknown e-mail the same way", async () => {
    const { email } = await signedInStaff(app, mail);
    const wrongPassword = await new StaffClient(app).login(email, "senha-errada");
    const unknownEmail = await new StaffClient(app).login(staffEmail("ninguem"), "senha-errada");
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
    expect(wrongPassword.body.error).toBe("E-mail ou senha incorretos.");
  });

  it("needs both e-mail and password", async () => {
    const answer = await new StaffClient(app).login("", "");
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe("Informe e-mail e senha.");
  });

  it("stops after 5 failures for one address, even with the right password", async () => {
    const { email, password } = await signedInStaff(app, mail);
    for (let i = 0; i < 5; i++) {
      expect((await new StaffClient(app).login(email, `errada-${i}`)).status).toBe(401);
    }
    const blocked = await new StaffClient(app).login(email, password);
    expect(blocked.status).toBe(429);
    expect(String(blocked.body.error)).toMatch(/Aguarde 15 minutos/);
  });

  it("stops after 10 failures from one address, whatever the e-mail", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const ip = "198.18.0.77";
    for (let i = 0; i < 10; i++) {
      expect((await new StaffClient(app, ip).login(staffEmail(`tentativa${i}`), "errada")).status).toBe(401);
    }
    expect((await new StaffClient(app, ip).login(email, password)).status).toBe(429);
    expect((await new StaffClient(app).login(email, password)).status).toBe(200);
  });

  it("only from our own pages", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const foreign = await new StaffClient(app).call(
      "POST",
      "/api/auth/login",
      { email, password },
      { Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
  });

  it("only as JSON: a body sent as text/plain, as any page can without asking, is refused with 415 and signs nobody in", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const answer = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: "POST",
      headers: { Origin: app.baseUrl, "Content-Type": "text/plain;charset=UTF-8" },
      body: JSON.stringify({ email, password }),
    });
    expect(answer.status).toBe(415);
    expect(answer.headers.getSetCookie()).toEqual([]);
    expect(await answer.json()).toMatchObject({ success: false, error: expect.stringMatching(/application\/json/) });
  });
});

describe("refresh tokens", () => {
  it("rotate on every use", async () => {
    const { client } = await signedInStaff(app, mail);
    const first = client.cookie;
    const answer = await client.refresh();
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toEqual(expect.any(String));
    expect(client.cookie).not.toBe(first);
    expect((await client.session()).status).toBe(200);
  });

  it("presented again more than 10 seconds after its rotation revoke the whole session", async () => {
    const { client } = await signedInStaff(app, mail);
    const stolen = client.cookie ?? "";
    expect((await client.refresh()).status).toBe(200);
    // As if the thief came back 11 seconds later.
    await app.sql(
      "UPDATE refresh_tokens SET rotated_at = rotated_at - 11000 WHERE token_hash = ?1",
      createHash("sha256").update(stolen).digest("hex"),
    );

    const thief = new StaffClient(app);
    thief.cookie = stolen;
    const reuse = await thief.refresh();
    expect(reuse.status).toBe(401);
    expect(reuse.cookie).toMatch(/Max-Age=0/);

    expect((await client.session()).status).toBe(401);
    expect((await client.refresh()).status).toBe(401);
  });

  it("retried within 10 seconds (the answer was lost) keep the session alive", async () => {
    const { client } = await signedInStaff(app, mail);
    const sent = client.cookie;
    expect((await client.refresh()).status).toBe(200);
    // The phone never got that answer and tries again with the same token.
    const retry = new StaffClient(app);
    retry.cookie = sent;
    const again = await retry.refresh();
    expect(again.status).toBe(200);
    expect(retry.cookie).not.toBe(sent);
    // The token the lost answer carried: one chain, not two.
    expect(retry.cookie).toBe(client.cookie);
    expect((await retry.session()).status).toBe(200);
    expect((await client.session()).status).toBe(200);
    expect((await retry.refresh()).status).toBe(200);
  });

  it("retried late, after the token that replaced it was replaced too, get the newest, so the browser keeps a live one", async () => {
    const { client } = await signedInStaff(app, mail);
    const sent = client.cookie;
    expect((await client.refresh()).status).toBe(200);
    expect((await client.refresh()).status).toBe(200);
    // A slow duplicate of the first request arrives now, within its 10 seconds.
    const late = new StaffClient(app);
    late.cookie = sent;
    expect((await late.refresh()).status).toBe(200);
    expect(late.cookie).toBe(client.cookie);
    expect((await late.refresh()).status).toBe(200);
    expect((await late.session()).status).toBe(200);
  });

  it("sent three times at once all renew, and the session lives on", async () => {
    const { client } = await signedInStaff(app, mail);
    const tabs = [0, 1, 2].map(() => {
      const tab = new StaffClient(app);
      tab.cookie = client.cookie;
      return tab;
    });
    const answers = await Promise.all(tabs.map((t) => t.refresh()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(tabs.map((t) => t.cookie)).size).toBe(1);
    for (const tab of tabs) expect((await tab.session()).status).toBe(200);
    expect((await client.session()).status).toBe(200);
  });

  it("replayed by a thief within 10 seconds give the thief the owner's own next token, so the session ends when the two part", async () => {
    const { client } = await signedInStaff(app, mail);
    const stolen = client.cookie;
    const tokenHash = (token: string | null) =>
      createHash("sha256")
        .update(token ?? "")
        .digest("hex");
    const replay = () => {
      const thief = new StaffClient(app);
      thief.cookie = stolen;
      return thief;
    };
    const first = replay();
    const thieves = [first, ...[1, 2, 3, 4, 5].map(replay)];
    // The owner's refresh and six replays of the same cookie, at once.
    const answers = await Promise.all([client.refresh(), ...thieves.map((t) => t.refresh())]);
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(200));
    for (const thief of thieves) expect(thief.cookie).toBe(client.cookie);

    // The owner's panel moves on; a minute later the thief uses the token they got.
    expect((await client.refresh()).status).toBe(200);
    await app.sql(
      "UPDATE refresh_tokens SET rotated_at = rotated_at - 60000 WHERE token_hash IN (?1, ?2)",
      tokenHash(stolen),
      tokenHash(first.cookie),
    );
    expect((await first.refresh()).status).toBe(401);
    expect((await client.session()).status).toBe(401);
    expect((await client.refresh()).status).toBe(401);
    for (const thief of thieves.slice(1)) expect((await thief.refresh()).status).toBe(401);
  });

  it("without a cookie are a 401", async () => {
    expect((await new StaffClient(app).refresh()).status).toBe(401);
  });
});

describe("sign-out", () => {
  it("with global scope cuts off every other session's access token at once", async () => {
    const { client: phone, email, password } = await signedInStaff(app, mail);
    const desktop = new StaffClient(app);
    expect((await desktop.login(email, password)).status).toBe(200);
    expect((await desktop.session()).status).toBe(200);

    const answer = await phone.logout("global");
    expect(answer.status).toBe(200);
    expect(answer.cookie).toMatch(/Max-Age=0/);

    expect((await desktop.session()).status).toBe(401);
    expect((await desktop.refresh()).status).toBe(401);
    expect((await phone.session()).status).toBe(401);
  });

  it("asked with the access token of a session already ended signs no one out", async () => {
    const { client: phone, email, password } = await signedInStaff(app, mail);
    const desktop = new StaffClient(app);
    expect((await desktop.login(email, password)).status).toBe(200);
    const ended = phone.accessToken;
    await phone.logout("local");
    const stranger = new StaffClient(app);
    stranger.accessToken = ended;
    expect((await stranger.logout("global")).status).toBe(200);
    expect((await desktop.session()).status).toBe(200);
  });

  it("asked with a refresh token replaced long ago signs no one out", async () => {
    const { client: phone, email } = await signedInStaff(app, mail);
    const stale = phone.cookie;
    expect((await phone.refresh()).status).toBe(200);
    // The replacement was over 10 seconds ago (the clock moved by SQL).
    await app.sql(
      "UPDATE refresh_tokens SET rotated_at = rotated_at - 60000 WHERE rotated_at IS NOT NULL AND session_id IN " +
        "(SELECT s.id FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id WHERE u.email = ?1)",
      email,
    );
    const stranger = new StaffClient(app);
    stranger.cookie = stale;
    expect((await stranger.logout("global")).status).toBe(200);
    expect((await phone.session()).status).toBe(200);
    expect((await phone.refresh()).status).toBe(200);
  });

  it("with local scope ends only its own session", async () => {
    const { client: phone, email, password } = await signedInStaff(app, mail);
    const desktop = new StaffClient(app);
    await desktop.login(email, password);
    await phone.logout("local");
    expect((await phone.session()).status).toBe(401);
    expect((await desktop.session()).status).toBe(200);
  });
});

describe("staff endpoints", () => {
  it("answer 401 without a token, with a forged one, or with one signed by another key", async () => {
    const { client } = await signedInStaff(app, mail);
    const token = client.accessToken ?? "";
    const [header, payload] = token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    for (const authorization of [undefined, "Bearer ", "Bearer nonsense", `Bearer ${forged}`, `Basic ${token}`]) {
      const anonymous = new StaffClient(app);
      const answer = await anonymous.call(
        "GET",
        "/api/auth/session",
        undefined,
        authorization ? { Authorization: authorization } : {},
      );
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    }
  });
});
