// Fills a local D1 with realistic Brazilian leads, for benchmarks and for
// paging and search tests of the staff panel.
//
// Command line (from the repository root):
//   node scripts/seed-leads.mjs --count 100000 [--persist-to DIR] [--seed N] [--sql-out FILE]
//     --count       how many leads (default 1000)
//     --persist-to  the local D1's state folder, as `wrangler --persist-to`
//                   (default: wrangler's own, .wrangler/state, which `make dev` uses)
//     --seed        the random seed (default 1): the same seed gives the same leads
//     --sql-out     also keep the generated SQL file there
//   It applies the migrations not yet applied (`wrangler d1 migrations apply`),
//   then the leads as multi-row INSERTs with `wrangler d1 execute DB --local
//   --file`, and prints the time. The leads_search triggers index every row as
//   it goes in.
//
// Exported (stable API; tests import it):
//   generateLeads(count, { seed = 1, now = Date.now(), days = 90 }) → Lead[]
//     Rows in the `leads` table's shape (column names as keys), newest spread
//     over `days` days before `now`. E-mails and WhatsApp numbers are unique
//     within one call. About 70% sent, 25% pending, 5% failed, with plausible
//     attempts, errors and times.
//   leadsToSql(leads, { rowsPerInsert = 50 }) → string of INSERT statements
//     (wrangler splits a file into statements in time that grows faster than
//     a statement's length: 50 rows each applied 20,000 leads in 5.6 s here,
//     200 in 30 s, 1,000 in 500 s)
//   seedLeads({ count, persistTo, seed, now, sqlOut }) → Promise<{ count, seconds, sqlBytes }>
//     Generates, writes and applies as the command line does.
//   seedLeadsThrough(db, { count, seed, now }) → Promise<{ count, seconds }>
//     The same leads through a running worker's D1 binding (the tests and the
//     benchmark start the worker with scripts/local-worker.mjs).
//   LEAD_COLUMNS: the columns written, in order.
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);

/** The submission each lead arrived with, as the lead endpoint records it. */
const SUBMISSION_COLUMNS = [
  "name",
  "email",
  "whatsapp",
  "origem",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "gclid",
  "fbclid",
  "referrer",
  "page_url",
];

export const LEAD_COLUMNS = [
  "id",
  ...SUBMISSION_COLUMNS,
  "created_at",
  "submission_count",
  "last_submitted_at",
  "delivery_status",
  "delivery_attempts",
  "next_attempt_at",
  "lease_until",
  "last_error",
  "sent_at",
  "sent_by",
  "jetimob_lead_id",
  "sent_name",
  "sent_email",
  "sent_whatsapp",
  "update_status",
  "update_requested_at",
  "update_attempts",
  "update_last_error",
  "source",
  "referrer_host",
];

const FIRST_NAMES = [
  "Ana",
  "Maria",
  "Júlia",
  "Juliana",
  "Fernanda",
  "Camila",
  "Larissa",
  "Beatriz",
  "Mariana",
  "Letícia",
  "Gabriela",
  "Patrícia",
  "Aline",
  "Bruna",
  "Carolina",
  "Daniela",
  "Vanessa",
  "Luana",
  "Simone",
  "Cláudia",
  "Adriana",
  "Rosângela",
  "Tatiane",
  "Priscila",
  "Isabela",
  "Heloísa",
  "Valentina",
  "Lúcia",
  "Sandra",
  "Márcia",
  "João",
  "José",
  "Pedro",
  "Lucas",
  "Gabriel",
  "Rafael",
  "Felipe",
  "Bruno",
  "Gustavo",
  "Rodrigo",
  "Marcelo",
  "Eduardo",
  "André",
  "Carlos",
  "Luiz",
  "Paulo",
  "Fábio",
  "Diego",
  "Thiago",
  "Leandro",
  "Matheus",
  "Vinícius",
  "Guilherme",
  "Ricardo",
  "Alexandre",
  "Anderson",
  "Márcio",
  "Sérgio",
  "Antônio",
  "Otávio",
];
const SURNAMES = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Rodrigues",
  "Ferreira",
  "Alves",
  "Pereira",
  "Lima",
  "Gomes",
  "Costa",
  "Ribeiro",
  "Martins",
  "Carvalho",
  "Almeida",
  "Lopes",
  "Soares",
  "Fernandes",
  "Vieira",
  "Barbosa",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Marques",
  "Machado",
  "Mendes",
  "Freitas",
  "Cardoso",
  "Ramos",
  "Gonçalves",
  "Teixeira",
  "Zanella",
  "Bortolini",
  "Pagliosa",
  "Dalla Costa",
  "Tessaro",
  "Baldissera",
  "Schmitt",
  "Müller",
  "Weber",
  "Schneider",
  "Klein",
  "Becker",
  "Fischer",
  "Conceição",
  "D'Ávila",
  "Bertoldi",
];
const PARTICLES = ["da", "dos", "de", "do"];

