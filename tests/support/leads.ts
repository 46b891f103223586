import type { App } from "./app";
import type { FakeJetimob } from "./fake-jetimob";
import { eventually } from "./net";

export const LEAD_PATH = "/functions/v1/send-lead-jetimob";

let nextIp = 1;
/**
 * A fresh address on a network of its own (a private /24 each, 65,536 of
 * them), so tests share no rate-limit counter, nor the room for visits and
 * new campaigns one network gets a day (campaigns/visits.rs).
 */
export function uniqueIp(): string {
  const n = nextIp++;
  return `10.${Math.floor(n / 256) % 256}.${n % 256}.1`;
}

let nextPerson = 1;
/** A valid lead no other test uses. */
export function aLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const n = nextPerson++;
  const suffix = String(1000 + n).slice(-4);
  return {
    name: `Pessoa Teste ${n}`,
    email: `pessoa${n}.${Date.now()}@example.com`,
    whatsapp: `(49) 9${String(Date.now()).slice(-4)}-${suffix}`,
    ...overrides,
  };
}

export type Answer = { status: number; body: Record<string, unknown>; headers: Headers };

/**
 * A visitor's browser: it keeps the cookies the site sets (the proof that it
 * sent a lead) and sends them back, as a browser does. Without one, each
 * post comes from a browser of its own that keeps nothing.
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  header(): string | undefined {
    const pairs = [...this.cookies].map(([name, value]) => `${name}=${value}`);
    return pairs.length ? pairs.join("; ") : undefined;
  }

  keep(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value && !/Max-Age=0\b/.test(cookie)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
  }
}

/** Each person's own browser, known by the e-mails and numbers it sent. */
const personsBrowsers = new Map<string, Browser>();

/**
 * The browser of the person who sends `body`: the one that sent their
 * e-mail or WhatsApp before (a visitor who corrects a detail does it from
 * their own browser, which holds the proof), else a new one. Keyed by the
 * values as typed, as the tests type them.
 */
export function ownBrowser(body: Record<string, unknown>): Browser {
  const keys = [body.email, body.whatsapp].filter((k): k is string => typeof k === "string");
  const browser = keys.map((k) => personsBrowsers.get(k)).find(Boolean) ?? new Browser();
  for (const key of keys) personsBrowsers.set(key, browser);
  return browser;
}

export async function postLead(
  app: App,
  body: unknown,
  options: {
    ip?: string;
    headers?: Record<string, string>;
    raw?: string;
    method?: string;
    browser?: Browser;
  } = {},
): Promise<Answer> {
  const cookie = options.browser?.header();
  const response = await fetch(app.baseUrl + LEAD_PATH, {
    method: options.method ?? "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": options.ip ?? uniqueIp(),
      Origin: app.baseUrl,
      ...(cookie ? { Cookie: cookie } : {}),
      ...options.headers,
    },
    body: options.method === "GET" ? undefined : (options.raw ?? JSON.stringify(body)),
  });
  options.browser?.keep(response);
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text };
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

export async function countLeads(app: App): Promise<number> {
  const [row] = await app.sql<{ n: number }>("SELECT count(*) AS n FROM leads");
  return row?.n ?? 0;
}

/**
 * Moves a lead's delivery `ms` into the past (the clock, by SQL): when the
 * lead arrived (or its correction was asked for, with `kind` "update") and
 * when each of its attempts was made, since its week of retries counts from
 * the first; and makes its next attempt due now.
 */
export async function ageDelivery(
  app: Pick<App, "batch">,
  email: string,
  ms: number,
  kind: "lead" | "update" = "lead",
): Promise<void> {
  const lead =
    kind === "lead"
      ? "UPDATE leads SET created_at = created_at - ?1, next_attempt_at = 0 WHERE email = ?2"
      : "UPDATE leads SET update_requested_at = update_requested_at - ?1, update_next_attempt_at = 0 WHERE email = ?2";
  await app.batch([
    [lead, ms, email],
    [
      "UPDATE crm_attempts SET at = at - ?1 WHERE kind = ?3 AND lead_id = (SELECT id FROM leads WHERE email = ?2)",
      ms,
      email,
      kind,
    ],
  ]);
}

/**
 * The lead with `email` once the delivery engine let go of it: neither it nor
 * its correction claimed for an attempt (within 15 s).
 */
export function settledLead(app: Pick<App, "sql">, email: string) {
  return eventually(async () => {
    const [row] = await app.sql<{ id: string; lease_until: number | null; update_lease_until: number | null }>(
      "SELECT id, lease_until, update_lease_until FROM leads WHERE email = ?1",
      email,
    );
    return row && row.lease_until === null && row.update_lease_until === null ? row : undefined;
  }, 15_000);
}

/**
 * Returns once a lead of its own, sent now, has reached the fake CRM. The
 * worker starts a lead's first attempt as it answers (`wait_until`), and D1
 * runs statements in the order they come: an attempt on any lead answered
 * before this one, had the worker started one, came first. A test that says
 * nothing more was sent waits for this rather than for a while.
 */
export async function afterTheAttemptsBefore(app: App, crm: FakeJetimob): Promise<void> {
  // A São Paulo number, which no test's own lead has: the marker is nobody's duplicate.
  const marker = aLead({ name: "Marcador Da Fila", whatsapp: `(11) 9${String(Date.now()).slice(-8)}` });
  const answer = await postLead(app, marker);
  if (answer.status !== 200) throw new Error(`the marker lead was refused: ${JSON.stringify(answer.body)}`);
  await eventually(async () => crm.callsFor(String(marker.email)).length > 0);
}
