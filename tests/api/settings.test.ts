import { afterEach, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead } from "../support/leads";
import { StaffClient, staffEmail } from "../support/staff";

// A secret pasted into `wrangler secret put` with a line break inside it
// cannot go in a request header: the runtime refuses the header. That is a
// failure of the service that key is for, told as such, and it stops
// nothing else.

let app: App | undefined;
let mail: FakeMail | undefined;
let jetimob: FakeJetimob | undefined;

afterEach(async () => {
  await app?.stop();
  await mail?.stop();
  await jetimob?.stop();
  app = mail = jetimob = undefined;
});

describe("a secret with a line break inside", () => {
  it("MAIL_API_KEY: sign-up answers that the e-mail could not be sent, and /api/health says e-mail is failing", async () => {
    mail = await new FakeMail().start();
    app = await spawnApp({ vars: { ...mail.settings(), MAIL_API_KEY: "re_chave\ncolada" } });
    const answer = await new StaffClient(app).signup(staffEmail("quebra"), "vinho-tinto-2026");
    expect(answer).toMatchObject({
      status: 502,
      body: {
        success: false,
        error: "Não foi possível enviar o e-mail de confirmação. Tente novamente em instantes.",
      },
    });
    expect(mail.messages()).toEqual([]);
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "degraded", reason: "mail failing" });
    expect(app.logs()).not.toContain("colada");
  });

  it("JETIMOB_PRIVATE_KEY: each delivery is a failed attempt that says why, and the cron goes on to its watch", async () => {
    jetimob = await new FakeJetimob().start();
    app = await spawnApp({ vars: { ...jetimob.settings(), JETIMOB_PRIVATE_KEY: "priv\nada" } });
    const lead = aLead();
    expect((await postLead(app, lead)).status).toBe(200);
    await app.runCron();
    const [row] = await app.sql<{ delivery_status: string; last_error: string | null; attempts: number }>(
      "SELECT delivery_status, last_error, delivery_attempts AS attempts FROM leads WHERE email = ?1",
      lead.email,
    );
    expect(row?.delivery_status).toBe("pending");
    expect(row?.attempts).toBeGreaterThanOrEqual(1);
    expect(row?.last_error).toContain("Authorization-Key");
    expect(row?.last_error).not.toContain("ada");
    expect(jetimob.callsFor(String(lead.email))).toEqual([]);
    const [watched] = await app.sql<{ value: number }>(
      "SELECT value FROM cron_state WHERE name = 'delivery_watched_at'",
    );
    expect(watched?.value).toBeGreaterThan(0);
  });
});
