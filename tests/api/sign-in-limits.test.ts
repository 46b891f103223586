import { describe, expect, it } from "vitest";
import type { App } from "../support/app";
import { startAppWithMail } from "../support/app-with-mail";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead } from "../support/leads";
import { StaffClient, signedInStaff, staffEmail } from "../support/staff";

// Sign-in limits hold however many requests arrive at once: the attempt is
// counted before the password is checked, in the same D1 batch.
let app: App;
const mail = new FakeMail();

startAppWithMail(mail, (started) => {
  app = started;
});

/** How many passwords the worker checked and found wrong for `email` (each is an audit entry). */
async function checkedAndWrong(email: string): Promise<number> {
  const [row] = await app.sql<{ n: number }>(
    "SELECT count(*) AS n FROM audit_log WHERE action = 'sign_in_failed' AND staff_email = ?1",
    email,
  );
  return row?.n ?? -1;
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** As if the 15-minute window had passed for the counter `key`. */
async function windowPasses(key: string): Promise<void> {
  await app.sql("UPDATE rate_limits SET window_start = window_start - 900000 WHERE key = ?1", key);
}

/** Signs in from `count` browsers at addresses `{subnet}.1`…; their device cookies. */
async function knownDevices(email: string, password: string, count: number, subnet: string): Promise<string[]> {
  const devices: string[] = [];
  for (let i = 0; i < count; i++) {
    const browser = new StaffClient(app, `${subnet}.${i + 1}`);
    expect((await browser.login(email, password)).status).toBe(200);
    devices.push(String(browser.device));
  }
  return devices;
}

/** `count` wrong passwords at once from addresses `{subnet}.1`…, each through one of `devices` in turn. */
function guessesThrough(email: string, devices: string[], count: number, subnet: string) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const guess = new StaffClient(app, `${subnet}.${i + 1}`);
      guess.device = devices[i % devices.length] ?? null;
      return guess.login(email, `palpite-${i}`);
    }),
  );
}

describe("wrong passwords sent all at once", () => {
  it("40 for one account from one address: at most 5 are checked, the rest are refused unchecked", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const ip = "198.18.10.1";
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => new StaffClient(app, ip).login(email, `errada-${i}`)),
    );
    const statuses = tally(answers.map((a) => a.status));
    expect((statuses[401] ?? 0) + (statuses[429] ?? 0)).toBe(40);
    expect(statuses[401]).toBeLessThanOrEqual(5);
    expect(await checkedAndWrong(email)).toBe(statuses[401]);
    // The right password waits for the window too, from a device the account does not know.
    expect((await new StaffClient(app, "198.18.10.2").login(email, password)).status).toBe(429);
  });

  it("40 for 40 accounts from one address: at most 10 are checked", async () => {
    const ip = "198.18.11.1";
    const emails = Array.from({ length: 40 }, (_, i) => staffEmail(`alvo${i}`));
    const answers = await Promise.all(emails.map((email) => new StaffClient(app, ip).login(email, "errada")));
    const statuses = tally(answers.map((a) => a.status));
    expect(statuses[401]).toBeLessThanOrEqual(10);
    expect(statuses[429]).toBeGreaterThanOrEqual(30);
    const checked = await Promise.all(emails.map(checkedAndWrong));
    expect(checked.reduce((a, b) => a + b, 0)).toBe(statuses[401]);
  });

  it("40 made-up addresses of 10,000 characters from one address: at most 10 counters are kept, each short", async () => {
    const ip = "198.18.40.1";
    const junk = Array.from({ length: 40 }, (_, i) => `junk${i}-${"x".repeat(10_000)}`);
    const answers = await Promise.all(junk.map((email) => new StaffClient(app, ip).login(email, "errada")));
    expect(tally(answers.map((a) => a.status))[429]).toBeGreaterThanOrEqual(30);
    const counters = await app.sql<{ key: string }>("SELECT key FROM rate_limits WHERE key LIKE 'login-email:junk%'");
    expect(counters.length).toBeLessThanOrEqual(10);
    expect(Math.max(...counters.map((c) => c.key.length))).toBe("login-email:".length + 254);
  });
});

