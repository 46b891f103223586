import type { App } from "./app";
import { eventually } from "./net";

export const LEAD_PATH = "/functions/v1/send-lead-jetimob";

let nextIp = 1;
/** A fresh documentation-range address, so tests do not share a rate-limit counter. */
export function uniqueIp(): string {
  const n = nextIp++;
  return `198.51.${Math.floor(n / 250)}.${(n % 250) + 1}`;
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

export async function postLead(
  app: App,
  body: unknown,
  options: { ip?: string; headers?: Record<string, string>; raw?: string; method?: string } = {},
): Promise<Answer> {
  const response = await fetch(app.baseUrl + LEAD_PATH, {
    method: options.method ?? "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": options.ip ?? uniqueIp(),
      Origin: app.baseUrl,
      ...options.headers,
    },
    body: options.method === "GET" ? undefined : (options.raw ?? JSON.stringify(body)),
  });
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
