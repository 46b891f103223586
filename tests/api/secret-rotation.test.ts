import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { StaffClient, signedInStaff } from "../support/staff";

// Rotating JWT_SECRET (it leaked, or someone who knew it left): the same D1,
// the worker deployed again with a new secret. Every access token signed with
// the old one stops at once, a forged one included; staff stay signed in, their
// panel getting a new token from its refresh cookie (a random token stored
// hashed, never signed), as it does whenever a token is about to run out.
const mail = new FakeMail();
let before: App;
let after: App;
let staff: Awaited<ReturnType<typeof signedInStaff>>;

/** The staff tables, moved as they are from one deploy's D1 to the next. */
const STAFF_TABLES = ["staff_users", "staff_sessions", "refresh_tokens"];

beforeAll(async () => {
  await mail.start();
  before = await spawnApp({ vars: mail.settings() });
  staff = await signedInStaff(before, mail);
  after = await spawnApp({
    vars: { ...mail.settings(), JWT_SECRET: "rotated-signing-key-fedcba9876543210fedcba9876543210" },
  });
  for (const table of STAFF_TABLES) {
    for (const row of await before.sql(`SELECT * FROM ${table}`)) {
      const columns = Object.keys(row);
      await after.sql(
        `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(", ")})`,
        ...Object.values(row),
      );
    }
  }
});

afterAll(async () => {
  await before?.stop();
  await after?.stop();
  await mail.stop();
});

/** The same browser, talking to the new deploy. */
function browserAfterRotation(): StaffClient {
  const client = new StaffClient(after, staff.client.ip);
  client.cookie = staff.client.cookie;
  client.device = staff.client.device;
  client.accessToken = staff.client.accessToken;
  return client;
}

describe("a new JWT_SECRET", () => {
  it("stops every access token signed with the old one", async () => {
    expect((await staff.client.call("GET", "/api/leads")).status).toBe(200);
    const moved = browserAfterRotation();
    const refused = await moved.call("GET", "/api/leads");
    expect(refused.status).toBe(401);
  });

  it("keeps staff signed in: the refresh cookie gets a token the new secret signed", async () => {
    const moved = browserAfterRotation();
    const refreshed = await moved.refresh();
    expect(refreshed.status).toBe(200);
    expect(moved.accessToken).not.toBe(staff.client.accessToken);
    expect((await moved.call("GET", "/api/leads")).status).toBe(200);
    expect((await moved.session()).body).toMatchObject({ user: { email: staff.email } });
  });

  it("lets staff sign in with the same password", async () => {
    expect((await new StaffClient(after).login(staff.email, staff.password)).status).toBe(200);
  });
});