describe("a stranger hammering an address", () => {
  it("never locks its owner's own browser out, and locks other browsers for one window at most", async () => {
    const { client: herBrowser, email, password } = await signedInStaff(app, mail);
    expect(herBrowser.device).toBeTruthy();
    for (let i = 0; i < 6; i++) await new StaffClient(app, "198.18.12.1").login(email, `palpite-${i}`);
    // A browser that never signed in to the account waits...
    expect((await new StaffClient(app, "198.18.12.2").login(email, password)).status).toBe(429);
    // ...hers, which signed in before, does not.
    const same = new StaffClient(app, herBrowser.ip);
    same.device = herBrowser.device;
    expect((await same.login(email, password)).status).toBe(200);
    // Once the window is over, any browser gets in again.
    await windowPasses(`login-email:${email}`);
    expect((await new StaffClient(app, "198.18.12.3").login(email, password)).status).toBe(200);
  });

  it("20 failed sign-ins from her office's address never keep her known browser out; strangers there wait", async () => {
    const { client: herBrowser, email, password } = await signedInStaff(app, mail);
    const office = "198.18.22.1";
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => new StaffClient(app, office).login(staffEmail(`vizinho${i}`), "errada")),
    );
    expect(tally(answers.map((a) => a.status))[429]).toBeGreaterThanOrEqual(10);
    // A browser that never signed in to her account is one more stranger at that address.
    expect((await new StaffClient(app, office).login(email, password)).status).toBe(429);
    const hers = new StaffClient(app, office);
    hers.device = herBrowser.device;
    expect((await hers.login(email, password)).status).toBe(200);
  });

  it("cannot borrow a device cookie of another account", async () => {
    const ana = await signedInStaff(app, mail);
    const bruno = await signedInStaff(app, mail);
    for (let i = 0; i < 6; i++) await new StaffClient(app, "198.18.13.1").login(bruno.email, `palpite-${i}`);
    const withAnasCookie = new StaffClient(app, "198.18.13.1");
    withAnasCookie.device = ana.client.device;
    expect((await withAnasCookie.login(bruno.email, bruno.password)).status).toBe(429);
  });

  it("a known device has its own limit of 5 wrong passwords", async () => {
    const { client, email, password } = await signedInStaff(app, mail);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const again = new StaffClient(app, client.ip);
      again.device = client.device;
      statuses.push((await again.login(email, i < 5 ? `errada-${i}` : password)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe("many devices that signed in to one account", () => {
  it("30 wrong passwords at once, spread over 7 devices and 30 addresses: at most 20 are checked", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const devices = await knownDevices(email, password, 7, "198.18.16");
    expect(new Set(devices).size).toBe(7);
    const answers = await guessesThrough(email, devices, 30, "198.18.17");
    const statuses = tally(answers.map((a) => a.status));
    expect((statuses[401] ?? 0) + (statuses[429] ?? 0)).toBe(30);
    expect(statuses[401]).toBeLessThanOrEqual(20);
    expect(await checkedAndWrong(email)).toBe(statuses[401]);
  });
});

describe("a new password", () => {
  it("ends the devices that knew the old one: 20 guesses at once through them count as strangers', yet the browser that changed it stays known", async () => {
    const { client: hers, email, password } = await signedInStaff(app, mail);
    const stale = await knownDevices(email, password, 4, "198.18.18");
    const before = hers.device;
    expect((await hers.changePassword(password, "senha-nova-de-2026")).status).toBe(200);
    expect(hers.device).toBeTruthy();
    expect(hers.device).not.toBe(before);

    const answers = await guessesThrough(email, stale, 20, "198.18.19");
    const statuses = tally(answers.map((a) => a.status));
    expect(statuses[401]).toBeLessThanOrEqual(5);
    expect(await checkedAndWrong(email)).toBe(statuses[401]);
    // A stale device with the new password waits like any stranger; her browser does not.
    const staleRight = new StaffClient(app, "198.18.18.1");
    staleRight.device = stale[0] ?? null;
    expect((await staleRight.login(email, "senha-nova-de-2026")).status).toBe(429);
    const again = new StaffClient(app, hers.ip);
    again.device = hers.device;
    expect((await again.login(email, "senha-nova-de-2026")).status).toBe(200);
  });
});

describe("a right password", () => {
  it("gives its count back: signing in often never locks anyone out", async () => {
    const { email, password } = await signedInStaff(app, mail);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      if (i === 3) statuses.push((await new StaffClient(app, "198.18.14.1").login(email, "um-erro")).status);
      statuses.push((await new StaffClient(app, "198.18.14.1").login(email, password)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses).toContain(401);
  });
});

describe("per-address limits", () => {
  it("count an IPv6 /64 as one address for sign-ins", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) {
      statuses.push(
        (await new StaffClient(app, `2001:db8:77:1::${i.toString(16)}`).login(staffEmail(), "x1y2z3")).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await new StaffClient(app, "2001:db8:77:2::1").login(staffEmail(), "x1y2z3")).status).toBe(401);
  });

  it("count an IPv6 /64 as one address for leads", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 11; i++) {
      statuses.push((await postLead(app, aLead(), { ip: `2001:db8:88:1:${i.toString(16)}::1` })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await postLead(app, aLead(), { ip: "2001:db8:88:2::1" })).status).toBe(200);
  });
});
