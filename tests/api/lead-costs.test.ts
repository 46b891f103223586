import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, spawnApp } from "../support/app";
import { FakeService, type Received } from "../support/fake-http";
import { FakeMail } from "../support/fake-mail";
import { aLead, postLead } from "../support/leads";
import { insertLeads } from "../support/seed";
import { type StaffClient, signedInStaff } from "../support/staff";
import { afterTheCountsBefore, visit } from "../support/visits";

// What each lead costs: one name per source, spend imported (and undone),
// cost per lead, and each figure beside the period before it.

let app: App;
let owner: StaffClient;
const mail = new FakeMail();
/** Meta's Graph API, as far as the spend insights go. */
const meta = new FakeService();

const DAY = 86_400_000;
/** The Brasília calendar day of `ms`, `yyyy-MM-dd`. */
const dayOf = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().slice(0, 10);
const startOf = (day: string) => Date.parse(`${day}T00:00:00-03:00`);
const today = dayOf(Date.now());
const daysAgo = (n: number) => dayOf(startOf(today) + 12 * 3_600_000 - n * DAY);
/** `yyyy-MM-dd` as a person types it: `dd/mm/aaaa`. */
const typed = (day: string) => day.split("-").reverse().join("/");

type Costed = { visits: number; leads: number; delivered: number; duplicates: number; spend: number | null };
type Line = Costed & { platform: string; source: string; campaign: string; content: string; previous: Costed };
type Report = {
  period: { from: string; to: string; previous: { from: string; to: string } };
  totals: Costed;
  previous_totals: Costed;
  rows: Line[];
  unmatched: { source: string; campaign: string; content: string; spend: number }[];
};
type Import = { id: number; kind: string; lines: number; added: number; changed: number; unchanged: number };

async function report(query = ""): Promise<Report> {
  const answer = await owner.call("GET", `/api/campaigns${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Report;
}

/** Sends a spend file as the page does: the file as the body, its name in the address. */
async function importSpend(
  by: StaffClient,
  file: string,
  name = "investimento.csv",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${app.baseUrl}/api/campaigns/spend?arquivo=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${by.accessToken}`, Origin: app.baseUrl, "Content-Type": "text/csv" },
    body: file,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function imported(file: string, name?: string): Promise<Import> {
  const answer = await importSpend(owner, file, name);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.import as Import;
}

const spendOf = async (campaign: string) =>
  (
    await app.sql<{ cents: number | null }>(
      "SELECT sum(cents) AS cents FROM campaign_spend WHERE campaign = ?1",
      campaign,
    )
  )[0]?.cents ?? null;

beforeAll(async () => {
  await Promise.all([mail.start(), meta.start()]);
  app = await spawnApp({
    vars: {
      ...mail.settings(),
      META_AD_ACCOUNT_ID: "act_1234567890",
      META_ACCESS_TOKEN: "meta-token-de-teste",
      META_GRAPH_URL: meta.url,
    },
  });
  owner = (await signedInStaff(app, mail)).client;
});

afterAll(async () => {
  await app?.stop();
  await Promise.all([mail.stop(), meta.stop()]);
});

describe("one name per source", () => {
  it("puts visits tagged 'Instagram', 'instagram' and 'ig' and leads tagged 'IG' on one line: R$ 100,00 for 2 leads is R$ 50,00 each", async () => {
    const campaign = `uma-linha-${Date.now()}`;
    for (const source of ["Instagram", "instagram", "ig"]) {
      expect((await visit(app, `/?utm_source=${source}&utm_campaign=${campaign}`)).status).toBe(200);
    }
    for (const source of ["IG", " insta "]) {
      expect((await postLead(app, aLead({ utm_source: source, utm_campaign: campaign }))).status).toBe(200);
    }
    await afterTheCountsBefore(app);
    const lines = (await report()).rows.filter((r) => r.campaign === campaign);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ platform: "Meta", source: "Instagram", visits: 3, leads: 2, spend: null });

    await imported(`data;origem;campanha;investimento\n${typed(today)};instagram;${campaign};R$ 100,00\n`);
    const [line] = (await report()).rows.filter((r) => r.campaign === campaign);
    expect(line).toMatchObject({ visits: 3, leads: 2, spend: 10_000 });
    const csv = await (
      await fetch(`${app.baseUrl}/api/campaigns/export.csv?de=${today}&ate=${today}`, {
        headers: { Authorization: `Bearer ${owner.accessToken}` },
      })
    ).text();
    expect(csv).toContain(`${today};Meta;Instagram;${campaign};;3;2;66,7%;0;0;0;100,00;50,00;\r\n`);
  });

  it("narrows the lead list by any spelling of a source, and its counters follow", async () => {
    const campaign = `filtro-${Date.now()}`;
    await insertLeads(app, [
      { utm_source: "instagram", utm_campaign: campaign },
      { utm_source: "instagram", utm_campaign: campaign, delivery_status: "sent" },
      { utm_source: "instagram", utm_campaign: campaign, delivery_status: "failed" },
      { utm_source: "google", utm_campaign: campaign },
    ]);
    const listed = await owner.call("GET", `/api/leads?fonte=ig&campanha=${campaign}&de=${today}&ate=${today}`);
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(3);
    // Each lead counted once: one in Jetimob, one on its way, one Jetimob refused; none contacted yet.
    expect(listed.body.counts).toEqual({
      total: 3,
      sent: 1,
      delivered: 1,
      pending: 1,
      failed: 1,
      attention: 1,
      duplicates: 0,
      uncontacted: 3,
      mine: 0,
    });
    const all = await owner.call("GET", "/api/leads");
    expect((all.body.counts as { total: number }).total).toBeGreaterThan(4);
  });
});

