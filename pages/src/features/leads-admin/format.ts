import { formatCount, sourceName } from "../../lib/format";
import type { Lead, LeadsPage } from "./api";

/**
 * A `mailto:` link to exactly this address. Lead e-mails come from visitors:
 * a `?`, `&` or `%` in one must not add a Cc, a Bcc or a body to a staff
 * reply, so every character outside the safe set is percent-encoded.
 */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 0) return `mailto:${encodeURIComponent(email)}`;
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`;
}

/** The digits wa.me needs to open a chat with the number. */
export function whatsappChat(e164: string): string {
  return `https://wa.me/${e164.replace(/\D/g, "")}`;
}

/**
 * Whether the CRM refused something of the lead for good that a person can
 * send again ('Reenviar'): the lead itself, or the visitor's correction of a
 * lead it already has.
 */
export function needsResend(lead: Pick<Lead, "delivery_status" | "update_status">): boolean {
  return lead.delivery_status === "failed" || (lead.delivery_status === "sent" && lead.update_status === "failed");
}

/**
 * Whether 'Marcar Enviado' applies: the lead is not in Jetimob yet, or Jetimob
 * lacks the visitor's correction and the worker will not send it (it gave up,
 * or the integration is not configured), so staff enter it by hand.
 */
export function canMarkSent(lead: Pick<Lead, "jetimob_enviado" | "update_status">, crmConfigured: boolean): boolean {
  return (
    !lead.jetimob_enviado || lead.update_status === "failed" || (lead.update_status === "pending" && !crmConfigured)
  );
}

type Attribution = Partial<
  Pick<
    Lead,
    | "source"
    | "referrer_host"
    | "utm_medium"
    | "utm_campaign"
    | "utm_content"
    | "utm_term"
    | "gclid"
    | "gbraid"
    | "wbraid"
    | "fbclid"
    | "msclkid"
    | "ttclid"
  >
>;

/** The text of an attribution field, or null for a missing or blank one. */
function filled(value: string | null | undefined): string | null {
  return value?.trim() || null;
}

/**
 * What the staff need to know, beyond the origin, about how a lead arrived:
 * the campaign, ad and medium of its link, and whether it came from a paid click,
 * a short line each. Empty when the link carried none of them.
 */
export function attributionNotes(lead: Attribution): string[] {
  const parts: string[] = [];
  const campaign = filled(lead.utm_campaign);
  const ad = filled(lead.utm_content);
  const medium = filled(lead.utm_medium);
  if (campaign) parts.push(`campanha ${campaign}`);
  if (ad) parts.push(`anúncio ${ad}`);
  if (medium) parts.push(`mídia ${medium}`);
  if (lead.gclid || lead.gbraid || lead.wbraid) parts.push("anúncio Google");
  if (lead.fbclid) parts.push("anúncio Meta");
  if (lead.msclkid) parts.push("anúncio Microsoft");
  if (lead.ttclid) parts.push("anúncio TikTok");
  return parts;
}

/**
 * Every attribution field the lead has, named, for its own page: its source,
 * the tags and ad click ids of its link, and, when the link had no tags, the
 * site it came from.
 */
export function attributionFacts(lead: Attribution): { label: string; value: string }[] {
  const fields: [string, string | null | undefined][] = [
    ["Fonte", lead.source && sourceName(lead.source)],
    ["UTM Medium", lead.utm_medium],
    ["Campanha", lead.utm_campaign],
    ["Anúncio", lead.utm_content],
    ["Palavra-chave", lead.utm_term],
    ["GCLID", lead.gclid],
    ["GBRAID", lead.gbraid],
    ["WBRAID", lead.wbraid],
    ["FBCLID", lead.fbclid],
    ["MSCLKID", lead.msclkid],
    ["TTCLID", lead.ttclid],
    ["Veio de", lead.referrer_host],
  ];
  return fields.flatMap(([label, value]) => {
    const text = filled(value);
    return text ? [{ label, value: text }] : [];
  });
}

/** The pager's line, also said to screen readers after a view staff asked for: '1–50 de 60 leads · página 1 de 2'. */
export function pageSummary(page: Pick<LeadsPage, "page" | "page_size" | "total" | "pages">): string {
  const first = (page.page - 1) * page.page_size + 1;
  const last = Math.min(page.total, page.page * page.page_size);
  return `${formatCount(first)}–${formatCount(last)} de ${formatCount(page.total)} ${page.total === 1 ? "lead" : "leads"} · página ${formatCount(page.page)} de ${formatCount(Math.max(1, page.pages))}`;
}