/** Weighted picks: [value, weight]. */
const EMAIL_DOMAINS = [
  ["gmail.com", 55],
  ["hotmail.com", 14],
  ["outlook.com", 8],
  ["yahoo.com.br", 6],
  ["icloud.com", 4],
  ["uol.com.br", 3],
  ["bol.com.br", 2],
  ["terra.com.br", 2],
  ["live.com", 2],
  ["unoesc.edu.br", 1],
  ["videira.sc.gov.br", 1],
  ["cooperalfa.com.br", 1],
  ["sicoob.com.br", 1],
];
/** Santa Catarina first, then its neighbours and the big cities. */
const DDDS = [
  [49, 38],
  [47, 14],
  [48, 14],
  [54, 6],
  [51, 4],
  [55, 2],
  [41, 4],
  [42, 2],
  [45, 2],
  [46, 2],
  [11, 5],
  [19, 2],
  [21, 2],
  [31, 1],
  [61, 1],
  [62, 1],
];
/** The one name the worker gives each of the seed's sources (worker/src/attribution/sources.rs). */
const ONE_NAME = {
  instagram: "Instagram",
  facebook: "Facebook",
  google: "Google",
  whatsapp: "WhatsApp",
  direto: "Direto",
};
const CAMPAIGNS = ["pre-lancamento", "pre-lancamento-2026", "vinicola-lifestyle", "remarketing", "lista-vip"];
const SOURCES = [
  {
    weight: 35,
    utm_source: "instagram",
    utm_medium: ["social", "paid-social"],
    referrer: "https://l.instagram.com/",
    click: "fbclid",
  },
  {
    weight: 18,
    utm_source: "facebook",
    utm_medium: ["paid-social", "social"],
    referrer: "https://m.facebook.com/",
    click: "fbclid",
  },
  { weight: 20, utm_source: "google", utm_medium: ["cpc"], referrer: "https://www.google.com/", click: "gclid" },
  { weight: 5, utm_source: "whatsapp", utm_medium: ["messaging"], referrer: null, click: null },
  { weight: 4, utm_source: null, utm_medium: null, referrer: "https://www.google.com/", click: null },
  { weight: 3, origem: "indicacao", referrer: null, click: null },
  { weight: 15, utm_source: null, utm_medium: null, referrer: null, click: null },
];
const ERRORS = [
  "HTTP 503: Service Unavailable",
  "HTTP 502: Bad Gateway",
  "Sem resposta do Jetimob em 5 s",
  "HTTP 429 (limite de envios): Too Many Requests",
  "Falha de conexão: Network connection lost.",
  'HTTP 500: {"error":"internal server error"}',
  'HTTP 401 (chaves recusadas): {"message":"Unauthorized"}',
];
/** The CRM's retry delays, as worker/src/crm/schedule.rs spaces them. */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000];
const DAY_MS = 86_400_000;

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same leads. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ascii = (s) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

/**
 * @param {number} count
 * @param {{ seed?: number, now?: number, days?: number }} [options]
 * @returns {Record<string, string | number | null>[]}
 */
