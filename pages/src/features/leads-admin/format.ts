import type { Lead } from "./api";

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

type Attribution = Partial<Pick<Lead, "utm_medium" | "utm_campaign" | "gclid" | "fbclid">>;

/**
 * What the staff need to know, beyond the origin, about how a lead arrived:
 * the campaign and medium of its link, and whether it came from a paid click,
 * a short line each. Empty when the link carried none of them.
 */
export function attributionNotes(lead: Attribution): string[] {
  const parts: string[] = [];
  const campaign = lead.utm_campaign?.trim();
  const medium = lead.utm_medium?.trim();
  if (campaign) parts.push(`campanha ${campaign}`);
  if (medium) parts.push(`mídia ${medium}`);
  if (lead.gclid) parts.push("anúncio Google");
  if (lead.fbclid) parts.push("anúncio Meta");
  return parts;
}
