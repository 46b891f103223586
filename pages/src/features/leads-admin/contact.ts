import agencyJson from "../../../../agency.json";
import { agency, development } from "../../config/agency";
import type { Lead } from "./api";

/**
 * The first WhatsApp message a broker sends a lead: agency.json's
 * `panel.whatsappGreeting`, filled as the worker fills it for the notices'
 * links (worker/src/agency/greeting.rs): the person's first name, the broker's
 * (from their e-mail: staff accounts hold an e-mail only), the agency's and
 * the development's names.
 */
const GREETING: string = agencyJson.panel.whatsappGreeting;
/** The address of a lead in Jetimob (`{id}` for its code), or "" when the agency has not given it. */
const JETIMOB_LEAD_URL: string = agencyJson.panel.jetimobLeadUrl;

/** The first word of a name as it was typed ('Ana' of 'Ana Souza'). */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? "";
}

/** A staff member's first name from their e-mail: 'Ana' of `ana.souza@…`; "" without letters. */
export function staffFirstName(email: string): string {
  const word = (email.split("@")[0] ?? "").split(/[._+-]/)[0] ?? "";
  const letters = [...word].filter((c) => /\p{L}/u.test(c)).join("");
  return letters ? letters[0]?.toUpperCase() + letters.slice(1).toLowerCase() : "";
}

/** The greeting from the broker signed in as `staffEmail` to the lead named `leadName`. */
export function greeting(leadName: string, staffEmail: string): string {
  const broker = staffFirstName(staffEmail) || "a equipe";
  return GREETING.replaceAll("{nome}", firstName(leadName))
    .replaceAll("{corretor}", broker)
    .replaceAll("{imobiliaria}", agency.name)
    .replaceAll("{empreendimento}", development.name);
}

/** A WhatsApp chat with `e164` that opens with `text` typed in. */
export function whatsappHref(e164: string, text: string): string {
  return `https://wa.me/${e164.replace(/\D/g, "")}?text=${encodeURIComponent(text)}`;
}

/** A call to `e164` from the phone: `tel:+5549…`. */
export function telHref(e164: string): string {
  return `tel:+${e164.replace(/\D/g, "")}`;
}

/** A Brazilian landline ('fixo', a DDD and eight digits starting 2 to 5), as the worker marks `landline`. */
export function isLandline(e164: string): boolean {
  return /^\+55[1-9]\d[2-5]\d{7}$/.test(e164);
}

/** Whether the number takes WhatsApp: a Brazilian landline ('fixo') is called. */
export function takesWhatsapp(lead: Pick<Lead, "landline">): boolean {
  return !lead.landline;
}

/** The lead's page in Jetimob, when agency.json says where Jetimob keeps its leads; else null. */
export function jetimobLeadHref(code: string, pattern: string = JETIMOB_LEAD_URL): string | null {
  if (!pattern.startsWith("https://") || !pattern.includes("{id}")) return null;
  return pattern.replaceAll("{id}", encodeURIComponent(code));
}

/** How long the lead waited for its first contact (ms), once it has one and it arrived since contacts are recorded. */
export function waitedMs(lead: Pick<Lead, "created_at" | "first_contact_at" | "contact_tracked">): number | null {
  if (!lead.first_contact_at || !lead.contact_tracked) return null;
  return Math.max(0, new Date(lead.first_contact_at).getTime() - new Date(lead.created_at).getTime());
}
