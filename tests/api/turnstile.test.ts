import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { FakeTurnstile, SITE_SECRET, solvedToken, TURNSTILE_TEST } from "../support/fake-turnstile";
import { aLead, countLeads, postLead } from "../support/leads";
import { repoRoot } from "../support/paths";
import { StaffClient, staffEmail } from "../support/staff";

// The worker's texts, as the visitor reads them (worker/src/agency/messages.rs).
const MISSING = "Aguarde a verificação de segurança terminar e envie novamente.";
const REFUSED = "A verificação de segurança falhou ou expirou. Tente enviar novamente.";
const CHALLENGES = "https://challenges.cloudflare.com";

/** The landing's own inline style and loader, which its policy names by hash (the build's csp-hashes.json). */
function landingHashes(kind: "style" | "script"): string {
  const hashes = JSON.parse(readFileSync(join(repoRoot, "pages/dist/csp-hashes.json"), "utf8"))["/"][kind];
  return (hashes as string[]).map((h) => ` '${h}'`).join("");
}

const turnstile = new FakeTurnstile();
const mail = new FakeMail();

beforeAll(async () => {
  await Promise.all([turnstile.start(), mail.start()]);
});

afterAll(async () => {
  await Promise.all([turnstile.stop(), mail.stop()]);
});

