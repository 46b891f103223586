import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { eventually, sleep } from "../support/net";
import { type Call, StaffClient, signedInStaff, staffEmail } from "../support/staff";

let app: App;
const mail = new FakeMail();
const ANSWER = "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.";

startAppWithMail(mail, (started) => {
  app = started;
});

let nextIp = 1;
/** A caller from an address of its own, so the per-address limit of one test does not touch another. */
const fresh = () => new StaffClient(app, `198.18.20.${nextIp++}`);

/** The reset link e-mailed to `email`, once it has gone out (it leaves after the answer). */
function resetLink(email: string): Promise<string> {
  return eventually(async () => {
    try {
      return mail.resetToken(email);
    } catch {
      return undefined;
    }
  });
}

describe("'Esqueci minha senha'", () => {
  it("answers the same for a confirmed, an unconfirmed, a switched-off and an unknown address; only the first gets a link", async () => {
    const confirmed = await signedInStaff(app, mail);
    const unconfirmed = staffEmail("pendente");
    await fresh().signup(unconfirmed, "vinho-tinto-2026");
    const off = await signedInStaff(app, mail);
    await app.sql("UPDATE staff_users SET disabled_at = ?1 WHERE email = ?2", Date.now(), off.email);
    const unknown = staffEmail("ninguem");

    const answers = [];
    // The confirmed address asks last: once its link is out, a link the others' answers had set
    // on its way (after the answer, as every reset's) would have gone out before it.
    for (const email of [unconfirmed, off.email, unknown, confirmed.email]) {
      answers.push(await fresh().requestReset(email));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true, message: ANSWER });
    }
    await resetLink(confirmed.email);
    const resets = (email: string) => mail.messagesTo(email).filter((m) => m.subject.includes("Redefinição"));
    expect(resets(confirmed.email)).toHaveLength(1);
    expect(resets(unconfirmed)).toHaveLength(0);
    expect(resets(off.email)).toHaveLength(0);
    expect(resets(unknown)).toHaveLength(0);
  });

  it("answers before the e-mail goes out, so a slow mail service tells nothing about the account", async () => {
    const { email } = await signedInStaff(app, mail);
    mail.respondWith(() => ({ status: 200, body: { id: "lento" }, delayMs: 2_500 }));
    try {
      const started = performance.now();
      const answer = await fresh().requestReset(email);
      const took = performance.now() - started;
      expect(answer.status).toBe(200);
      expect(took).toBeLessThan(1_500);
      await resetLink(email);
    } finally {
      mail.respondWith(() => ({ status: 200, body: { id: "mail" } }));
    }
  });

  it("is limited per address and per account", async () => {
    const ip = fresh().ip;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new StaffClient(app, ip).requestReset(staffEmail())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

    const { email } = await signedInStaff(app, mail);
    const perAccount: number[] = [];
    for (let i = 0; i < 4; i++) perAccount.push((await fresh().requestReset(email)).status);
    expect(perAccount).toEqual([200, 200, 200, 429]);
  });
});