export function generateLeads(count, { seed = 1, now = Date.now(), days = 90 } = {}) {
  const rand = random(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const weighted = (list) => {
    const total = list.reduce((t, item) => t + (Array.isArray(item) ? item[1] : item.weight), 0);
    let r = rand() * total;
    for (const item of list) {
      r -= Array.isArray(item) ? item[1] : item.weight;
      if (r < 0) return Array.isArray(item) ? item[0] : item;
    }
    const last = list[list.length - 1];
    return Array.isArray(last) ? last[0] : last;
  };
  const digits = (n) => Array.from({ length: n }, () => Math.floor(rand() * 10)).join("");
  const uuid = () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
    hex[12] = "4";
    hex[16] = "89ab"[Math.floor(rand() * 4)];
    const h = hex.join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const emails = new Set();
  const phones = new Set();
  const leads = [];

  for (let i = 0; i < count; i++) {
    const first = pick(FIRST_NAMES);
    const middle = rand() < 0.35 ? pick(SURNAMES) : null;
    const last = pick(SURNAMES);
    const particle = rand() < 0.2 && !last.startsWith("D'") ? `${pick(PARTICLES)} ` : "";
    const name = [first, middle, `${particle}${last}`].filter(Boolean).join(" ");

    let email;
    do {
      const local = [
        () => `${ascii(first)}.${ascii(last)}`,
        () => `${ascii(first)}${ascii(last)}${digits(2)}`,
        () => `${ascii(first)}_${ascii(last)}${digits(3)}`,
        () => `${ascii(first).slice(0, 1)}${ascii(last)}${digits(4)}`,
        () => `${ascii(first)}${digits(4)}`,
      ][Math.floor(rand() * 5)]();
      email = `${local}@${weighted(EMAIL_DOMAINS)}`;
    } while (emails.has(email));
    emails.add(email);

    let whatsapp;
    do {
      // Mobile numbers: 9, then a digit from 6 to 9, then seven more.
      whatsapp = `+55${weighted(DDDS)}9${6 + Math.floor(rand() * 4)}${digits(7)}`;
    } while (phones.has(whatsapp));
    phones.add(whatsapp);

    // More leads recently (campaigns ramp up), more in the evening (Brasília time, UTC−3).
    const age = Math.floor(days * DAY_MS * rand() ** 1.3);
    const day = now - age - ((now - age) % DAY_MS);
    const hourUtc =
      (weighted([
        [9, 3],
        [12, 5],
        [15, 6],
        [18, 7],
        [21, 10],
        [23, 9],
        [1, 4],
      ]) +
        Math.floor(rand() * 3)) %
      24;
    let createdAt = day + hourUtc * 3_600_000 + Math.floor(rand() * 3_600_000);
    if (createdAt >= now) createdAt -= DAY_MS;

    const source = weighted(SOURCES);
    const campaign = source.utm_source ? pick(CAMPAIGNS) : null;
    const utm_medium = source.utm_medium ? pick(source.utm_medium) : null;
    const clickId =
      source.click && rand() < 0.8 ? `${source.click === "gclid" ? "Cj0KCQ" : "IwAR"}${digits(12)}` : null;
    const query = [
      source.utm_source && `utm_source=${source.utm_source}`,
      utm_medium && `utm_medium=${utm_medium}`,
      campaign && `utm_campaign=${campaign}`,
      clickId && `${source.click}=${clickId}`,
    ].filter(Boolean);
    const referrerHost = source.referrer ? new URL(source.referrer).hostname.replace(/^www\./, "") : null;
    const origem = source.origem ?? source.utm_source ?? referrerHost ?? "site";
    // The report's source, as the worker reads it (attribution.rs): the
    // seed's referrers are all of families named after their site.
    const reportSource =
      ONE_NAME[
        source.utm_source ??
          (source.click === "gclid" && clickId ? "google" : null) ??
          (referrerHost ? referrerHost.split(".").at(-2) : null) ??
          (source.click === "fbclid" && clickId ? "facebook" : "direto")
      ];

    const repeats = rand() < 0.05 ? 1 + Math.floor(rand() * 2) : 0;
    const lastSubmittedAt = repeats ? Math.min(now, createdAt + Math.floor(rand() * 7 * DAY_MS)) : createdAt;

    const roll = rand();
    const status = roll < 0.7 ? "sent" : roll < 0.95 ? "pending" : "failed";
    let attempts = 0;
    let lastError = null;
    let nextAttemptAt = null;
    let sentAt = null;
    let sentBy = null;
    let jetimobId = null;
    if (status === "sent") {
      attempts = rand() < 0.9 ? 1 : 2 + Math.floor(rand() * 3);
      lastError = attempts > 1 ? pick(ERRORS) : null;
      sentBy = rand() < 0.96 ? "crm" : "staff";
      const delay =
        attempts === 1 ? 300 + Math.floor(rand() * 2500) : BACKOFF_MS.slice(0, attempts - 1).reduce((a, b) => a + b, 0);
      sentAt = Math.min(now, createdAt + delay);
      jetimobId = sentBy === "crm" ? String(100000 + i) : null;
    } else if (status === "pending") {
      // Recent leads mostly, some waiting for their next retry.
      attempts = rand() < 0.6 ? 0 : 1 + Math.floor(rand() * 4);
      lastError = attempts ? pick(ERRORS) : null;
      nextAttemptAt = attempts
        ? Math.max(createdAt, now - 30_000) + BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1]
        : createdAt;
    } else {
      attempts = 28 + Math.floor(rand() * 6);
      lastError = pick(ERRORS);
    }
    // What the CRM was sent; now and then (about one sent lead in 250, a week
    // old at least) a visitor's correction of their WhatsApp it refused for a
    // week, which waits for a person. (Chosen by position, not by the random
    // stream, so the other columns stay as every earlier seed made them.)
    const sent = status === "sent" ? { name, email, whatsapp } : { name: null, email: null, whatsapp: null };
    let correction = { status: null, requestedAt: null, attempts: 0, error: null };
    if (status === "sent" && i % 250 === 17 && createdAt < now - 8 * DAY_MS) {
      sent.whatsapp = `${whatsapp.slice(0, -1)}${(Number(whatsapp.at(-1)) + 1) % 10}`;
      correction = { status: "failed", requestedAt: sentAt + DAY_MS, attempts: 30, error: ERRORS[i % ERRORS.length] };
    }

    leads.push({
      id: uuid(),
      name,
      email,
      whatsapp,
      origem,
      jetimob_enviado: status === "sent" ? 1 : 0,
      created_at: createdAt,
      utm_source: source.utm_source ?? null,
      utm_medium,
      utm_campaign: campaign,
      utm_term: null,
      utm_content: campaign && rand() < 0.3 ? pick(["video-vinhedo", "carrossel-plantas", "story-por-do-sol"]) : null,
      gclid: source.click === "gclid" ? clickId : null,
      fbclid: source.click === "fbclid" ? clickId : null,
      referrer: source.referrer,
      page_url: `https://recantodasvideiras.com.br/${query.length ? `?${query.join("&")}` : ""}`,
      submission_count: 1 + repeats,
      last_submitted_at: lastSubmittedAt,
      delivery_status: status,
      delivery_attempts: attempts,
      next_attempt_at: nextAttemptAt,
      lease_until: null,
      last_error: lastError,
      sent_at: sentAt,
      sent_by: sentBy,
      jetimob_lead_id: jetimobId,
      sent_name: sent.name,
      sent_email: sent.email,
      sent_whatsapp: sent.whatsapp,
      update_status: correction.status,
      update_requested_at: correction.requestedAt,
      update_attempts: correction.attempts,
      update_last_error: correction.error,
      source: reportSource,
      referrer_host: source.utm_source ? null : referrerHost,
    });
  }
  return leads;
}

