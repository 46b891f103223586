import type { App } from "./app";

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