describe("the reset link", () => {
  it("sets the new password, signs this browser in and ends every other session of the account", async () => {
    const { client: elsewhere, email, password } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);

    const browser = fresh();
    const answer = await browser.reset(link, "nova-senha-da-serra");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, user: { email } });
    expect((await browser.session()).status).toBe(200);
    expect((await elsewhere.session()).status).toBe(401);
    expect((await elsewhere.refresh()).status).toBe(401);

    expect((await fresh().login(email, password)).status).toBe(401);
    expect((await fresh().login(email, "nova-senha-da-serra")).status).toBe(200);
    const [entry] = await app.sql(
      "SELECT action FROM audit_log WHERE staff_email = ?1 ORDER BY id DESC LIMIT 1",
      email,
    );
    expect(entry).toEqual({ action: "sign_in" });
    const [reset] = await app.sql(
      "SELECT count(*) AS n FROM audit_log WHERE staff_email = ?1 AND action = 'password_reset'",
      email,
    );
    expect(reset).toEqual({ n: 1 });
  });

  it("works once", async () => {
    const { email } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);
    expect((await fresh().reset(link, "primeira-troca-2026")).status).toBe(200);
    const again = await fresh().reset(link, "segunda-troca-2026");
    expect(again.status).toBe(400);
    expect(String(again.body.error)).toMatch(/inválido, expirado ou já usado/);
    expect((await fresh().login(email, "primeira-troca-2026")).status).toBe(200);
  });

  it("expires after 1 hour", async () => {
    const { email, password } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);
    await app.sql(
      "UPDATE password_resets SET expires_at = ?1 WHERE user_id = (SELECT id FROM staff_users WHERE email = ?2)",
      Date.now() - 1,
      email,
    );
    expect((await fresh().reset(link, "tarde-demais-2026")).status).toBe(400);
    expect((await fresh().login(email, password)).status).toBe(200);
  });

  it("that is made up is refused, and keeps only the link's hash", async () => {
    expect((await fresh().reset("y".repeat(43), "qualquer-senha-2026")).status).toBe(400);
    const { email } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);
    expect(await app.sql("SELECT token_hash FROM password_resets WHERE token_hash = ?1", link)).toEqual([]);
  });

  it("keeps the sign-up's rules: 6 characters, not a common password", async () => {
    const { email } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);
    const short = await fresh().reset(link, "12345");
    expect(short).toMatchObject({ status: 422, body: { error: "A senha deve ter pelo menos 6 caracteres" } });
    const common = await fresh().reset(link, "Senha123");
    expect(common).toMatchObject({ status: 422, body: { error: "Essa senha é muito comum. Escolha outra." } });
    // Refusing a password does not spend the link.
    expect((await fresh().reset(link, "uma-senha-boa-2026")).status).toBe(200);
  });

  it("of an account switched off after it was sent does nothing", async () => {
    const { email, password } = await signedInStaff(app, mail);
    await fresh().requestReset(email);
    const link = await resetLink(email);
    await app.sql("UPDATE staff_users SET disabled_at = ?1 WHERE email = ?2", Date.now(), email);
    expect((await fresh().reset(link, "tentativa-2026")).status).toBe(400);
    await app.sql("UPDATE staff_users SET disabled_at = NULL WHERE email = ?1", email);
    expect((await fresh().login(email, password)).status).toBe(200);
  });
});

describe("'Alterar senha'", () => {
  it("needs the current password, refuses a common one, and ends the other sessions", async () => {
    const { client, email, password } = await signedInStaff(app, mail);
    const other = fresh();
    expect((await other.login(email, password)).status).toBe(200);

    const wrong = await client.changePassword("nao-e-a-atual", "nova-senha-2026");
    expect(wrong).toMatchObject({ status: 422, body: { fields: { current_password: "A senha atual não confere." } } });
    const common = await client.changePassword(password, "password1");
    expect(common).toMatchObject({
      status: 422,
      body: { fields: { new_password: "Essa senha é muito comum. Escolha outra." } },
    });

    expect((await client.changePassword(password, "nova-senha-2026")).status).toBe(200);
    expect((await client.session()).status).toBe(200);
    expect((await other.session()).status).toBe(401);
    expect((await fresh().login(email, password)).status).toBe(401);
    expect((await fresh().login(email, "nova-senha-2026")).status).toBe(200);
  });

  it("needs a live session", async () => {
    expect((await fresh().changePassword("a", "nova-senha-2026")).status).toBe(401);
  });

  it("lets one of five changes sent at once win, and the password that signs in is that one", async () => {
    // Five changes from one session, all typing the same current password: the first to be
    // written wins, the others find their current password no longer is. Whether the five
    // overlap in the worker is the runtime's choice, so this races 20 rounds: without the
    // compare-and-swap, several changes were answered 200 in about a third of the rounds.
    let { email, password } = await signedInStaff(app, mail);
    for (let round = 1; round <= 20; round++) {
      const client = fresh();
      expect((await client.login(email, password)).status).toBe(200);
      // Five calls first, so that the five changes leave on connections already open.
      await Promise.all(Array.from({ length: 5 }, () => client.session()));
      const tried = Array.from({ length: 5 }, (_, i) => `nova-senha-${round}-${i}-2026`);
      const answers = await Promise.all(tried.map((next) => client.changePassword(password, next)));
      const won = tried.filter((_, i) => answers[i]?.status === 200);
      expect(won, `round ${round}`).toHaveLength(1);
      for (const lost of answers.filter((a) => a.status !== 200)) {
        expect(lost).toMatchObject({
          status: 422,
          body: { fields: { current_password: "A senha atual não confere." } },
        });
      }
      password = won[0] as string;
    }
    expect((await fresh().login(email, password)).status).toBe(200);
  }, 180_000);

  it("checks at most 5 guesses per session at once; strangers' failed sign-ins do not stop the person", async () => {
    const { client, email, password } = await signedInStaff(app, mail);
    const thief = fresh();
    expect((await thief.login(email, password)).status).toBe(200);
    // Strangers spend the address's allowance of sign-in attempts...
    const strangers = await Promise.all(Array.from({ length: 8 }, () => fresh().login(email, "chute-errado")));
    expect(strangers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    // ...and a session that guesses at the current password gets 5 checks, however many at once.
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => thief.changePassword(`chute-${i}`, "senha-do-intruso")),
    );
    const checked = guesses.filter((g) => g.status === 422).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(guesses.filter((g) => g.status === 429).length).toBe(12 - checked);
    // The person, signed in elsewhere, still changes hers.
    expect((await client.changePassword(password, "nova-senha-2026")).status).toBe(200);
    expect((await thief.session()).status).toBe(401);
  });
});

