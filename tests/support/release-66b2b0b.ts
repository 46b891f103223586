import { createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import { join } from "node:path";
import agency from "../../agency.json" with { type: "json" };
import type { App } from "./app";
import { repoRoot } from "./paths";
import { statementsOf } from "./schema";

/**
 * A database as release 66b2b0b (the last one before migrations) made and
 * filled it: its schema.sql, applied by hand, and rows in every table in the
 * shapes that release wrote. The upgrade test migrates it and reads it all back.
 */
export const SCHEMA_FILE = join(repoRoot, "tests/fixtures/schema-66b2b0b.sql");

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const domain = agency.agency.staffEmailDomain;

/** Stored the way that release stored passwords (its iteration count in the string). */
export function passwordHash(password: string, iterations = 1000): string {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  return `pbkdf2-sha256$${iterations}$${b64(salt)}$${b64(hash)}`;
}

/** A one-time secret as that release handed them out, and the hash it kept. */
export function secret(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: createHash("sha256").update(token).digest("hex") };
}

export type Row = Record<string, string | number | null>;

export function releaseData(now = Date.now()) {
  const owner = { email: `ana.antiga@${domain}`, password: "senha-de-antes-2025" };
  const colleague = { email: `bruno.antigo@${domain}`, password: "outra-senha-antiga" };
  const pendingStaff = `carla.pendente@${domain}`;
  const link = secret();
  const colleagueRefresh = secret();
  const rotatedRefresh = secret();
  const windowStart = now - (now % (15 * MINUTE));

  const lead = (n: number, extra: Row): Row => ({
    id: `antigo-${n}`,
    name: `Lead Antigo ${n}`,
    email: `lead.antigo${n}@example.com`,
    whatsapp: `+554999900${String(n).padStart(4, "0")}`,
    origem: "site",
    jetimob_enviado: 0,
    created_at: now - (30 - n) * DAY,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    gclid: null,
    fbclid: null,
    referrer: null,
    page_url: null,
    submission_count: 1,
    last_submitted_at: now - (30 - n) * DAY,
    delivery_status: "pending",
    delivery_attempts: 0,
    next_attempt_at: now + HOUR,
    lease_until: null,
    last_error: null,
    sent_at: null,
    sent_by: null,
    jetimob_lead_id: null,
    ...extra,
  });

  const leads: Row[] = [
    lead(1, {
      name: "Joana Sent Pela Integração",
      jetimob_enviado: 1,
      delivery_status: "sent",
      delivery_attempts: 1,
      next_attempt_at: null,
      sent_at: now - 29 * DAY,
      sent_by: "crm",
      jetimob_lead_id: "98765",
      origem: "google",
      utm_source: "google",
      utm_medium: "cpc",
      utm_campaign: "pre-lancamento",
      utm_term: "condominio videira",
      gclid: "g-antigo-1",
      referrer: "https://www.google.com/",
      page_url: "https://recantodasvideiras.com.br/?utm_source=google&gclid=g-antigo-1",
    }),
    lead(2, {
      name: "Marcos Marcado Pela Equipe",
      jetimob_enviado: 1,
      delivery_status: "sent",
      delivery_attempts: 3,
      next_attempt_at: null,
      last_error: "HTTP 500: erro interno",
      sent_at: now - 27 * DAY,
      sent_by: "staff",
      origem: "instagram",
      utm_source: "instagram",
      utm_medium: "social",
      utm_content: "video-vinhedo",
      fbclid: "fb-antigo-2",
    }),
    lead(3, {
      name: "Fátima Falhou Conceição",
      delivery_status: "failed",
      delivery_attempts: 32,
      next_attempt_at: null,
      last_error: "HTTP 401 (chaves recusadas): invalid key",
      origem: "facebook",
    }),
    lead(4, {
      name: "Paulo Pendente Repetido",
      submission_count: 3,
      last_submitted_at: now - 2 * DAY,
      delivery_attempts: 2,
      last_error: "Sem resposta do Jetimob em 5 s",
      next_attempt_at: now - MINUTE,
      origem: "evento-vinicola",
    }),
    lead(5, { name: "Renata Recém-Chegada", created_at: now - HOUR, last_submitted_at: now - HOUR }),
    lead(6, { name: '<b>O\'Brien</b> "aspas" 🍇', email: "obrien.antigo@example.com" }),
  ];

  const staffUsers: Row[] = [
    {
      id: "staff-antigo-1",
      email: owner.email,
      password_hash: passwordHash(owner.password),
      created_at: now - 40 * DAY,
      confirmed_at: now - 40 * DAY + MINUTE,
    },
    {
      id: "staff-antigo-2",
      email: colleague.email,
      password_hash: passwordHash(colleague.password),
      created_at: now - 20 * DAY,
      confirmed_at: now - 20 * DAY + MINUTE,
    },
    {
      id: "staff-antigo-3",
      email: pendingStaff,
      password_hash: passwordHash("ainda-nao-confirmada"),
      created_at: now - HOUR,
      confirmed_at: null,
    },
  ];

  const emailConfirmations: Row[] = [
    {
      token_hash: secret().hash,
      user_id: "staff-antigo-1",
      created_at: now - 40 * DAY,
      expires_at: now - 39 * DAY,
      used_at: now - 40 * DAY + MINUTE,
    },
    {
      token_hash: link.hash,
      user_id: "staff-antigo-3",
      created_at: now - HOUR,
      expires_at: now + 23 * HOUR,
      used_at: null,
    },
  ];

  const staffSessions: Row[] = [
    {
      id: "sessao-antiga-1",
      user_id: "staff-antigo-1",
      created_at: now - 10 * DAY,
      last_used_at: now - DAY,
      expires_at: now - DAY + 30 * DAY,
      revoked_at: now - HOUR,
    },
    {
      id: "sessao-antiga-2",
      user_id: "staff-antigo-2",
      created_at: now - 2 * DAY,
      last_used_at: now - HOUR,
      expires_at: now - HOUR + 30 * DAY,
      revoked_at: null,
    },
  ];

  const refreshTokens: Row[] = [
    {
      token_hash: rotatedRefresh.hash,
      session_id: "sessao-antiga-2",
      created_at: now - 2 * DAY,
      rotated_at: now - HOUR,
      successor_hash: colleagueRefresh.hash,
    },
    {
      token_hash: colleagueRefresh.hash,
      session_id: "sessao-antiga-2",
      created_at: now - HOUR,
      rotated_at: null,
      successor_hash: null,
    },
    {
      token_hash: secret().hash,
      session_id: "sessao-antiga-1",
      created_at: now - 10 * DAY,
      rotated_at: null,
      successor_hash: null,
    },
  ];

  const rateLimits: Row[] = [
    { key: "lead:203.0.113.50", window_start: now - (now % (10 * MINUTE)), count: 4 },
    { key: `login-email:${colleague.email}`, window_start: windowStart, count: 2 },
    { key: "login-email:bloqueado@example.com", window_start: windowStart, count: 5 },
    { key: "signup:203.0.113.51", window_start: now - (now % HOUR), count: 1 },
  ];

  const auditLog: Row[] = [
    {
      id: 1,
      at: now - 27 * DAY,
      staff_id: "staff-antigo-1",
      staff_email: owner.email,
      action: "mark_sent",
      lead_id: "antigo-2",
    },
    {
      id: 2,
      at: now - 5 * DAY,
      staff_id: "staff-antigo-2",
      staff_email: colleague.email,
      action: "resend",
      lead_id: "antigo-3",
    },
    {
      id: 3,
      at: now - 4 * DAY,
      staff_id: "staff-antigo-1",
      staff_email: owner.email,
      action: "delete",
      lead_id: "antigo-apagado",
    },
  ];

  return {
    owner,
    colleague,
    pendingStaff,
    confirmationToken: link.token,
    colleagueRefreshToken: colleagueRefresh.token,
    rotatedRefreshToken: rotatedRefresh.token,
    /** Each table of that release, its key and its rows. */
    tables: {
      leads: { key: "id", rows: leads },
      staff_users: { key: "id", rows: staffUsers },
      email_confirmations: { key: "token_hash", rows: emailConfirmations },
      staff_sessions: { key: "id", rows: staffSessions },
      refresh_tokens: { key: "token_hash", rows: refreshTokens },
      rate_limits: { key: "key", rows: rateLimits },
      audit_log: { key: "id", rows: auditLog },
    } as Record<string, { key: string; rows: Row[] }>,
  };
}