/** A site with Turnstile on, verifying through the fake with `secret`. */
function siteWithSecret(secret: string): () => App {
  let app: App;
  beforeAll(async () => {
    app = await spawnApp({
      vars: {
        TURNSTILE_SITE_KEY: TURNSTILE_TEST.siteKey,
        TURNSTILE_SECRET_KEY: secret,
        TURNSTILE_VERIFY_URL: turnstile.verifyUrl,
        ...mail.settings(),
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });
  return () => app;
}

async function config(app: App): Promise<Record<string, unknown>> {
  const response = await fetch(`${app.baseUrl}/api/config`);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as Record<string, unknown>;
}

async function csp(app: App): Promise<string> {
  return (await fetch(`${app.baseUrl}/`)).headers.get("content-security-policy") ?? "";
}

function directive(policy: string, name: string): string {
  return (
    policy
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.split(" ")[0] === name) ?? ""
  );
}

async function userCount(app: App, email: string): Promise<number> {
  const [row] = await app.sql<{ n: number }>("SELECT count(*) AS n FROM staff_users WHERE email = ?1", email);
  return row?.n ?? -1;
}

describe("Turnstile off (the default)", () => {
  let app: App;
  beforeAll(async () => {
    app = await spawnApp({ vars: { TURNSTILE_VERIFY_URL: turnstile.verifyUrl } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("gives the pages no site key and keeps the challenges origin out of the CSP", async () => {
    expect(await config(app)).toEqual({ success: true, turnstile_site_key: null });
    const policy = await csp(app);
    expect(policy).not.toContain(CHALLENGES);
    expect(directive(policy, "frame-src")).toBe("frame-src 'none'");
  });

  it("takes a lead without a token and asks the verification nothing", async () => {
    turnstile.clear();
    const before = await countLeads(app);
    const answer = await postLead(app, aLead());
    expect(answer.status).toBe(200);
    expect(await countLeads(app)).toBe(before + 1);
    expect(turnstile.verifications()).toEqual([]);
  });
});

describe("Turnstile on, with a site's own secret", () => {
  const app = siteWithSecret(SITE_SECRET);

  it("takes a lead whose token was solved on this site for the lead form", async () => {
    const lead = aLead({ turnstile_token: solvedToken("127.0.0.1", "lead") });
    expect((await postLead(app(), lead)).status).toBe(200);
    expect(await app().sql("SELECT id FROM leads WHERE email = ?1", lead.email)).toHaveLength(1);
  });

  it("refuses a valid token solved on another site, or for the sign-up form, and stores nothing", async () => {
    const before = await countLeads(app());
    for (const token of [solvedToken("evil.example", "lead"), solvedToken("127.0.0.1", "signup")]) {
      const answer = await postLead(app(), aLead({ turnstile_token: token }));
      expect(answer.status, token).toBe(422);
      expect(answer.body).toEqual({ success: false, error: REFUSED, fields: { turnstile_token: REFUSED } });
    }
    expect(await countLeads(app())).toBe(before);
    expect(app().logs()).toContain('a token refused: solved on Some("evil.example") for Some("lead")');
  });

  it("refuses a staff sign-up whose token was solved for the lead form", async () => {
    const email = staffEmail("troca.de.formulario");
    const answer = await new StaffClient(app()).call("POST", "/api/auth/signup", {
      email,
      password: "senha-forte-2026",
      turnstile_token: solvedToken("127.0.0.1", "lead"),
    });
    expect(answer.status).toBe(422);
    expect(await userCount(app(), email)).toBe(0);
    const right = await new StaffClient(app()).call("POST", "/api/auth/signup", {
      email,
      password: "senha-forte-2026",
      turnstile_token: solvedToken("127.0.0.1", "signup"),
    });
    expect(right.status).toBe(200);
  });
});

describe("Turnstile on, with the test secret that always passes", () => {
  const app = siteWithSecret(TURNSTILE_TEST.passingSecret);

  it("gives the pages the site key and lets the challenges origin into the CSP, only where needed", async () => {
    expect(await config(app())).toEqual({ success: true, turnstile_site_key: TURNSTILE_TEST.siteKey });
    const policy = await csp(app());
    expect(directive(policy, "script-src")).toBe(`script-src 'self' ${CHALLENGES}${landingHashes("script")}`);
    expect(directive(policy, "frame-src")).toBe(`frame-src ${CHALLENGES}`);
    expect(directive(policy, "connect-src")).toBe(`connect-src 'self' ${CHALLENGES}`);
    expect(directive(policy, "style-src")).toBe(`style-src 'self'${landingHashes("style")}`);
  });

  it("verifies the lead's token with the secret and the visitor's address, then stores the lead", async () => {
    turnstile.clear();
    const lead = aLead({ turnstile_token: TURNSTILE_TEST.dummyToken });
    const answer = await postLead(app(), lead, { ip: "203.0.113.77" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect(turnstile.verifications()).toEqual([
      {
        secret: TURNSTILE_TEST.passingSecret,
        response: TURNSTILE_TEST.dummyToken,
        remoteip: "203.0.113.77",
        contentType: "application/x-www-form-urlencoded",
      },
    ]);
    const rows = await app().sql("SELECT id FROM leads WHERE email = ?1", lead.email);
    expect(rows).toHaveLength(1);
  });

  it("refuses a lead without a token in Portuguese, stores nothing and asks the verification nothing", async () => {
    turnstile.clear();
    const before = await countLeads(app());
    for (const token of [undefined, "", "   "]) {
      const answer = await postLead(app(), aLead(token === undefined ? {} : { turnstile_token: token }));
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ success: false, error: MISSING, fields: { turnstile_token: MISSING } });
    }
    expect(await countLeads(app())).toBe(before);
    expect(turnstile.verifications()).toEqual([]);
  });

  it("checks the fields first, so a lead with a bad field does not spend its token", async () => {
    turnstile.clear();
    const answer = await postLead(app(), aLead({ whatsapp: "123", turnstile_token: TURNSTILE_TEST.dummyToken }));
    expect(answer.status).toBe(422);
    expect(answer.body.fields).toHaveProperty("whatsapp");
    expect(turnstile.verifications()).toEqual([]);
  });

  it("refuses a sign-up without a token: no account, no e-mail", async () => {
    mail.clear();
    const email = staffEmail();
    const answer = await new StaffClient(app()).signup(email, "vinho-tinto-2026");
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe(MISSING);
    expect(await userCount(app(), email)).toBe(0);
    expect(mail.messages()).toEqual([]);
  });

  it("lets a sign-up with a valid token through to the confirmation e-mail", async () => {
    mail.clear();
    turnstile.clear();
    const email = staffEmail();
    const answer = await new StaffClient(app()).call("POST", "/api/auth/signup", {
      email,
      password: "vinho-tinto-2026",
      turnstile_token: TURNSTILE_TEST.dummyToken,
    });
    expect(answer.status).toBe(200);
    expect(turnstile.verifications()).toHaveLength(1);
    expect(mail.messages().map((m) => m.to)).toEqual([[email]]);
  });
});

describe("Turnstile on, with the test secret that always fails", () => {
  const app = siteWithSecret(TURNSTILE_TEST.failingSecret);

  it("refuses the lead after asking the verification, and stores nothing", async () => {
    turnstile.clear();
    const before = await countLeads(app());
    const answer = await postLead(app(), aLead({ turnstile_token: TURNSTILE_TEST.dummyToken }));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ success: false, error: REFUSED, fields: { turnstile_token: REFUSED } });
    expect(turnstile.verifications()).toHaveLength(1);
    expect(await countLeads(app())).toBe(before);
  });

  it("refuses the sign-up: no account, no e-mail", async () => {
    mail.clear();
    const email = staffEmail();
    const answer = await new StaffClient(app()).call("POST", "/api/auth/signup", {
      email,
      password: "vinho-tinto-2026",
      turnstile_token: TURNSTILE_TEST.dummyToken,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe(REFUSED);
    expect(await userCount(app(), email)).toBe(0);
    expect(mail.messages()).toEqual([]);
  });
});

describe("Turnstile on, with the test secret whose tokens are already spent", () => {
  const app = siteWithSecret(TURNSTILE_TEST.spentSecret);

  it("refuses a spent token with the same message, and stores nothing", async () => {
    const before = await countLeads(app());
    const answer = await postLead(app(), aLead({ turnstile_token: TURNSTILE_TEST.dummyToken }));
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe(REFUSED);
    expect(await countLeads(app())).toBe(before);
  });

  it("answers 502 in Portuguese when the verification cannot be reached, and stores nothing", async () => {
    const down = await spawnApp({
      vars: {
        TURNSTILE_SITE_KEY: TURNSTILE_TEST.siteKey,
        TURNSTILE_SECRET_KEY: TURNSTILE_TEST.passingSecret,
        TURNSTILE_VERIFY_URL: "http://127.0.0.1:9/siteverify",
      },
    });
    try {
      const answer = await postLead(down, aLead({ turnstile_token: TURNSTILE_TEST.dummyToken }));
      expect(answer.status).toBe(502);
      expect(answer.body.error).toBe(
        "Não foi possível concluir a verificação de segurança. Tente novamente em instantes.",
      );
      expect(await countLeads(down)).toBe(0);
    } finally {
      await down.stop();
    }
  });
});
