import { afterEach, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { StaffClient, staffEmail } from "../support/staff";

// Every sign-up sends a confirmation e-mail to an address at the agency's
// domain, and one to a mailbox that does not exist bounces back. These
// limits keep strangers from turning the site into a bounce machine (an
// e-mail API that sees many bounces stops sending for the account) or a
// colleague's inbox into a flood. Each burst is sent at once, as a crowd
// would: the count is taken in the same D1 batch that decides.

const PER_ADDRESS = "Muitos cadastros em pouco tempo. Aguarde e tente novamente.";
const PER_EMAIL =
  "Já enviamos vários links para este e-mail na última hora. Confira a caixa de entrada (e o spam) ou tente mais tarde.";
const PAUSED =
  "Recebemos muitos cadastros em pouco tempo e pausamos os novos. Tente novamente mais tarde ou fale com o responsável pelo painel.";
const PASSWORD = "vinho-tinto-2026";

let app: App | undefined;
let mail: FakeMail;

/** A worker sending its e-mail to a fresh fake e-mail API, with these settings. */
async function start(vars: Record<string, string | number> = {}): Promise<App> {
  mail = await new FakeMail().start();
  app = await spawnApp({ vars: { ...mail.settings(), ...vars } });
  return app;
}

afterEach(async () => {
  await app?.stop();
  await mail?.stop();
  app = undefined;
});

async function accounts(on: App): Promise<number> {
  const [row] = await on.sql<{ n: number }>("SELECT count(*) AS n FROM staff_users");
  return row?.n ?? 0;
}

/**
 * Sends `count` sign-ups at once, the `i`-th by `signup(i)`'s browser for its
 * e-mail; returns how many went through and each refusal's status and error.
 */
async function burst(count: number, signup: (i: number) => { client: StaffClient; email: string }) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const { client, email } = signup(i);
      return client.signup(email, PASSWORD);
    }),
  );
  const outcomes = answers.map((a) => ({ status: a.status, error: a.body.error }));
  return { ok: outcomes.filter((o) => o.status === 200).length, refused: outcomes.filter((o) => o.status !== 200) };
}

describe("sign-ups", () => {
  it("from one address: 10 an hour, however many at once; the rest are told so and send nothing", async () => {
    const on = await start();
    const client = new StaffClient(on, "198.51.100.7");
    const { ok, refused } = await burst(13, () => ({ client, email: staffEmail() }));
    expect(ok).toBe(10);
    expect(refused).toEqual(Array(3).fill({ status: 429, error: PER_ADDRESS }));
    expect(mail.messages()).toHaveLength(10);
    expect(await accounts(on)).toBe(10);
    // Another address is not held back by this one's.
    expect((await new StaffClient(on, "198.51.100.8").signup(staffEmail(), PASSWORD)).status).toBe(200);
  });

  it("to one mailbox: 3 links an hour, from however many addresses, tagged (ana+1@) or not", async () => {
    const on = await start();
    const email = staffEmail("caixa");
    const tagged = (i: number) => (i === 0 ? email : email.replace("@", `+${i}@`));
    const { ok, refused } = await burst(6, (i) => ({
      client: new StaffClient(on, `198.51.100.${20 + i}`),
      email: tagged(i),
    }));
    expect(ok).toBe(3);
    expect(refused).toEqual(Array(3).fill({ status: 429, error: PER_EMAIL }));
    expect(mail.messages()).toHaveLength(3);
  });

  it("refused to one address use up nothing of everyone's", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "12" });
    const client = new StaffClient(on, "198.51.100.40");
    const { ok } = await burst(20, () => ({ client, email: staffEmail() }));
    expect(ok).toBe(10);
    const others = await burst(2, (i) => ({
      client: new StaffClient(on, `198.51.100.${41 + i}`),
      email: staffEmail("colega"),
    }));
    expect(others.ok).toBe(2);
    expect(mail.messages()).toHaveLength(12);
  });

  it("that send nothing (refused for the mailbox) use up nothing of everyone's; one paused gives its mailbox the count back", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "4" });
    const email = staffEmail("caixa-cheia");
    const { ok, refused } = await burst(5, (i) => ({
      client: new StaffClient(on, `198.51.100.${60 + i}`),
      email,
    }));
    expect(ok).toBe(3);
    expect(refused).toEqual(Array(2).fill({ status: 429, error: PER_EMAIL }));
    // Three counted for everyone: a fourth person still gets in, a fifth is paused.
    expect((await new StaffClient(on, "198.51.100.70").signup(staffEmail("quarta"), PASSWORD)).status).toBe(200);
    const paused = staffEmail("pausada");
    const answer = await new StaffClient(on, "198.51.100.71").signup(paused, PASSWORD);
    expect(answer).toMatchObject({ status: 429, body: { error: PAUSED } });
    const [kept] = await on.sql<{ count: number }>(
      "SELECT count FROM rate_limits WHERE key = ?1",
      `signup-email:${paused}`,
    );
    expect(kept?.count ?? 0).toBe(0);
  });

  it("from everywhere together: 20 an hour by default, so rotating addresses sends no more", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "", STAFF_SIGNUPS_PER_DAY: "" });
    const { ok, refused } = await burst(24, (i) => ({
      client: new StaffClient(on, `2001:db8:${i + 1}::1`),
      email: staffEmail("rodizio"),
    }));
    expect(ok).toBe(20);
    expect(refused).toEqual(Array(4).fill({ status: 429, error: PAUSED }));
    expect(mail.messages()).toHaveLength(20);
    expect(await accounts(on)).toBe(20);
  });

  it("from everywhere together: the day's limit holds when the hour's would allow more, and both are settings", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "50", STAFF_SIGNUPS_PER_DAY: "4" });
    const { ok, refused } = await burst(6, (i) => ({
      client: new StaffClient(on, `2001:db8:${i + 100}::1`),
      email: staffEmail("dia"),
    }));
    expect(ok).toBe(4);
    expect(refused).toEqual(Array(2).fill({ status: 429, error: PAUSED }));
    expect(mail.messages()).toHaveLength(4);
  });

  it("from everywhere together: a limit written in wrangler.toml as a number counts as written", async () => {
    // `STAFF_SIGNUPS_PER_DAY = 3`, as TOML writes a number, reaches the
    // worker as a number, not as text.
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: 50, STAFF_SIGNUPS_PER_DAY: 3 });
    const { ok, refused } = await burst(5, (i) => ({
      client: new StaffClient(on, `2001:db8:${i + 200}::1`),
      email: staffEmail("toml"),
    }));
    expect(ok).toBe(3);
    expect(refused).toEqual(Array(2).fill({ status: 429, error: PAUSED }));
  });
});