const sqlValue = (v) =>
  v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replaceAll("'", "''")}'`;

/**
 * One multi-row INSERT per `rowsPerInsert` leads, then their submissions
 * (one each, the lead's own details, as a first submission is).
 * @param {Record<string, string | number | null>[]} leads
 * @param {{ rowsPerInsert?: number }} [options]
 */
function insertStatements(leads, { rowsPerInsert = 50 } = {}) {
  const statements = [];
  for (let i = 0; i < leads.length; i += rowsPerInsert) {
    const chunk = leads.slice(i, i + rowsPerInsert);
    const rows = chunk.map((lead) => `(${LEAD_COLUMNS.map((c) => sqlValue(lead[c])).join(",")})`);
    statements.push(`INSERT INTO leads (${LEAD_COLUMNS.join(",")}) VALUES\n${rows.join(",\n")};`);
    statements.push(
      `INSERT INTO lead_submissions (lead_id, submitted_at, ${SUBMISSION_COLUMNS.join(", ")})\n` +
        `SELECT id, created_at, ${SUBMISSION_COLUMNS.join(", ")} FROM leads\n` +
        `WHERE id IN (${chunk.map((lead) => sqlValue(lead.id)).join(",")}) ORDER BY created_at, id;`,
    );
  }
  return statements;
}

/**
 * @param {Record<string, string | number | null>[]} leads
 * @param {{ rowsPerInsert?: number }} [options]
 */