describe("spend imports", () => {
  it("read the sheet a person types, with its ad, upserting by day, source, campaign and ad", async () => {
    const first = await imported(
      "data;origem;campanha;anuncio;investimento\n" +
        `${typed(daysAgo(1))};Facebook;planilha;video-1;1.234,56\n` +
        `${typed(daysAgo(1))};fb;planilha;video-2;10\n`,
    );
    expect(first).toMatchObject({ kind: "planilha", lines: 2, added: 2, changed: 0, unchanged: 0 });
    const again = await imported(
      "data;origem;campanha;anuncio;investimento\n" +
        `${typed(daysAgo(1))};facebook;planilha;video-1;1.234,56\n` +
        `${typed(daysAgo(1))};Facebook;planilha;video-2;20,00\n` +
        `${typed(daysAgo(2))};Facebook;planilha;video-2;R$ 5\n`,
    );
    expect(again).toMatchObject({ lines: 3, added: 1, changed: 1, unchanged: 1 });
    expect(await spendOf("planilha")).toBe(123_456 + 2_000 + 500);
  });

  it("read Meta Ads Manager's export and Google Ads' report", async () => {
    const day = daysAgo(3);
    const metaFile =
      "\uFEFFInício dos relatórios,Encerramento dos relatórios,Nome da campanha,Nome do conjunto de anúncios," +
      "Nome do anúncio,Valor usado (BRL),Identificação da campanha\n" +
      `${day},${day},meta-export,publico-a,video-1,8.97,120210000\n` +
      `${day},${day},meta-export,publico-b,video-1,1.03,120210000\n`;
    expect(await imported(metaFile, "meta.csv")).toMatchObject({ kind: "meta", lines: 1, added: 1 });
    expect(await spendOf("meta-export")).toBe(1_000);

    const googleFile =
      "Campaign report\n" +
      '"All time"\n' +
      "Day,Campaign,Campaign ID,Ad group,Currency code,Cost,Clicks\n" +
      `${day},google-export,987654321,marca,BRL,"1,234.50",40\n` +
      'Total: Account,,,,BRL,"1,234.50",40\n';
    expect(await imported(googleFile, "google.csv")).toMatchObject({ kind: "google", lines: 1, added: 1 });
    const [row] = await app.sql<{ source: string; campaign_id: string; cents: number }>(
      "SELECT source, campaign_id, cents FROM campaign_spend WHERE campaign = 'google-export'",
    );
    expect(row).toEqual({ source: "Google", campaign_id: "987654321", cents: 123_450 });
  });

  it("refuse a file with a bad line, naming each line, and keep nothing of it", async () => {
    const count = async () =>
      (
        await app.sql<{ n: number }>(
          "SELECT (SELECT count(*) FROM campaign_spend) + (SELECT count(*) FROM spend_imports) AS n",
        )
      )[0]?.n;
    const before = await count();
    const answer = await importSpend(
      owner,
      "data;origem;campanha;investimento\n" +
        `${typed(today)};ig;recusada;100\n` +
        `${typed(today)};ig;recusada-2;cem reais\n` +
        `${typed(today)};;recusada-3;10\n`,
    );
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe("2 linhas do arquivo têm erro; nada foi importado.");
    expect(answer.body.lines).toEqual(['linha 3: valor inválido ("cem reais")', "linha 4: origem em branco"]);
    expect(await count()).toBe(before);
    expect(await spendOf("recusada")).toBeNull();

    const unknown = await importSpend(owner, "nome;email\nAna;ana@example.com\n");
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatch(/^Não reconhecemos o arquivo/);
  });

  it("can be undone, each line back to what the import before it had", async () => {
    const line = (amount: string) => `data;origem;campanha;investimento\n${typed(today)};Google;desfazer;${amount}\n`;
    const a = await imported(line("100"));
    const b = await imported(line("150"));
    expect(await spendOf("desfazer")).toBe(15_000);
    const undo = (id: number) => owner.call("POST", `/api/campaigns/spend/${id}/undo`, {});
    expect((await undo(b.id)).status).toBe(200);
    expect(await spendOf("desfazer")).toBe(10_000);
    expect((await undo(a.id)).status).toBe(200);
    expect(await spendOf("desfazer")).toBeNull();
    const twice = await undo(a.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe("Esta importação já foi desfeita.");
    const listed = await owner.call("GET", "/api/campaigns/spend");
    const undone = (listed.body.imports as (Import & { undone_by: string | null })[]).find((i) => i.id === a.id);
    expect(undone?.undone_by).toMatch(/@/);
  });

  it("are for owners and those they give 'Importar investimento'", async () => {
    const colleague = await signedInStaff(app, mail);
    const file = `data;origem;campanha;investimento\n${typed(today)};ig;direito;1\n`;
    const refused = await importSpend(colleague.client, file);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/permissão para importar investimento/);
    const accounts = (await owner.call("GET", "/api/staff")).body.accounts as { id: string; email: string }[];
    const account = accounts.find((a) => a.email === colleague.email);
    expect((await owner.call("POST", `/api/staff/${account?.id}/allow-import-spend`, {})).status).toBe(200);
    expect((await importSpend(colleague.client, file)).status).toBe(201);
  });
});

