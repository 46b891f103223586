import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead } from "../support/leads";
import { eventually } from "../support/net";
import { insertLeads } from "../support/seed";
import { type StaffClient, signedInStaff } from "../support/staff";
import { afterTheCountsBefore as afterTheMarkerVisit, CHROME, visit as visitPage } from "../support/visits";

// 'Campanhas': visits counted as the pages are served, leads counted per
// Brasília day and campaign, and the report that sets the two side by side.

let app: App;
let staff: StaffClient;
const mail = new FakeMail();

const DAY = 86_400_000;
/** Brasília is UTC−3 all year. */
const BRT = -3 * 3_600_000;

/** The Brasília calendar day of `ms`, `yyyy-MM-dd`. */
const dayOf = (ms: number) => new Date(ms + BRT).toISOString().slice(0, 10);
/** The first moment of a Brasília day, in ms. */
const startOf = (day: string) => Date.parse(`${day}T00:00:00-03:00`);
const today = dayOf(Date.now());
const daysAgo = (n: number) => dayOf(startOf(today) + 12 * 3_600_000 - n * DAY);

type Line = {
  source: string;
  campaign: string;
  content: string;
  visits: number;
  leads: number;
  delivered: number;
  duplicates: number;
};
type Report = {
  period: { from: string; to: string; today: string; first_day: string | null };
  totals: Omit<Line, "source" | "campaign" | "content">;
  days: { day: string; visits: number; leads: Record<string, number> }[];
  sources: string[];
  rows: Line[];
  ads: { meta: boolean; google_ads: unknown };
};

/** Opens `path` on this file's site as a person's browser opens a page. */
function visit(path: string, headers: Record<string, string> = {}, method = "GET") {
  return visitPage(app, path, headers, method);
}

/** Visits counted today under `campaign` (any source, any ad). */
async function countedToday(campaign: string): Promise<number> {
  const [row] = await app.sql<{ n: number | null }>(
    "SELECT sum(n) AS n FROM visit_counts WHERE day = ?1 AND campaign = ?2",
    today,
    campaign,
  );
  return row?.n ?? 0;
}

/**
 * The marker visit counted: the counts of every answer before it had their
 * turn. (The first test makes its key, long before the flood at the end
 * reaches the day's limit of keys.)
 */
function afterTheCountsBefore(): Promise<void> {
  return afterTheMarkerVisit(app);
}