export function leadsToSql(leads, options = {}) {
  return `${insertStatements(leads, options).join("\n")}\n`;
}

const wrangler = join(root, "node_modules/.bin/wrangler");
const quietEnv = () => ({ ...process.env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false", CI: "true" });

/** @param {string[]} args @param {string | undefined} persistTo */
async function wranglerD1(args, persistTo) {
  if (persistTo) args.push("--persist-to", persistTo);
  await run(wrangler, ["d1", ...args], { cwd: root, env: quietEnv(), maxBuffer: 64 * 1024 * 1024 });
}

/**
 * @param {{ count: number, persistTo?: string, seed?: number, now?: number, sqlOut?: string }} options
 * @returns {Promise<{ count: number, seconds: number, sqlBytes: number }>}
 */
export async function seedLeads({ count, persistTo, seed = 1, now = Date.now(), sqlOut }) {
  const dir = await mkdtemp(join(tmpdir(), "seed-leads-"));
  try {
    const file = sqlOut ? resolve(sqlOut) : join(dir, "leads.sql");
    await writeFile(file, leadsToSql(generateLeads(count, { seed, now })));
    const started = performance.now();
    await wranglerD1(["migrations", "apply", "DB", "--local"], persistTo);
    await wranglerD1(["execute", "DB", "--local", "--file", file], persistTo);
    const seconds = (performance.now() - started) / 1000;
    return { count, seconds, sqlBytes: (await stat(file)).size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * @param {import("./local-worker.mjs").D1} db a running worker's D1 binding, migrated
 * @param {{ count: number, seed?: number, now?: number }} options
 * @returns {Promise<{ count: number, seconds: number }>}
 */
export async function seedLeadsThrough(db, { count, seed = 1, now = Date.now(), days = 90 }) {
  const leads = generateLeads(count, { seed, now, days });
  const started = performance.now();
  // 100 leads a statement (and their submissions), 20 of each a batch: 50 round trips for 100,000 leads.
  for (let i = 0; i < leads.length; i += 2000) {
    const statements = insertStatements(leads.slice(i, i + 2000), { rowsPerInsert: 100 });
    await db.batch(statements.map((statement) => db.prepare(statement)));
  }
  return { count, seconds: (performance.now() - started) / 1000 };
}

/** Visit-only traffic of a day: arrivals without a lead, by where they came from. */
const VISIT_ONLY = [
  { source: "Direto", weight: 30 },
  { source: "Instagram", weight: 20 },
  { source: "Google", weight: 15 },
  { source: "Facebook", weight: 10 },
  { source: "WhatsApp", weight: 10 },
  { source: "blogdovinho.com.br", weight: 3 },
  { source: "guiadaserra.com.br", weight: 2 },
];

/**
 * Counts `total` visits into D1 as the worker would have counted them: a
 * row of `visit_counts` per day and line (source, campaign, ad), each added
 * to `campaign_daily`.
 * Every key the seeded leads came under got several visits a lead, and
 * each day had visits that left no lead (direct, organic, shared links).
 * @param {import("./local-worker.mjs").D1} db a running worker's D1 binding, its leads seeded
 * @param {{ total: number, seed?: number }} options
 */
export async function seedVisitsThrough(db, { total, seed = 2 }) {
  const rand = random(seed);
  const { results: keys } = await db
    .prepare(
      `SELECT date(created_at / 1000 - 10800, 'unixepoch') AS day, source,
         coalesce(utm_campaign, '') AS campaign, coalesce(utm_content, '') AS content, count(*) AS n
       FROM leads GROUP BY 1, 2, 3, 4`,
    )
    .all();
  const rows = keys.map((k) => ({ ...k, weight: Number(k.n) * (6 + rand() * 14) }));
  for (const day of new Set(keys.map((k) => k.day))) {
    for (const v of VISIT_ONLY) {
      rows.push({ day, source: v.source, campaign: "", content: "", weight: v.weight * (20 + rand() * 20) });
    }
  }
  const scale = total / rows.reduce((t, r) => t + r.weight, 0);
  let counted = 0;
  const values = rows.map((r, i) => {
    const n = i === rows.length - 1 ? total - counted : Math.max(1, Math.round(r.weight * scale));
    counted += n;
    return `(${[r.day, r.source, r.campaign, r.content, n].map(sqlValue).join(",")})`;
  });
  const statements = [];
  for (let i = 0; i < values.length; i += 100) {
    statements.push(
      "INSERT INTO visit_counts (day, source, campaign, content, n) VALUES " +
        `${values.slice(i, i + 100).join(",")} ON CONFLICT DO UPDATE SET n = n + excluded.n`,
    );
  }
  statements.push(
    `INSERT INTO campaign_daily (day, source, campaign, content, visits)
     SELECT day, source, campaign, content, sum(n) FROM visit_counts WHERE true GROUP BY 1, 2, 3, 4
     ON CONFLICT DO UPDATE SET visits = visits + excluded.visits`,
  );
  for (let i = 0; i < statements.length; i += 50) {
    await db.batch(statements.slice(i, i + 50).map((statement) => db.prepare(statement)));
  }
  return { visits: total, rows: rows.length };
}

/**
 * A year of daily spend for every ad the seeded leads came from (and every
 * campaign of a paid source without one), up to today, as one import: what
 * the report reads beside its visits and leads at scale.
 * @param {import("./local-worker.mjs").D1} db a running worker's D1 binding, its leads seeded
 * @param {{ days?: number, seed?: number }} [options]
 */
export async function seedSpendThrough(db, { days = 365, seed = 3 } = {}) {
  const rand = random(seed);
  const { results: lines } = await db
    .prepare(
      `SELECT DISTINCT source, coalesce(utm_campaign, '') AS campaign, coalesce(utm_content, '') AS content
       FROM leads WHERE source IN ('Instagram', 'Facebook', 'Google') AND utm_campaign IS NOT NULL`,
    )
    .all();
  const today = new Date(Date.now() - 3 * 3_600_000);
  const dayOf = (n) => new Date(today.getTime() - n * DAY_MS).toISOString().slice(0, 10);
  await db
    .prepare(
      `INSERT INTO spend_imports (token, at, staff_email, kind, lines, first_day, last_day, cents)
       VALUES ('seed', ?1, 'seed', 'planilha', ?2, ?3, ?4, 0)`,
    )
    .bind(Date.now(), lines.length * days, dayOf(days - 1), dayOf(0))
    .run();
  const values = [];
  for (let n = 0; n < days; n++) {
    for (const l of lines) {
      const cents = Math.round(2_000 + rand() * 20_000);
      values.push(`(${[dayOf(n), l.source, l.campaign, l.content].map(sqlValue).join(",")},${cents},1)`);
    }
  }
  const statements = [];
  for (let i = 0; i < values.length; i += 100) {
    statements.push(
      "INSERT INTO campaign_spend (day, source, campaign, content, cents, import_id) VALUES " +
        `${values.slice(i, i + 100).join(",")}`,
    );
  }
  for (let i = 0; i < statements.length; i += 50) {
    await db.batch(statements.slice(i, i + 50).map((statement) => db.prepare(statement)));
  }
  return { lines: lines.length, rows: values.length };
}

/**
 * Makes every lead waiting for the CRM, and every correction, due tomorrow:
 * a minute with nothing to deliver, as the cron sees most minutes.
 * @param {import("./local-worker.mjs").D1} db a running worker's D1 binding
 */
export async function nothingDueUntilTomorrow(db) {
  const tomorrow = Date.now() + 86_400_000;
  await db.batch([
    db.prepare("UPDATE leads SET next_attempt_at = ?1 WHERE delivery_status = 'pending'").bind(tomorrow),
    db.prepare("UPDATE leads SET update_next_attempt_at = ?1 WHERE update_status = 'pending'").bind(tomorrow),
  ]);
}

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const count = Number(option("count", "1000"));
  if (!Number.isInteger(count) || count < 1) {
    console.error("--count must be a positive whole number");
    process.exit(2);
  }
  const persistTo = option("persist-to", undefined);
  const result = await seedLeads({
    count,
    persistTo: persistTo && resolve(persistTo),
    seed: Number(option("seed", "1")),
    sqlOut: option("sql-out", undefined),
  });
  console.log(
    `Seeded ${result.count} leads into ${persistTo ?? ".wrangler/state"} in ${result.seconds.toFixed(1)} s ` +
      `(SQL: ${(result.sqlBytes / 1024 / 1024).toFixed(1)} MB).`,
  );
}