describe("cost per lead beside the period before", () => {
  it("equals what a plain SQL over the leads, the visits and the spend says, in Brasília days", async () => {
    const campaign = `semana-${Date.now()}`;
    const at = (n: number, hour: number) => startOf(daysAgo(n)) + hour * 3_600_000;
    // Two weeks of leads, one at 23:30 in Brasília (the next day in UTC), visits and spend each day.
    await insertLeads(app, [
      { utm_source: "google", utm_campaign: campaign, created_at: at(1, 10), delivery_status: "sent" },
      { utm_source: "google", utm_campaign: campaign, created_at: at(3, 23.5) },
      { utm_source: "google", utm_campaign: campaign, created_at: at(6, 9), delivery_status: "sent" },
      { utm_source: "google", utm_campaign: campaign, created_at: at(7, 23.5) },
      { utm_source: "google", utm_campaign: campaign, created_at: at(9, 8), delivery_status: "sent" },
      { utm_source: "google", utm_campaign: campaign, created_at: at(13, 15) },
    ]);
    const visits: [string, ...unknown[]][] = [];
    const sheet = ["data;origem;campanha;investimento"];
    for (let n = 0; n < 14; n++) {
      visits.push([
        "INSERT INTO campaign_daily (day, source, campaign, content, visits) VALUES (?1, 'Google', ?2, '', ?3) " +
          "ON CONFLICT DO UPDATE SET visits = visits + excluded.visits",
        daysAgo(n),
        campaign,
        10 + n,
      ]);
      sheet.push(`${typed(daysAgo(n))};google;${campaign};${n + 1},50`);
    }
    await app.batch(visits);
    await imported(`${sheet.join("\n")}\n`);

    const from = daysAgo(6);
    const answer = await report(`?de=${from}&ate=${today}`);
    expect(answer.period.previous).toEqual({ from: daysAgo(13), to: daysAgo(7) });
    const plain = async (first: string, last: string) => {
      const [leads] = await app.sql<{ leads: number; delivered: number }>(
        `SELECT count(*) AS leads, coalesce(sum(jetimob_enviado), 0) AS delivered FROM leads
         WHERE utm_campaign = ?1 AND created_at >= ?2 AND created_at < ?3`,
        campaign,
        startOf(first),
        startOf(last) + DAY,
      );
      const [other] = await app.sql<{ visits: number; spend: number }>(
        `SELECT (SELECT sum(visits) FROM campaign_daily WHERE campaign = ?1 AND day BETWEEN ?2 AND ?3) AS visits,
           (SELECT sum(cents) FROM campaign_spend WHERE campaign = ?1 AND day BETWEEN ?2 AND ?3) AS spend`,
        campaign,
        first,
        last,
      );
      return { ...leads, ...other };
    };
    const now = await plain(from, today);
    const before = await plain(daysAgo(13), daysAgo(7));
    expect(now).toEqual({ leads: 3, delivered: 2, visits: 10 + 11 + 12 + 13 + 14 + 15 + 16, spend: 3_150 });
    const [line] = answer.rows.filter((r) => r.campaign === campaign);
    expect(line).toMatchObject({ platform: "Google", source: "Google", ...now });
    expect(line?.previous).toMatchObject(before);
    expect(before.leads).toBe(3);
  });

  it("lists spend whose campaign no line carries", async () => {
    await imported(`data;origem;campanha;investimento\n${typed(today)};Meta;ninguem-clicou;12,34\n`);
    const answer = await report();
    expect(answer.unmatched).toContainEqual({ source: "Meta", campaign: "ninguem-clicou", content: "", spend: 1_234 });
    // Counted in the total all the same: it was spent.
    expect(answer.totals.spend).toBeGreaterThanOrEqual(1_234);
  });
});

