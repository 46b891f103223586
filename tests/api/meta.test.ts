import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeJetimob } from "../support/fake-jetimob";
import { FakeMail } from "../support/fake-mail";
import { FakeMeta, GRAPH_VERSION } from "../support/fake-meta";
import { aLead, Browser, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { type StaffClient, signedInStaff } from "../support/staff";

// Each new lead is one 'Lead' event to Meta's Conversions API, from the
// server: the real worker's client against a fake Graph API that refuses
// what Meta refuses. The hashes are checked against vectors computed apart
// (Python's hashlib), not against the worker's own code.
let app: App;
let staff: StaffClient;
const meta = new FakeMeta();
const mail = new FakeMail();
const jetimob = new FakeJetimob();

beforeAll(async () => {
  await Promise.all([meta.start(), mail.start(), jetimob.start()]);
  app = await spawnApp({
    vars: { ...meta.settings(), ...mail.settings(), ...jetimob.settings(), SITE_ORIGIN: "https://recanto.example" },
  });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([meta.stop(), mail.stop(), jetimob.stop()]);
});

type Delivery = { status: string; attempts: number; last_error: string | null; sent_at: number | null };

async function leadId(email: string): Promise<string> {
  const [row] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE email = ?1", email);
  if (!row) throw new Error(`no lead ${email}`);
  return row.id;
}

async function delivery(id: string): Promise<Delivery | undefined> {
  const [row] = await app.sql<Delivery>(
    "SELECT status, attempts, last_error, sent_at FROM deliveries WHERE lead_id = ?1 AND destination = 'meta'",
    id,
  );
  return row;
}

/** A lead sent now; its id once its first attempt to Meta had its turn (unless Meta is paused: `tried: false`). */
async function newLead(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}, tried = true) {
  const lead = aLead(extra);
  const answer = await postLead(app, lead, { headers });
  expect(answer.status).toBe(200);
  const id = await leadId(String(lead.email).trim().toLowerCase());
  // Tried, and what came of it recorded (the claim's lease let go).
  if (tried) {
    await eventually(async () => {
      const [row] = await app.sql<{ done: number }>(
        "SELECT attempts > 0 AND lease_until IS NULL AS done FROM deliveries WHERE lead_id = ?1",
        id,
      );
      return row?.done === 1;
    });
  }
  return { lead, id };
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("a new lead", () => {
  it("is one Lead event, its fields normalised and hashed as Meta says, fbc from its fbclid, the visitor's address and browser", async () => {
    meta.clear();
    const { lead, id } = await newLead(
      {
        name: "  Ana Luísa   Sá ",
        email: "  Ana.Souza@Example.COM ",
        whatsapp: "(49) 99876-5432",
        fbclid: "IwAR3-xYz_ABC",
        page_url: "https://recanto.example/?utm_source=facebook&fbclid=IwAR3-xYz_ABC",
      },
      { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Mobile/15E148", "CF-Connecting-IP": "203.0.113.50" },
    );
    await eventually(async () => (await delivery(id))?.status === "sent");
    expect(meta.requests).toHaveLength(1);
    const [request] = meta.requests;
    expect(request?.path).toBe(`/${GRAPH_VERSION}/${meta.pixel}/events`);
    expect(request?.accessToken).toBe(meta.token);
    expect(request?.contentType).toMatch(/^application\/json/);
    const [created] = await app.sql<{ created_at: number }>("SELECT created_at FROM leads WHERE id = ?1", id);
    expect(request?.events).toEqual([
      {
        event_name: "Lead",
        event_time: Math.floor(Number(created?.created_at) / 1000),
        event_id: id,
        action_source: "website",
        event_source_url: lead.page_url,
        user_data: {
          em: ["7fd726011aa08d90d14a923ea0e5e3edf63bfe14b51ee6f6429483118d197c9b"],
          ph: ["39b707f98bbe697edd6f857d1618b23d7bc67dd12581d89d2a52ac97e83c8f89"],
          fn: "24d4b96f58da6d4a8512313bbd02a28ebf0ca95dec6e4c86ef78ce7f01e788ac",
          ln: "def05d1a7b6b267499334cfd83c31595e709be30bb17a71324ca4fedb93fb721",
          country: "885036a0da3dff3c3e05bc79bf49382b12bc5098514ed57ce0875aba1aa2c40d",
          external_id: sha256(id),
          fbc: `fb.1.${created?.created_at}.IwAR3-xYz_ABC`,
          client_ip_address: "203.0.113.50",
          client_user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Mobile/15E148",
        },
      },
    ]);
    // Neither the address nor the browser is kept anywhere.
    const stored = JSON.stringify(await app.sql("SELECT * FROM leads WHERE id = ?1", id));
    expect(stored).not.toContain("203.0.113.50");
    expect(stored).not.toContain("15E148");
  });

  it("goes once, under four cron runs at once after a failed first attempt, and a retry keeps its event id", async () => {
    meta.clear();
    meta.answerEveryone(() => ({ status: 503, body: "" }));
    const leads = await Promise.all(Array.from({ length: 5 }, () => newLead()));
    meta.answerEveryone(null);
    await app.sql("UPDATE deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
    await Promise.all([app.runCron(), app.runCron(), app.runCron(), app.runCron()]);
    for (const { id } of leads) {
      expect((await delivery(id))?.status).toBe("sent");
      // The failed first attempt and the one that went: one event id, taken once.
      const taken = meta.requests.filter((r) => r.events.some((e) => e.event_id === id));
      expect(taken.map((r) => r.events.filter((e) => e.event_id === id).length)).toEqual([1, 1]);
    }
    // The retry is the cron's: no address or browser at hand any more.
    const retried = meta.requests.at(-1)?.events[0];
    expect(retried?.user_data.client_ip_address).toBeUndefined();
    expect(retried?.user_data.client_user_agent).toBeUndefined();
  });
});

describe("no event", () => {
  it("for a repeat or a correction of a lead", async () => {
    const browser = new Browser();
    const lead = aLead();
    expect((await postLead(app, lead, { browser })).status).toBe(200);
    const id = await leadId(String(lead.email));
    await eventually(async () => (await delivery(id))?.status === "sent");
    meta.clear();
    expect((await postLead(app, lead, { browser })).status).toBe(200);
    expect((await postLead(app, { ...lead, name: "Nome Corrigido" }, { browser })).status).toBe(200);
    await app.runCron();
    expect(meta.eventsFor(id)).toEqual([]);
    expect(await app.sql("SELECT count(*) AS n FROM deliveries WHERE lead_id = ?1", id)).toEqual([{ n: 1 }]);
  });

  it("for a lead deleted while it waits: what waited is cancelled", async () => {
    meta.answerEveryone(() => ({ status: 500, body: { error: { message: "Temporary", code: 2 } } }));
    const { id } = await newLead();
    meta.answerEveryone(null);
    meta.clear();
    expect((await staff.call("DELETE", `/api/leads/${id}`)).status).toBe(200);
    await app.sql("UPDATE deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    expect(meta.eventsFor(id)).toEqual([]);
    expect(await delivery(id)).toBeUndefined();
  });

  it("older than 7 days: it is marked 'expirado' and never sent, and the others still go", async () => {
    meta.answerEveryone(() => ({ status: 503, body: "" }));
    const { id: old } = await newLead();
    const { id: fresh } = await newLead();
    meta.answerEveryone(null);
    meta.clear();
    // Its lead (and its event) a week old: Meta refuses a whole request that carries one.
    const week = 7 * 24 * 3_600_000;
    await app.sql("UPDATE leads SET created_at = created_at - ?2 WHERE id = ?1", old, week);
    await app.sql("UPDATE deliveries SET event_at = event_at - ?2 WHERE lead_id = ?1", old, week);
    await app.sql("UPDATE deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    expect(await delivery(old)).toMatchObject({ status: "expired", last_error: expect.stringMatching(/7 dias/) });
    expect(meta.eventsFor(old)).toEqual([]);
    expect((await delivery(fresh))?.status).toBe("sent");
  });
});

describe("Meta refusing our token (error 190)", () => {
  it("is an incident (banner, owners' e-mail, webhook-ready) that clears once a lead goes through", async () => {
    meta.clear();
    const goodToken = meta.token;
    meta.token = "outro-token";
    const { id } = await newLead();
    await eventually(async () => (await delivery(id))?.last_error?.includes("190") ?? false);
    expect((await delivery(id))?.status).toBe("pending");
    expect((await delivery(id))?.last_error).toMatch(/código 190/);
    expect((await delivery(id))?.last_error).not.toContain(goodToken);
    await app.runCron();
    const banner = (await staff.call("GET", "/api/leads")).body.incident as { summary: string } | null;
    expect(banner?.summary).toMatch(/^Os leads não estão chegando ao Meta desde/);
    await eventually(async () =>
      mail
        .messages()
        .some((m) => m.subject === "Os leads não estão chegando ao Meta" && m.text.includes("META_ACCESS_TOKEN")),
    );

    // The owner fixes the token: the next lead goes, and the incident ends.
    meta.token = goodToken;
    const { id: next } = await newLead();
    await eventually(async () => (await delivery(next))?.status === "sent");
    await app.sql("UPDATE deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    expect((await delivery(id))?.status).toBe("sent");
    expect((await staff.call("GET", "/api/leads")).body.incident).toBeNull();
  });
});

describe("the lead's page", () => {
  it("says it reached Meta, and offers 'Reenviar' to Meta for one that failed", async () => {
    const { id } = await newLead();
    await eventually(async () => (await delivery(id))?.status === "sent");
    const page = await staff.call("GET", `/api/leads/${id}`);
    expect(page.body).toMatchObject({
      meta_configured: true,
      deliveries: [{ destination: "meta", status: "sent", attempts: 1, last_error: null, can_resend: false }],
    });

    meta.answerEveryone(() => ({ status: 400, body: { error: { message: "Invalid parameter", code: 100 } } }));
    const { id: refused } = await newLead();
    await eventually(async () => (await delivery(refused))?.status === "failed");
    meta.answerEveryone(null);
    const resent = await staff.call("POST", `/api/leads/${refused}/resend/meta`, {});
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ delivered: true });
    expect((await delivery(refused))?.status).toBe("sent");
    const [audit] = await app.sql<{ action: string; detail: string }>(
      "SELECT action, detail FROM audit_log WHERE lead_id = ?1",
      refused,
    );
    expect(audit).toEqual({ action: "resend", detail: JSON.stringify({ destino: "meta" }) });
    expect((await staff.call("POST", `/api/leads/${refused}/resend/meta`, {})).status).toBe(409);
  });
});

describe("'Campanhas'", () => {
  type Line = { campaign: string; leads: number; meta_sent: number };
  const lineOf = async (campaign: string) => {
    const answer = await staff.call("GET", "/api/campaigns");
    expect(answer.status).toBe(200);
    return {
      ads: answer.body.ads,
      line: (answer.body.rows as Line[]).find((r) => r.campaign === campaign),
    };
  };

  it("counts the leads Meta took beside the leads of each campaign, by day and week, and forgets a deleted one", async () => {
    const campaign = `meta-${Date.now()}`;
    const { id: taken } = await newLead({ utm_source: "instagram", utm_campaign: campaign });
    await eventually(async () => (await delivery(taken))?.status === "sent");
    meta.answerEveryone(() => ({ status: 400, body: { error: { message: "Invalid parameter", code: 100 } } }));
    const { id: refused } = await newLead({ utm_source: "instagram", utm_campaign: campaign });
    await eventually(async () => (await delivery(refused))?.status === "failed");
    meta.answerEveryone(null);

    const { ads, line } = await lineOf(campaign);
    expect(ads).toEqual({ meta: true, google_ads: null });
    expect(line).toMatchObject({ leads: 2, meta_sent: 1 });
    // The weekly sums a longer period reads agree with the days.
    const [week] = await app.sql<{ meta_sent: number }>(
      "SELECT sum(meta_sent) AS meta_sent FROM campaign_weekly WHERE campaign = ?1",
      campaign,
    );
    expect(week?.meta_sent).toBe(1);
    const csv = await fetch(`${app.baseUrl}/api/campaigns/export.csv`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    const header = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n")[0];
    expect(header).toContain(";Possíveis duplicados;Enviados ao Meta;");

    expect((await staff.call("DELETE", `/api/leads/${taken}`)).status).toBe(200);
    expect((await lineOf(campaign)).line).toMatchObject({ leads: 1, meta_sent: 0 });
  });
});

describe("Meta asking to slow down (429)", () => {
  it("gets nothing more until its Retry-After, then the rest", async () => {
    meta.clear();
    meta.answerEveryone(() => ({ status: 429, body: {}, headers: { "Retry-After": "30" } }));
    const { id } = await newLead();
    meta.answerEveryone(null);
    const tried = meta.requests.length;
    const { id: next } = await newLead({}, {}, false);
    await app.runCron();
    expect(meta.requests).toHaveLength(tried);
    expect(meta.eventsFor(next)).toEqual([]);
    await app.sql("UPDATE cron_state SET value = value - 31000 WHERE name = 'paused_until:meta'");
    await app.sql("UPDATE deliveries SET next_attempt_at = 0 WHERE status = 'pending'");
    await app.runCron();
    expect((await delivery(id))?.status).toBe("sent");
    expect((await delivery(next))?.status).toBe("sent");
  });
});

describe("with ADS_CONSENT=checkbox", () => {
  let consenting: App;
  beforeAll(async () => {
    consenting = await spawnApp({ vars: { ...meta.settings(), ADS_CONSENT: "checkbox" } });
  });
  afterAll(async () => {
    await consenting?.stop();
  });

  async function owes(email: string): Promise<unknown[]> {
    return consenting.sql(
      "SELECT d.destination FROM deliveries d JOIN leads l ON l.id = d.lead_id WHERE l.email = ?1",
      email,
    );
  }

  it("sends only the leads who ticked the box, from the page's script or a plain form post", async () => {
    const ticked = aLead({ ads_consent: true });
    const unticked = aLead();
    const refused = aLead({ ads_consent: false });
    for (const lead of [ticked, unticked, refused]) expect((await postLead(consenting, lead)).status).toBe(200);
    const form = aLead() as Record<string, string>;
    const posted = await fetch(`${consenting.baseUrl}/functions/v1/send-lead-jetimob`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: consenting.baseUrl },
      body: new URLSearchParams({ ...form, ads_consent: "on" }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(await owes(String(ticked.email))).toEqual([{ destination: "meta" }]);
    expect(await owes(String(form.email))).toEqual([{ destination: "meta" }]);
    expect(await owes(String(unticked.email))).toEqual([]);
    expect(await owes(String(refused.email))).toEqual([]);
    expect(
      await consenting.sql(
        "SELECT email, ads_consent FROM leads WHERE email IN (?1, ?2) ORDER BY ads_consent",
        unticked.email,
        ticked.email,
      ),
    ).toEqual([
      { email: unticked.email, ads_consent: 0 },
      { email: ticked.email, ads_consent: 1 },
    ]);
  });
});
