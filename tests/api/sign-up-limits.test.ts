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
async function start(vars: Record<string, string> = {}): Promise<App> {
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

/** Sends every sign-up at once; returns each answer's status and error. */
async function burst(signups: { client: StaffClient; email: string }[]) {
  const answers = await Promise.all(signups.map(({ client, email }) => client.signup(email, PASSWORD)));
  return answers.map((a) => ({ status: a.status, error: a.body.error }));
}

function tally(answers: { status: number; error: unknown }[]) {
  const ok = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status !== 200);
  return { ok, refused };
}

describe("sign-ups", () => {
  it("from one address: 10 an hour, however many at once; the rest are told so and send nothing", async () => {
    const on = await start();
    const client = new StaffClient(on, "198.51.100.7");
    const { ok, refused } = tally(await burst(Array.from({ length: 13 }, () => ({ client, email: staffEmail() }))));
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
    const { ok, refused } = tally(
      await burst(
        Array.from({ length: 6 }, (_, i) => ({
          client: new StaffClient(on, `198.51.100.${20 + i}`),
          email: tagged(i),
        })),
      ),
    );
    expect(ok).toBe(3);
    expect(refused).toEqual(Array(3).fill({ status: 429, error: PER_EMAIL }));
    expect(mail.messages()).toHaveLength(3);
  });

  it("refused to one address use up nothing of everyone's", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "12" });
    const client = new StaffClient(on, "198.51.100.40");
    const { ok } = tally(await burst(Array.from({ length: 20 }, () => ({ client, email: staffEmail() }))));
    expect(ok).toBe(10);
    const others = Array.from({ length: 2 }, (_, i) => ({
      client: new StaffClient(on, `198.51.100.${41 + i}`),
      email: staffEmail("colega"),
    }));
    expect(tally(await burst(others)).ok).toBe(2);
    expect(mail.messages()).toHaveLength(12);
  });

  it("that send nothing (refused for the mailbox) use up nothing of everyone's; one paused gives its mailbox the count back", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "4" });
    const email = staffEmail("caixa-cheia");
    const sameMailbox = Array.from({ length: 5 }, (_, i) => ({
      client: new StaffClient(on, `198.51.100.${60 + i}`),
      email,
    }));
    const { ok, refused } = tally(await burst(sameMailbox));
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
    const signups = Array.from({ length: 24 }, (_, i) => ({
      client: new StaffClient(on, `2001:db8:${i + 1}::1`),
      email: staffEmail("rodizio"),
    }));
    const { ok, refused } = tally(await burst(signups));
    expect(ok).toBe(20);
    expect(refused).toEqual(Array(4).fill({ status: 429, error: PAUSED }));
    expect(mail.messages()).toHaveLength(20);
    expect(await accounts(on)).toBe(20);
  });

  it("from everywhere together: the day's limit holds when the hour's would allow more, and both are settings", async () => {
    const on = await start({ STAFF_SIGNUPS_PER_HOUR: "50", STAFF_SIGNUPS_PER_DAY: "4" });
    const signups = Array.from({ length: 6 }, (_, i) => ({
      client: new StaffClient(on, `2001:db8:${i + 100}::1`),
      email: staffEmail("dia"),
    }));
    const { ok, refused } = tally(await burst(signups));
    expect(ok).toBe(4);
    expect(refused).toEqual(Array(2).fill({ status: 429, error: PAUSED }));
    expect(mail.messages()).toHaveLength(4);
  });
});