async function report(query = ""): Promise<Report> {
  const answer = await staff.call("GET", `/api/campaigns${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Report;
}

beforeAll(async () => {
  await mail.start();
  app = await spawnApp({ vars: mail.settings() });
  staff = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await mail.stop();
});

describe("visits", () => {
  it("from many parallel arrivals are all counted, none lost and none twice", async () => {
    const same = Array.from({ length: 30 }, () => visit("/?utm_source=instagram&utm_campaign=paralela"));
    const distinct = Array.from({ length: 15 }, (_, i) =>
      visit(`/?utm_source=instagram&utm_campaign=paralela-distinta&utm_content=anuncio-${i}`),
    );
    for (const r of await Promise.all([...same, ...distinct])) expect(r.status).toBe(200);
    await afterTheCountsBefore();
    await eventually(async () => (await countedToday("paralela")) >= 30);
    expect(await countedToday("paralela")).toBe(30);
    const ads = await app.sql<{ content: string; n: number }>(
      "SELECT content, n FROM visit_counts WHERE day = ?1 AND campaign = 'paralela-distinta' ORDER BY content",
      today,
    );
    expect(ads).toHaveLength(15);
    expect(ads.every((a) => a.n === 1)).toBe(true);
  });

  it("are not counted for robots, link previews, prefetches, HEAD, other pages or moves within the site", async () => {
    const campaign = `nao-conta-${Date.now()}`;
    const path = `/?utm_source=teste&utm_campaign=${campaign}`;
    const answers = await Promise.all([
      visit(path, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }),
      visit(path, { "User-Agent": "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)" }),
      visit(path, { "User-Agent": "WhatsApp/2.23.20.0 A" }),
      visit(path, { "User-Agent": "curl/8.5.0" }),
      visit(path, { "Sec-Purpose": "prefetch;prerender" }),
      visit(path, { "Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors" }),
      visit(path, {}, "HEAD"),
      visit(`/obrigado?utm_source=teste&utm_campaign=${campaign}`),
      visit(path, { Referer: `${app.baseUrl}/privacidade` }),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    await afterTheCountsBefore();
    expect(await countedToday(campaign)).toBe(0);
  });

  it("without UTM count under where they came from: WhatsApp, Instagram's browser, Google, or direct", async () => {
    const before = async (source: string) => {
      const [row] = await app.sql<{ n: number | null }>(
        "SELECT sum(n) AS n FROM visit_counts WHERE day = ?1 AND source = ?2 AND campaign = ''",
        today,
        source,
      );
      return row?.n ?? 0;
    };
    const sources = ["WhatsApp", "Instagram", "Google", "Direto"];
    const counts = await Promise.all(sources.map(before));
    await Promise.all([
      visit("/", { Referer: "android-app://com.whatsapp/" }),
      visit("/", { "User-Agent": `${CHROME} Instagram 312.0.0.21.109` }),
      visit("/", { Referer: "https://www.google.com.br/" }),
      visit("/"),
    ]);
    await afterTheCountsBefore();
    expect(await Promise.all(sources.map(before))).toEqual(counts.map((n) => n + 1));
  });

  it("keep no personal data: the counter's columns are the day, the report's line and a count", async () => {
    const ip = "203.0.113.77";
    const agent = `${CHROME} Marcador/9.9`;
    await visit("/?utm_source=privacidade&utm_campaign=lgpd", { "CF-Connecting-IP": ip, "User-Agent": agent });
    await afterTheCountsBefore();
    const columns = await app.sql<{ name: string }>("SELECT name FROM pragma_table_info('visit_counts')");
    expect(columns.map((c) => c.name)).toEqual(["day", "source", "campaign", "content", "n"]);
    const rows = JSON.stringify(await app.sql("SELECT * FROM visit_counts"));
    expect(rows).toContain("lgpd");
    expect(rows).not.toContain(ip);
    expect(rows).not.toContain("Marcador");
  });

  it("never fail or delay the page, and the landing stays the same file", async () => {
    const plain = await (await fetch(`${app.baseUrl}/`)).text();
    const counted = (await visit("/?utm_source=instagram&utm_campaign=mesma-pagina")).body;
    expect(counted).toBe(plain);
  });
});

describe("the report", () => {
  const campaign = (day: string, n: number) => ({ day, n });
  /** Visits of earlier days, as the counter holds them. */
  const seededVisits = [
    { ...campaign(daysAgo(3), 40), source: "Instagram", campaign: "verao", content: "video-1" },
    { ...campaign(daysAgo(2), 25), source: "Instagram", campaign: "verao", content: "carrossel" },
    { ...campaign(daysAgo(2), 60), source: "Google", campaign: "busca", content: "" },
    { ...campaign(daysAgo(1), 10), source: "Direto", campaign: "", content: "" },
    { ...campaign(daysAgo(40), 99), source: "Instagram", campaign: "antiga", content: "" },
  ];

  beforeAll(async () => {
    // As the worker counts them: each visit in its counter and in the report's row.
    await app.batch(
      seededVisits.flatMap((v): [string, ...unknown[]][] => [
        [
          "INSERT INTO visit_counts (day, source, campaign, content, n) VALUES (?1, ?2, ?3, ?4, ?5)",
          v.day,
          v.source,
          v.campaign,
          v.content,
          v.n,
        ],
        [
          "INSERT INTO campaign_daily (day, source, campaign, content, visits) VALUES (?1, ?2, ?3, ?4, ?5)",
          v.day,
          v.source,
          v.campaign,
          v.content,
          v.n,
        ],
      ]),
    );
    const at = (n: number, hour: number) => startOf(daysAgo(n)) + hour * 3_600_000;
    const verao = { utm_source: "instagram", utm_medium: "paid", utm_campaign: "verao" };
    const seeded = await insertLeads(app, [
      { ...verao, utm_content: "video-1", created_at: at(3, 9), delivery_status: "sent" },
      { ...verao, utm_content: "video-1", created_at: at(3, 23.5), delivery_status: "sent" },
      { ...verao, utm_content: "video-1", created_at: at(2, 8) },
      { ...verao, utm_content: "carrossel", utm_term: "casa na serra", created_at: at(2, 14) },
      {
        utm_source: "google",
        utm_medium: "cpc",
        utm_campaign: "busca",
        created_at: at(2, 15),
        delivery_status: "sent",
      },
      { utm_source: "google", utm_medium: "cpc", utm_campaign: "busca", created_at: at(1, 2) },
      { source: "WhatsApp", created_at: at(1, 11) },
      { created_at: at(1, 12) },
      { utm_source: "instagram", utm_campaign: "antiga", created_at: at(40, 12), delivery_status: "sent" },
    ]);
    // Two of them tied by a submission ('Possível duplicado').
    const [a, b] = [seeded[2], seeded[5]];
    await app.batch([
      ["INSERT INTO lead_links (lead_id, other_id, created_at) VALUES (?1, ?2, ?3)", a?.id, b?.id, Date.now()],
      ["INSERT INTO lead_links (lead_id, other_id, created_at) VALUES (?1, ?2, ?3)", b?.id, a?.id, Date.now()],
    ]);
  });

  /** What a plain SQL over the leads and the seeded visits says of a period. */
  async function expected(from: string, to: string) {
    const leads = await app.sql<Line>(
      `SELECT source, coalesce(utm_campaign, '') AS campaign, coalesce(utm_content, '') AS content,
         count(*) AS leads, sum(jetimob_enviado) AS delivered,
         sum(EXISTS (SELECT 1 FROM lead_links k WHERE k.lead_id = leads.id)) AS duplicates
       FROM leads WHERE created_at >= ?1 AND created_at < ?2 GROUP BY 1, 2, 3`,
      startOf(from),
      startOf(to) + DAY,
    );
    const visits = await app.sql<{ source: string; campaign: string; content: string; visits: number }>(
      `SELECT source, campaign, content, sum(n) AS visits FROM visit_counts
       WHERE day BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3`,
      from,
      to,
    );
    const lines = new Map<string, Line>();
    const key = (l: { source: string; campaign: string; content: string }) =>
      JSON.stringify([l.source, l.campaign, l.content]);
    for (const v of visits) {
      lines.set(key(v), { ...v, leads: 0, delivered: 0, duplicates: 0 });
    }
    for (const l of leads) lines.set(key(l), { ...l, visits: lines.get(key(l))?.visits ?? 0 });
    const perDay = await app.sql<{ day: string; source: string; n: number }>(
      `SELECT date(created_at / 1000 - 10800, 'unixepoch') AS day, source, count(*) AS n FROM leads
       WHERE created_at >= ?1 AND created_at < ?2 GROUP BY 1, 2`,
      startOf(from),
      startOf(to) + DAY,
    );
    return { lines: [...lines.values()], perDay };
  }

  /** A report's line as the plain SQL tells it: its names and its figures. */
  const plain = ({ source, campaign, content, visits, leads, delivered, duplicates }: Line): Line => ({
    source,
    campaign,
    content,
    visits,
    leads,
    delivered,
    duplicates,
  });

  function sorted(lines: Line[]) {
    return lines
      .map(plain)
      .sort((a, b) =>
        JSON.stringify([a.source, a.campaign, a.content]).localeCompare(
          JSON.stringify([b.source, b.campaign, b.content]),
        ),
      );
  }

  it("equals, line by line and day by day, what a plain SQL over the leads and visits says", async () => {
    const from = daysAgo(6);
    const answer = await report(`?de=${from}&ate=${today}`);
    const { lines, perDay } = await expected(from, today);
    expect(sorted(answer.rows)).toEqual(sorted(lines));
    expect(answer.days).toHaveLength(7);
    expect(answer.days.map((d) => d.day)).toEqual(Array.from({ length: 7 }, (_, i) => daysAgo(6 - i)));
    for (const d of answer.days) {
      const theirs = Object.fromEntries(perDay.filter((p) => p.day === d.day).map((p) => [p.source, p.n]));
      expect(d.leads, d.day).toEqual(theirs);
    }
    expect(answer.totals.leads).toBe(lines.reduce((n, l) => n + l.leads, 0));
    expect(answer.totals.visits).toBe(lines.reduce((n, l) => n + l.visits, 0));
    const video = answer.rows.find((r) => r.campaign === "verao" && r.content === "video-1");
    expect(video).toMatchObject({ visits: 40, leads: 3, delivered: 2 });
    expect(answer.rows.find((r) => r.source === "WhatsApp" && r.campaign === "")).toMatchObject({ leads: 1 });
    expect(answer.rows.find((r) => r.campaign === "antiga")).toBeUndefined();
    expect(answer.sources[0]).toBe("Instagram");
  });

  it("stays equal to it after a lead is sent, marked sent, tied to another and deleted", async () => {
    const [lead] = await app.sql<{ id: string }>("SELECT id FROM leads WHERE utm_campaign = 'busca' LIMIT 1");
    const [other] = await app.sql<{ id: string }>(
      "SELECT id FROM leads WHERE utm_content = 'carrossel' AND jetimob_enviado = 0 LIMIT 1",
    );
    expect((await staff.call("POST", `/api/leads/${other?.id}/mark-sent`, {})).status).toBe(200);
    expect((await staff.call("DELETE", `/api/leads/${lead?.id}`)).status).toBe(200);
    const from = daysAgo(6);
    const answer = await report(`?de=${from}&ate=${today}`);
    const { lines } = await expected(from, today);
    expect(sorted(answer.rows)).toEqual(sorted(lines.filter((l) => l.leads + l.visits > 0)));
  });

  it("counts a lead at 23:30 in Brasília on its own day, not the next (UTC's)", async () => {
    const day = daysAgo(3);
    const [late] = await app.sql<{ created_at: number }>(
      "SELECT created_at FROM leads WHERE created_at = ?1",
      startOf(day) + 23.5 * 3_600_000,
    );
    expect(late).toBeDefined();
    expect(new Date(late?.created_at ?? 0).toISOString().slice(0, 10)).not.toBe(day);
    const answer = await report(`?de=${day}&ate=${day}`);
    expect(answer.days).toEqual([{ day, visits: 40, leads: { Instagram: 2 } }]);
    const next = await report(`?de=${daysAgo(2)}&ate=${daysAgo(2)}`);
    expect(next.days[0]?.leads.Instagram).toBe(2);
    const listed = await staff.call("GET", `/api/leads?de=${day}&ate=${day}`);
    expect(listed.body.total).toBe(2);
  });

  it("without dates is the last 30 days, and says where the launch began", async () => {
    const answer = await report();
    expect(answer.period).toEqual({
      from: daysAgo(29),
      to: today,
      today,
      first_day: daysAgo(40),
      previous: { from: daysAgo(59), to: daysAgo(30) },
    });
    expect(answer.days).toHaveLength(30);
  });

  it("refuses a period it cannot read, in Portuguese, naming the field", async () => {
    for (const [query, field] of [
      ["?de=26/11/2026", "de"],
      ["?de=2026-02-30", "de"],
      [`?de=${today}&ate=${daysAgo(1)}`, "de"],
      ["?de=2020-01-01&ate=2026-11-26", "de"],
    ] as const) {
      const answer = await staff.call("GET", `/api/campaigns${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body.error).toMatch(/data|período/i);
      expect(Object.keys(answer.body.fields as object)).toEqual([field]);
    }
  });

  it("says where leads go besides Jetimob: neither to Meta nor to Google Ads while they are not set up", async () => {
    expect((await report()).ads).toEqual({ meta: false, google_ads: null });
  });

  it("is for staff only", async () => {
    const response = await fetch(`${app.baseUrl}/api/campaigns`);
    expect(response.status).toBe(401);
    expect((await fetch(`${app.baseUrl}/api/campaigns/export.csv`)).status).toBe(401);
  });

  it("downloads as CSV with a row per day and line, and each one's conversion", async () => {
    const from = daysAgo(6);
    const response = await fetch(`${app.baseUrl}/api/campaigns/export.csv?de=${from}&ate=${today}`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="campanhas-${from}-a-${today}.csv"`);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Dia;Plataforma;Fonte;Campanha;Anúncio;Visitas;Leads;Conversão;Enviados ao Jetimob;Possíveis duplicados;Enviados ao Meta;" +
        "Investimento (R$);Custo por lead (R$);Custo por lead enviado (R$)",
    );
    // The ad's 40 visits and 2 leads of its first day (both sent), and its third lead the day after (its tie
    // to another lead went with the lead deleted above).
    expect(lines).toContain(`${daysAgo(3)};Meta;Instagram;verao;video-1;40;2;5%;2;0;0;;;`);
    expect(lines).toContain(`${daysAgo(2)};Meta;Instagram;verao;video-1;0;1;;0;0;0;;;`);

    // Within a day, the lines come in the screen's order over the period: the report's.
    const shown = (await report(`?de=${from}&ate=${today}`)).rows.map((r) => `${r.source};${r.campaign};${r.content}`);
    const days = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const [day = "", , source, campaign, content] = line.split(";");
      days.set(day, [...(days.get(day) ?? []), `${source};${campaign};${content}`]);
    }
    expect(Math.max(...[...days.values()].map((names) => names.length))).toBeGreaterThan(2);
    for (const [day, names] of days) expect(names, day).toEqual(shown.filter((n) => names.includes(n)));
  });
});

describe("the lead list narrowed to a campaign", () => {
  it("lists the leads of a source, campaign and ad, and of none when the campaign is empty", async () => {
    const listed = async (query: string) => {
      const answer = await staff.call("GET", `/api/leads?${query}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as { total: number; leads: { utm_campaign: string | null; source: string }[] };
    };
    const video = await listed("fonte=instagram&campanha=verao&anuncio=video-1");
    expect(video.total).toBe(3);
    expect(video.leads).toHaveLength(3);
    const none = await listed("fonte=whatsapp&campanha=&anuncio=");
    expect(none.leads.map((l) => [l.source, l.utm_campaign])).toEqual([["WhatsApp", null]]);
    expect(none.total).toBe(1);
    const pending = await listed("status=pendentes&fonte=instagram&campanha=verao");
    expect(pending.leads.length).toBe(pending.total);
  });

  it("and the search finds leads by a campaign's, an ad's or a keyword's name", async () => {
    const found = async (q: string) =>
      ((await staff.call("GET", `/api/leads?q=${encodeURIComponent(q)}`)).body as { total: number }).total;
    expect(await found("verao")).toBe(4);
    expect(await found("carrossel")).toBe(1);
    expect(await found("casa na serra")).toBe(1);
  });
});