export type ReleaseData = ReturnType<typeof releaseData>;

/** Makes `app`'s empty D1 what that release would have left: its schema and `data`. */
export async function buildReleaseDatabase(app: App, data: ReleaseData): Promise<void> {
  const schema = await statementsOf(SCHEMA_FILE);
  await app.batch(schema.map((s): [string] => [s]));
  const inserts: [string, ...unknown[]][] = [];
  for (const [table, { rows }] of Object.entries(data.tables)) {
    for (const row of rows) {
      const columns = Object.keys(row);
      const places = columns.map((_, i) => `?${i + 1}`).join(", ");
      inserts.push([`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${places})`, ...Object.values(row)]);
    }
  }
  await app.batch(inserts);
}

const SESSION_LIFETIME = 30 * DAY;

/**
 * The rows each table must hold after every migration, in that release's
 * columns: what the migrations change on purpose, and nothing else.
 * 0002: a session ends 30 days after its sign-in, however it was extended.
 */
export function expectedAfterUpgrade(data: ReleaseData, table: string): Row[] {
  const spec = data.tables[table];
  if (!spec) throw new Error(`no table ${table} in that release`);
  const rows = spec.rows.map((row) =>
    table === "staff_sessions"
      ? { ...row, expires_at: Math.min(Number(row.expires_at), Number(row.created_at) + SESSION_LIFETIME) }
      : row,
  );
  return sortedBy(rows, spec.key);
}

/** The rows of `table` now, in the columns that release had, ordered by its key. */
export async function rowsNow(app: App, data: ReleaseData, table: string): Promise<Row[]> {
  const spec = data.tables[table];
  if (!spec) throw new Error(`no table ${table} in that release`);
  const columns = Object.keys(spec.rows[0] ?? {});
  return app.sql<Row>(`SELECT ${columns.join(", ")} FROM ${table} ORDER BY ${spec.key}`);
}

/** `rows` in SQLite's order of `key` (numbers by value, text byte by byte). */
export function sortedBy(rows: Row[], key: string): Row[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [a[key], b[key]];
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
  });
}
