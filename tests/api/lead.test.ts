import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { aLead, Browser, countLeads, LEAD_PATH, postLead, uniqueIp } from "../support/leads";

let app: App;

beforeAll(async () => {
  app = await spawnApp();
});

afterAll(async () => {
  await app?.stop();
});

type LeadRow = Record<string, string | number | null>;

async function leadByEmail(email: string): Promise<LeadRow | undefined> {
  const rows = await app.sql<LeadRow>("SELECT * FROM leads WHERE email = ?1", email);
  return rows[0];
}

describe("a visitor's lead", () => {
  it("keeps every field of its attribution, new click ids included, on the lead and its submission", async () => {
    const attribution = {
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "busca-marca",
      utm_term: "casa na serra",
      utm_content: "anuncio-2",
      gclid: "Cj0-g",
      gbraid: "0AAAA-gb",
      wbraid: "CjkK-wb",
      fbclid: "IwAR-fb",
      msclkid: "ms-123",
      ttclid: "E.C.P.tt",
      referrer: "https://www.google.com/",
      page_url: "https://site.example/?utm_source=google",
    };
    const lead = aLead(attribution);
    expect((await postLead(app, lead)).status).toBe(200);
    expect(await leadByEmail(String(lead.email))).toMatchObject(attribution);
    const [submission] = await app.sql("SELECT * FROM lead_submissions WHERE email = ?1", lead.email);
    expect(submission).toMatchObject(attribution);
  });

  it("is committed to D1 with normalised values before success is answered", async () => {
    const before = Date.now();
    const answer = await postLead(app, {
      name: "  Maria   da Silva ",
      email: "  Maria.Silva@Example.COM ",
      whatsapp: "(49) 98888-7777",
      utm_source: "instagram",
      utm_medium: "social",
      utm_campaign: "pre-lancamento",
      gclid: "g-123",
      referrer: "https://l.instagram.com/",
      page_url: "https://site.example/?utm_source=instagram",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect(answer.headers.get("cache-control")).toBe("no-store");

    const rows = await app.sql<LeadRow>("SELECT * FROM leads WHERE email = 'maria.silva@example.com'");
    expect(rows).toHaveLength(1);
    const row = rows[0] as LeadRow;
    expect(row).toMatchObject({
      name: "Maria da Silva",
      email: "maria.silva@example.com",
      whatsapp: "+5549988887777",
      origem: "instagram",
      jetimob_enviado: 0,
      delivery_status: "pending",
      utm_source: "instagram",
      utm_medium: "social",
      utm_campaign: "pre-lancamento",
      utm_term: null,
      gclid: "g-123",
      fbclid: null,
      referrer: "https://l.instagram.com/",
      page_url: "https://site.example/?utm_source=instagram",
      submission_count: 1,
    });
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(row.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Number(row.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("keeps quotes, HTML, SQL and emoji as plain text", async () => {
    const name = `<img src=x onerror=alert(1)> O'Brien"; DROP TABLE leads;-- 🍇`;
    const lead = aLead({ name });
    const before = await countLeads(app);
    expect((await postLead(app, lead)).status).toBe(200);
    const row = await leadByEmail(String(lead.email));
    expect(row?.name).toBe(name);
    expect(await countLeads(app)).toBe(before + 1);
  });

  it("takes its origin from origem, then utm_source, then the referrer's host, then 'site'", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ origem: "evento-vinicola", utm_source: "facebook" }, "evento-vinicola"],
      [{ utm_source: "facebook", referrer: "https://www.google.com/" }, "facebook"],
      [{ referrer: "https://www.google.com.br/search?q=condominio" }, "google.com.br"],
      [{}, "site"],
    ];
    for (const [extra, expected] of cases) {
      const lead = aLead(extra);
      expect((await postLead(app, lead)).status).toBe(200);
      expect((await leadByEmail(String(lead.email)))?.origem).toBe(expected);
    }
  });
});

describe("a submission that is refused", () => {
  const refusals: [string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, RegExp][] = [
    ["with every field empty", () => postLead(app, { name: " ", email: "", whatsapp: "" }), 422, /preencha todos/],
    ["with a field missing", () => postLead(app, { name: "Ana", email: "ana@example.com" }), 422, /preencha todos/],
    ["with a malformed e-mail", () => postLead(app, aLead({ email: "ana@example" })), 422, /Confira/],
    [
      "with a WhatsApp whose DDD does not exist",
      () => postLead(app, aLead({ whatsapp: "(23) 99999-8888" })),
      422,
      /Confira/,
    ],
    ["with a name over 120 characters", () => postLead(app, aLead({ name: "a".repeat(121) })), 422, /Confira/],
    ["with a field that is not text", () => postLead(app, aLead({ whatsapp: 49999998888 })), 422, /Confira/],
    ["whose body is not JSON", () => postLead(app, null, { raw: "name=Ana&email=x" }), 400, /JSON/],
    ["whose body is a JSON array", () => postLead(app, [aLead()]), 400, /JSON/],
    [
      "whose JSON is sent as text/plain (as another site's page can, without asking)",
      () => postLead(app, aLead(), { headers: { "Content-Type": "text/plain;charset=UTF-8" } }),
      415,
      /application\/json/,
    ],
    [
      "whose JSON comes with no Content-Type",
      () => postLead(app, aLead(), { headers: { "Content-Type": "" } }),
      415,
      /application\/json/,
    ],
    [
      "whose body is over 16 KiB",
      () => postLead(app, aLead({ utm_content: "x".repeat(17 * 1024) })),
      413,
      /grandes demais/,
    ],
    [
      "sent from another site",
      () => postLead(app, aLead(), { headers: { Origin: "https://evil.example" } }),
      403,
      /origem/,
    ],
  ];

  for (const [what, send, status, message] of refusals) {
    it(`${what} gets ${status} with a Portuguese message and stores nothing`, async () => {
      const before = await countLeads(app);
      const answer = await send();
      expect(answer.status).toBe(status);
      expect(answer.body.success).toBe(false);
      expect(String(answer.body.error)).toMatch(message);
      expect(await countLeads(app)).toBe(before);
    });
  }

  it("names the field to fix", async () => {
    const answer = await postLead(app, aLead({ email: "ana@example", whatsapp: "(20) 99999-8888" }));
    expect(answer.body.fields).toEqual({
      email: expect.stringMatching(/e-mail válido/),
      whatsapp: expect.stringMatching(/DDD inválido/),
    });
  });

  it("with the wrong method gets 405 and says which method is allowed", async () => {
    const answer = await postLead(app, null, { method: "GET" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(answer.body.success).toBe(false);
  });
});

describe("a plain form post, sent before the page's script ran", () => {
  async function postForm(fields: Record<string, string>, referer?: string) {
    return fetch(`${app.baseUrl}${LEAD_PATH}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "CF-Connecting-IP": uniqueIp(),
        Origin: app.baseUrl,
        ...(referer ? { Referer: referer } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  it("stores the lead and sends the browser to the thank-you page", async () => {
    const lead = aLead({ name: "Sem Script da Silva" }) as Record<string, string>;
    const response = await postForm(lead);
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${app.baseUrl}/obrigado`);
    expect((await leadByEmail(lead.email ?? ""))?.name).toBe("Sem Script da Silva");
  });

  it("keeps the campaign of the page it was posted from (its Referer), unless the form says otherwise", async () => {
    const page = `${app.baseUrl}/?utm_source=google&utm_medium=cpc&gclid=g-1&outro=x`;
    const lead = aLead() as Record<string, string>;
    expect((await postForm(lead, page)).status).toBe(303);
    expect(await leadByEmail(lead.email ?? "")).toMatchObject({
      origem: "google",
      utm_medium: "cpc",
      gclid: "g-1",
      page_url: page,
    });

    const told = aLead({ utm_source: "whatsapp" }) as Record<string, string>;
    expect((await postForm(told, page)).status).toBe(303);
    expect(await leadByEmail(told.email ?? "")).toMatchObject({ origem: "whatsapp", utm_medium: "cpc" });
  });

  it("keeps every click id of the page's address, Google's iOS ones (gbraid, wbraid), Microsoft's and TikTok's too", async () => {
    const page = `${app.baseUrl}/?utm_source=google&gbraid=gb-1&wbraid=wb-1&msclkid=ms-1&ttclid=tt-1`;
    const lead = aLead() as Record<string, string>;
    expect((await postForm(lead, page)).status).toBe(303);
    expect(await leadByEmail(lead.email ?? "")).toMatchObject({
      gbraid: "gb-1",
      wbraid: "wb-1",
      msclkid: "ms-1",
      ttclid: "tt-1",
      page_url: page,
    });
  });

  it("takes no campaign from another site's page", async () => {
    const lead = aLead() as Record<string, string>;
    expect((await postForm(lead, "https://outro.example/?utm_source=google")).status).toBe(303);
    expect(await leadByEmail(lead.email ?? "")).toMatchObject({ origem: "site", utm_source: null, page_url: null });
  });

  it("that is refused stores nothing and sends the browser to a page that says so", async () => {
    const before = await countLeads(app);
    const response = await postForm({ name: "Ana", email: "ana@example.com", whatsapp: "(23) 99999-8888" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`${app.baseUrl}/cadastro-nao-enviado?motivo=whatsapp`);
    expect(await countLeads(app)).toBe(before);
  });
});

describe("the same person submitting again", () => {
  it("by e-mail or by WhatsApp is the same lead: it takes the newest details, and every submission is kept", async () => {
    // From the person's own browser, which keeps the proof that it sent the lead.
    const browser = new Browser();
    const first = aLead();
    expect((await postLead(app, first, { browser })).status).toBe(200);
    const before = await countLeads(app);

    // The same e-mail (typed in capitals) with a new name and number...
    const second: Record<string, unknown> = { ...aLead(), email: String(first.email).toUpperCase() };
    expect(await postLead(app, second, { browser })).toMatchObject({ status: 200, body: { success: true } });
    // ...then that number, typed another way, with a new e-mail.
    const third: Record<string, unknown> = { ...aLead(), whatsapp: `+55 ${second.whatsapp}` };
    expect(await postLead(app, third, { browser })).toMatchObject({ status: 200, body: { success: true } });

    expect(await countLeads(app)).toBe(before);
    const row = await leadByEmail(String(third.email));
    expect(row).toMatchObject({ name: third.name, submission_count: 3 });
    expect(Number(row?.last_submitted_at)).toBeGreaterThan(Number(row?.created_at));
    const kept = await app.sql("SELECT email FROM lead_submissions WHERE lead_id = ?1 ORDER BY id", row?.id);
    expect(kept.map((s) => s.email)).toEqual([first.email, String(first.email).toLowerCase(), third.email]);
  });
});

describe("spam defence", () => {
  it("answers a bot that fills the honeypot with success and stores nothing", async () => {
    const before = await countLeads(app);
    const bot = aLead({ website: "https://spam.example" });
    const answer = await postLead(app, bot);
    expect(answer).toMatchObject({ status: 200, body: { success: true } });
    expect(await countLeads(app)).toBe(before);
    expect(await leadByEmail(String(bot.email))).toBeUndefined();
  });

  it("limits one IPv6 network (a /64: one home, one phone) to 10 submissions in 10 minutes, sent at once, with a 429 in Portuguese", async () => {
    const before = await countLeads(app);
    const leads = Array.from({ length: 13 }, () => aLead());
    // Thirteen addresses of one /64 (a phone changes its address, not its network).
    const answers = await Promise.all(leads.map((lead, i) => postLead(app, lead, { ip: `2001:db8:5:7::${i + 1}` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.headers.get("retry-after")).toBeTruthy();
    expect(String(refused[0]?.body.error)).toMatch(/Aguarde alguns minutos/);
    expect(await countLeads(app)).toBe(before + 10);

    expect((await postLead(app, aLead(), { ip: "2001:db8:5:8::1" })).status).toBe(200);
  });

  it("lets 30 submissions in 10 minutes through one IPv4 address, which a mobile carrier shares among many phones", async () => {
    const ip = uniqueIp();
    const before = await countLeads(app);
    const answers = await Promise.all(Array.from({ length: 33 }, () => postLead(app, aLead(), { ip })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    expect(await countLeads(app)).toBe(before + 30);

    expect((await postLead(app, aLead(), { ip: uniqueIp() })).status).toBe(200);
  });
});