describe("a sign-in with the old password that races the new one", () => {
  type Person = Awaited<ReturnType<typeof signedInStaff>>;
  /**
   * Sixteen browsers that signed in before (each with its own allowance of attempts) sign in
   * again with the old password, one every 4 ms, while the change `ready` prepared sets a new one
   * 30 ms in: some read the account before it and make their session after it. No session made
   * with the old password may outlive it.
   */
  async function race(ready: (person: Person) => Promise<() => Promise<Call>>, recorded: string): Promise<Person> {
    const person = await signedInStaff(app, mail);
    const [user] = await app.sql<{ id: string }>("SELECT id FROM staff_users WHERE email = ?1", person.email);
    const devices = Array.from({ length: 16 }, () => fresh());
    for (const device of devices) {
      expect((await device.login(person.email, person.password)).status).toBe(200);
      expect((await device.logout("local")).status).toBe(200);
    }
    const change = await ready(person);
    const [before] = await app.sql<{ last: number }>("SELECT max(id) AS last FROM audit_log");
    const [changed, ...signIns] = await Promise.all([
      sleep(30).then(change),
      ...devices.map((d, i) => sleep(i * 4).then(() => d.login(person.email, person.password))),
    ]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // Made before the new password (then ended with the other sessions), refused as a wrong
    // password, or over the allowance of attempts.
    for (const signIn of signIns) expect([200, 401, 429]).toContain(signIn.status);
    for (const [i, device] of devices.entries()) {
      if (signIns[i]?.status !== 200) continue;
      expect((await device.session()).status).toBe(401);
      expect((await device.refresh()).status).toBe(401);
    }
    // The one session left is that of the browser that set the new password.
    const [live] = await app.sql<{ n: number }>(
      "SELECT count(*) AS n FROM staff_sessions WHERE user_id = ?1 AND revoked_at IS NULL",
      user?.id,
    );
    expect(live).toEqual({ n: 1 });
    // 'Atividade' tells each sign-in as its answer did, and none was made after the new password.
    const trail = await app.sql<{ action: string }>(
      "SELECT action FROM audit_log WHERE id > ?1 AND staff_id = ?2 ORDER BY id",
      before?.last,
      user?.id,
    );
    const actions = trail.map((e) => e.action);
    const answered = (status: number) => signIns.filter((s) => s.status === status).length;
    expect(actions.filter((a) => a === "sign_in")).toHaveLength(answered(200));
    expect(actions.filter((a) => a === "sign_in_failed")).toHaveLength(answered(401));
    expect(actions).toContain(recorded);
    expect(actions.slice(actions.indexOf(recorded))).not.toContain("sign_in");
    return person;
  }

  it("'Alterar senha': every session of the old password ends, the one that changed it stays", async () => {
    const person = await race(
      async (p) => () => p.client.changePassword(p.password, "outra-senha-da-serra"),
      "password_change",
    );
    expect((await person.client.session()).status).toBe(200);
  });

  it("a reset link: every session of the old password ends", async () => {
    await race(async (p) => {
      await fresh().requestReset(p.email);
      const link = await resetLink(p.email);
      return () => fresh().reset(link, "outra-senha-da-serra");
    }, "password_reset");
  });
});
