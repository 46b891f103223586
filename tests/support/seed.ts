/** A lead row as a test wants it stored; unspecified columns get plausible values. */
export type SeedLead = {
  id?: string;
  name?: string;
  email?: string;
  whatsapp?: string;
  origem?: string;
  created_at?: number;
  delivery_status?: "pending" | "sent" | "failed";
  delivery_attempts?: number;
  last_error?: string | null;
  next_attempt_at?: number | null;
  /** A sent lead's correction (of its WhatsApp) the CRM has not learned: waiting, or given up. */
  update_status?: "pending" | "failed" | null;
  update_last_error?: string | null;
  /** The first touch's campaign; `source` defaults to utm_source's one name, else 'Direto', as the worker derives it. */
  utm_source?: string | null;
  utm_medium?: string | null;
  utm_campaign?: string | null;
  utm_content?: string | null;
  utm_term?: string | null;
  source?: string;
};

/**
 * The one name of the spellings tests give a lead's utm_source, as the
 * worker folds them (worker/src/attribution/sources.rs holds the whole table);
 * anything else as typed, trimmed.
 */
export function sourceOf(utmSource: string | null | undefined): string | undefined {
  if (utmSource === null || utmSource === undefined) return undefined;
  const names: Record<string, string> = {
    instagram: "Instagram",
    ig: "Instagram",
    insta: "Instagram",
    facebook: "Facebook",
    fb: "Facebook",
    google: "Google",
    whatsapp: "WhatsApp",
    youtube: "YouTube",
    tiktok: "TikTok",
    email: "E-mail",
    direto: "Direto",
  };
  return names[utmSource.trim().toLowerCase()] ?? utmSource.trim();
}

let serial = 0;

const INSERT_LEAD = `INSERT INTO leads (id, name, email, whatsapp, origem, created_at, last_submitted_at,
    delivery_status, delivery_attempts, last_error, next_attempt_at, sent_at, sent_by,
    sent_name, sent_email, sent_whatsapp, update_status, update_last_error, update_requested_at,
    utm_source, utm_medium, utm_campaign, utm_content, utm_term, source)
  VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
    ?20, ?21, ?22, ?23, ?24)`;

/**
 * Writes leads straight into D1 (as if they had arrived over time), in one
 * batch; returns them with their ids. The search index fills through the
 * schema's triggers, as it does for real submissions.
 */
export async function insertLeads(
  db: { batch(statements: [string, ...unknown[]][]): Promise<void> },
  leads: SeedLead[],
): Promise<Required<SeedLead>[]> {
  const now = Date.now();
  const rows = leads.map((l, i) => {
    serial += 1;
    const n = serial;
    const status = l.delivery_status ?? "pending";
    const created = l.created_at ?? now - (leads.length - i) * 60_000;
    return {
      id: l.id ?? `seed-${now}-${n}`,
      name: l.name ?? `Pessoa Semente ${n}`,
      email: l.email ?? `semente${n}.${now}@example.com`,
      whatsapp: l.whatsapp ?? `+55499${String(now + n).slice(-8)}`,
      origem: l.origem ?? "site",
      created_at: created,
      delivery_status: status,
      delivery_attempts: l.delivery_attempts ?? (status === "pending" ? 0 : 1),
      last_error: l.last_error ?? (status === "failed" ? "HTTP 500: erro interno" : null),
      next_attempt_at:
        l.next_attempt_at === undefined ? (status === "pending" ? created + 3_600_000 : null) : l.next_attempt_at,
      update_status: status === "sent" ? (l.update_status ?? null) : null,
      update_last_error: l.update_last_error ?? (l.update_status === "failed" ? "HTTP 500: erro interno" : null),
      utm_source: l.utm_source ?? null,
      utm_medium: l.utm_medium ?? null,
      utm_campaign: l.utm_campaign ?? null,
      utm_content: l.utm_content ?? null,
      utm_term: l.utm_term ?? null,
      source: l.source ?? sourceOf(l.utm_source) ?? "Direto",
    };
  });
  await db.batch(
    rows.map((r): [string, ...unknown[]] => [
      INSERT_LEAD,
      r.id,
      r.name,
      r.email,
      r.whatsapp,
      r.origem,
      r.created_at,
      r.delivery_status,
      r.delivery_attempts,
      r.last_error,
      r.next_attempt_at,
      r.delivery_status === "sent" ? r.created_at + 1000 : null,
      r.delivery_status === "sent" ? "crm" : null,
      // What the CRM has: the lead's details, or its WhatsApp before the correction.
      r.delivery_status === "sent" ? r.name : null,
      r.delivery_status === "sent" ? r.email : null,
      r.delivery_status !== "sent"
        ? null
        : r.update_status
          ? `${r.whatsapp.slice(0, -1)}${(Number(r.whatsapp.at(-1)) + 1) % 10}`
          : r.whatsapp,
      r.update_status,
      r.update_status ? r.update_last_error : null,
      r.update_status ? r.created_at + 2000 : null,
      r.utm_source,
      r.utm_medium,
      r.utm_campaign,
      r.utm_content,
      r.utm_term,
      r.source,
    ]),
  );
  return rows;
}
