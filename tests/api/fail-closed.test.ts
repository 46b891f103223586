import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { eventually } from "../support/net";
import { StaffClient, staffEmail } from "../support/staff";

// A deployed worker missing a setting refuses what depends on it, and says
// why, instead of going on unsafely.
describe("without an e-mail API key (a deployed worker)", () => {
  let app: App;
  beforeAll(async () => {
    app = await spawnApp();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("refuses sign-up with a clear 503, stores nothing and logs no link", async () => {
    const email = staffEmail("semchave");
    const answer = await new StaffClient(app).signup(email, "vinho-tinto-2026");
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe(
      "O envio de e-mails deste site não está configurado. Fale com o responsável pelo painel.",
    );
    expect(await app.sql("SELECT id FROM staff_users WHERE email = ?1", email)).toEqual([]);
    expect(app.logs()).not.toMatch(/confirmar=/);
  });

  it("refuses password reset the same way", async () => {
    const answer = await new StaffClient(app).requestReset(staffEmail());
    expect(answer.status).toBe(503);
    expect(await app.sql("SELECT token_hash FROM password_resets")).toEqual([]);
  });
});

describe("with MAIL_LOG_ONLY (make dev)", () => {
  let app: App;
  beforeAll(async () => {
    app = await spawnApp({ vars: { MAIL_LOG_ONLY: "true" } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("writes the e-mail, link included, to the worker's log", async () => {
    const email = staffEmail("local");
    expect((await new StaffClient(app).signup(email, "vinho-tinto-2026")).status).toBe(200);
    await eventually(async () => app.logs().includes(`To: ${email}`));
    expect(app.logs()).toMatch(/\/auth\?confirmar=[\w-]{43}/);
  });
});

describe("with a JWT_SECRET shorter than 32 bytes", () => {
  let app: App;
  beforeAll(async () => {
    app = await spawnApp({ vars: { JWT_SECRET: "replace-me", MAIL_LOG_ONLY: "true" } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("stops every staff call with a 500 and says why in the log", async () => {
    const client = new StaffClient(app);
    for (const answer of [
      await client.signup(staffEmail(), "vinho-tinto-2026"),
      await client.login(staffEmail(), "vinho-tinto-2026"),
      await client.refresh(),
      await client.call("GET", "/api/leads", undefined, { Authorization: "Bearer x.y.z" }),
    ]) {
      expect(answer.status).toBe(500);
      expect(answer.body.error).toBe("Erro interno. Tente novamente em instantes.");
    }
    expect(app.logs()).toMatch(/JWT_SECRET must be at least 32 bytes/);
  });
});