describe("a lead and the visits that brought it", () => {
  it("five visits of a campaign's ad and two leads from them make 5 visits and 2 leads on its line", async () => {
    const query = "utm_source=instagram&utm_campaign=lancamento&utm_content=video-1";
    for (let i = 0; i < 5; i++) expect((await visit(`/?${query}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const lead = aLead({ utm_source: "instagram", utm_campaign: "lancamento", utm_content: "video-1" });
      expect((await postLead(app, lead, { headers: { "User-Agent": CHROME } })).status).toBe(200);
    }
    await afterTheCountsBefore();
    const line = (await report()).rows.find((r) => r.campaign === "lancamento");
    expect(line).toMatchObject({ source: "Instagram", content: "video-1", visits: 5, leads: 2 });
  });

  it("is sourced as a visit is: a WhatsApp referrer, Instagram's browser, or direct", async () => {
    const cases: [Record<string, string>, Record<string, string>, string][] = [
      [{ referrer: "android-app://com.whatsapp/" }, {}, "WhatsApp"],
      [{}, { "User-Agent": `${CHROME} Instagram 312.0.0.21.109` }, "Instagram"],
      [{ gclid: "Cj0KCQ" }, {}, "Google"],
      [{}, {}, "Direto"],
    ];
    for (const [extra, headers, source] of cases) {
      const lead = aLead(extra);
      expect((await postLead(app, lead, { headers })).status).toBe(200);
      const [row] = await app.sql<{ id: string; source: string }>(
        "SELECT id, source FROM leads WHERE email = ?1",
        lead.email,
      );
      expect(row?.source).toBe(source);
      const page = await staff.call("GET", `/api/leads/${row?.id}`);
      expect((page.body.lead as { source: string }).source).toBe(source);
    }
  });
});

describe("the leads' CSV", () => {
  it("is fit for the ad platforms: WhatsApp in E.164, times in ISO 8601 with the offset, click ids apart", async () => {
    const lead = aLead({ whatsapp: "(49) 99999-1234", gclid: "Cj0KCQ-clique", utm_source: "google" });
    expect((await postLead(app, lead)).status).toBe(200);
    const response = await fetch(`${app.baseUrl}/api/leads/export.csv?q=${encodeURIComponent(String(lead.email))}`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    const [header, row] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    const cells = Object.fromEntries((header ?? "").split(";").map((h, i) => [h, (row ?? "").split(";")[i]]));
    expect(cells.WhatsApp).toBe("+5549999991234");
    expect(cells.Data).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);
    expect(Date.parse(cells.Data ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(cells.GCLID).toBe("Cj0KCQ-clique");
    expect(cells.Fonte).toBe("Google");
  });
});

// One network's flood, and a flood that fills the day while campaigns seen
// before keep their lines: visit-limits.test.ts.
describe("a flood of made-up campaigns, each from a network of its own", () => {
  it("adds at most 500 keys a day: the visits past them are counted under '(outras)', none lost", async () => {
    const [before] = await app.sql<{ keys: number; visits: number }>(
      "SELECT count(*) AS keys, sum(n) AS visits FROM visit_counts WHERE day = ?1",
      today,
    );
    const sent = 520 - (before?.keys ?? 0) + 30;
    for (let i = 0; i < sent; i += 40) {
      const batch = Array.from({ length: Math.min(40, sent - i) }, (_, j) =>
        visit(`/?utm_source=robo&utm_campaign=inventada-${i + j}`),
      );
      for (const answer of await Promise.all(batch)) expect(answer.status).toBe(200);
    }
    await afterTheCountsBefore();
    const [after] = await app.sql<{ keys: number; visits: number }>(
      "SELECT count(*) AS keys, sum(n) AS visits FROM visit_counts WHERE day = ?1",
      today,
    );
    // 500 keys and the day's '(outras)'.
    expect(after?.keys).toBe(501);
    expect(after?.visits).toBe((before?.visits ?? 0) + sent + 1);
    const [others] = await app.sql<{ n: number }>(
      "SELECT n FROM visit_counts WHERE day = ?1 AND source = '(outras)'",
      today,
    );
    expect(others?.n).toBeGreaterThan(30);
    const line = (await report(`?de=${today}&ate=${today}`)).rows.find((r) => r.source === "(outras)");
    expect(line?.visits).toBe(others?.n);
  });
});