describe("Meta's spend, read by the cron", () => {
  it("asks the insights of yesterday and today by day, placement and ad, page after page, once an hour", async () => {
    const insight = (ad: string, platform: string, spend: string) => ({
      date_start: today,
      date_stop: today,
      campaign_id: "120210000",
      campaign_name: "meta-api",
      ad_id: `ad-${ad}`,
      ad_name: ad,
      spend,
      account_currency: "BRL",
      publisher_platform: platform,
    });
    meta.respondWith((request: Received) => {
      const url = new URL(request.path, meta.url);
      if (url.searchParams.get("after") === "p2") {
        return { status: 200, body: { data: [insight("video-2", "facebook", "3.00")], paging: {} } };
      }
      return {
        status: 200,
        body: {
          data: [insight("video-1", "instagram", "10.50"), insight("video-1", "facebook", "2")],
          paging: { cursors: { after: "p2" }, next: `${meta.url}/v26.0/act_1234567890/insights?after=p2` },
        },
      };
    });
    await app.runCron();
    expect(meta.received).toHaveLength(2);
    const [first] = meta.received;
    const asked = new URL(first?.path ?? "", meta.url);
    expect(asked.pathname).toBe("/v26.0/act_1234567890/insights");
    expect(asked.searchParams.get("level")).toBe("ad");
    expect(asked.searchParams.get("time_increment")).toBe("1");
    expect(asked.searchParams.get("breakdowns")).toBe("publisher_platform");
    expect(JSON.parse(asked.searchParams.get("time_range") ?? "")).toEqual({ since: daysAgo(1), until: today });
    expect(first?.headers.authorization).toBe("Bearer meta-token-de-teste");
    expect(first?.path).not.toContain("meta-token");
    const rows = await app.sql<{ source: string; content: string; cents: number }>(
      "SELECT source, content, cents FROM campaign_spend WHERE campaign = 'meta-api' ORDER BY content, source",
    );
    expect(rows).toEqual([
      { source: "Facebook", content: "video-1", cents: 200 },
      { source: "Instagram", content: "video-1", cents: 1_050 },
      { source: "Facebook", content: "video-2", cents: 300 },
    ]);
    const [made] = await app.sql<{ staff_email: string; kind: string }>(
      "SELECT staff_email, kind FROM spend_imports WHERE kind = 'meta_api'",
    );
    expect(made).toEqual({ staff_email: "Meta (automático)", kind: "meta_api" });
    // Within the hour the cron does not ask again.
    await app.runCron();
    expect(meta.received).toHaveLength(2);
  });
});
