import { apiRequest, readAnswer, staffFetch } from "../../lib/api";
import { downloadStaffFile } from "../../lib/download";
import { type ListParams, toSearch } from "../../lib/leadLinks";
import type { AuditAction } from "../../lib/vocabulary";

export type DeliveryStatus = "pending" | "sent" | "failed";

/** Where a visit came from: its campaign tags, ad click ids, referrer and page. */
export type Attribution = {
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  fbclid: string | null;
  msclkid: string | null;
  ttclid: string | null;
  referrer: string | null;
  page_url: string | null;
};

export type Lead = Attribution & {
  id: string;
  /** Where the lead came from: its utm_source, else a bucket of its referrer ('instagram', a site's host, 'direto'). */
  source: string;
  /** The host of the referrer of a lead that came without UTM tags. */
  referrer_host: string | null;
  name: string;
  email: string;
  whatsapp: string;
  whatsapp_display: string;
  origem: string;
  jetimob_enviado: boolean;
  delivery_status: DeliveryStatus;
  delivery_attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  sent_by: "crm" | "staff" | null;
  /** Who marked it sent ('Marcar Enviado'), for a lead staff marked: their e-mail. */
  marked_by: string | null;
  created_at: string;
  submission_count: number;
  last_submitted_at: string;
  /** A correction of the lead the CRM still has to learn. */
  update_status: "pending" | "failed" | null;
  update_last_error: string | null;
  /** Another lead a submission tied this one to ('Possível duplicado'). */
  duplicate_of: string | null;
  /** The newest submission: when, and where that visit came from. */
  last_touch: LastTouch | null;
  /** Changes waiting for staff: details sent without the proof the lead's own browser keeps. */
  pending_changes: number;
  /** Its WhatsApp number is a landline ('fixo'): call it rather than write. */
  landline: boolean;
  /** The questions after 'Sucesso!' it answered (agency.json's): question id → the option chosen. */
  answers: Record<string, string> | null;
  /** When an answer last changed. */
  answers_at: string | null;
  /** The lead's code in Jetimob, once Jetimob took it and said it. */
  jetimob_lead_id: string | null;
  /** The first contact ('Já falei'): when, and who (their id and e-mail); null until someone records it. */
  first_contact_at: string | null;
  contacted_by_id: string | null;
  contacted_by: string | null;
  /** It arrived once the panel recorded first contacts: without one, it waits for its first contact. */
  contact_tracked: boolean;
};

/** The newest submission a lead took: when, its origin and its whole attribution. */
export type LastTouch = Attribution & {
  at: string | null;
  origem: string;
};

/**
 * The panel's counters, over the period, campaign and contact filter on
 * screen. `delivered` (in Jetimob, nothing refused), `pending` (on its way:
 * the site sends it by itself) and `attention` (Jetimob refused the lead, or
 * its correction, for good: a person must act) count each lead once and add
 * up to `total`. `sent`: every lead in Jetimob; `failed`: those it never took.
 */
export type Counts = {
  total: number;
  sent: number;
  pending: number;
  failed: number;
  attention: number;
  duplicates: number;
  delivered: number;
  /** 'Não contatados' and 'Contatados por mim', over the period and campaign. */
  uncontacted: number;
  mine: number;
};

/**
 * What the person signed in may do to leads: 'Exportar CSV', 'Excluir' and
 * 'Marcar Enviado' (with 'Desfazer'). Owners may always; a colleague, what an
 * owner left them. The panel shows only these buttons; the worker refuses the others.
 */
export type Rights = { export: boolean; delete: boolean; mark_sent: boolean };

export type LeadsPage = {
  leads: Lead[];
  page: number;
  page_size: number;
  total: number;
  pages: number;
  /** Where this page starts and ends: what 'Anterior' and 'Próxima' send back. */
  first: string | null;
  last: string | null;
  counts: Counts;
  /** Leads whose new details wait for staff ('Alteração pendente'). */
  pending_changes: number;
  /** Leads Jetimob refused for good over every lead, for the banner ('2 leads recusados pelo Jetimob'). */
  refused: number;
  crm_configured: boolean;
  /** While leads are not reaching Jetimob: what the owners' alert said. */
  incident: Incident | null;
  rights: Rights;
};

export type Incident = {
  /** When it began; null for a cron that never ran. */
  since: number | null;
  /** No lead reaches Jetimob ('down'), Jetimob refused a few for good ('refused'), or something else. */
  standing: "down" | "refused" | "other";
  /** Its line when folded ('Jetimob fora do ar: …'); 'refused' is worded with how many. */
  title: string;
  summary: string;
  /** While leads wait: how long the oldest has ('O mais antigo espera há 35 minutos.'). */
  oldest_waiting?: string;
  /** Each trouble, and what to do; `owners`: a step only an owner of the panel can take. */
  details: { what: string; todo: string; owners: boolean }[];
  /** What became of the leads: all kept, or some visitors refused by the form. */
  kept: string;
};

/** Where a page starts, known when it was reached with 'Próxima' or 'Anterior'. */
export type PageStart = { after: string } | { before: string };

/** A page of leads as the worker answered it for `url`, with its tag (ETag). */
export type TaggedPage = { url: string; tag: string | null; page: LeadsPage };

/**
 * A page of leads. With `start` the worker seeks straight to it; without
 * (a reload, a shared link) it finds the page by its number. With `known`,
 * the page last shown, its tag goes along: while no lead changed the worker
 * answers 304 (reading a few rows, not the page) and `known` is kept.
 */
export async function fetchLeads(
  params: ListParams,
  start?: PageStart,
  signal?: AbortSignal,
  known?: TaggedPage | null,
): Promise<TaggedPage> {
  const search = new URLSearchParams(toSearch(params));
  if (start && "after" in start) search.set("after", start.after);
  if (start && "before" in start) search.set("before", start.before);
  const query = search.toString();
  const url = `/api/leads${query ? `?${query}` : ""}`;
  const asked = known?.url === url && known.tag ? known : null;
  const headers: Record<string, string> = asked?.tag ? { "If-None-Match": asked.tag } : {};
  const response = await staffFetch(url, { signal, headers });
  if (response.status === 304 && asked) return asked;
  const page = await readAnswer<LeadsPage>(response);
  return { url, tag: response.headers.get("ETag"), page };
}

/**
 * One time the visitor sent the form, as it was sent: a new lead, a repeat,
 * a correction, one whose WhatsApp was another lead's ('conflict'), a change
 * from a browser that did not prove it sent the lead, waiting for staff
 * ('pending'), or one staff refused.
 */
export type Submission = Attribution & {
  id: number;
  at: string | null;
  name: string;
  email: string;
  whatsapp: string;
  whatsapp_display: string;
  origem: string;
  kind: "new" | "repeat" | "correction" | "conflict" | "pending" | "refused";
  /** A change refused without staff: replaced by a newer one from its sender, or past the lead's limit. */
  auto_refused: "replaced" | "limit" | null;
};

/** 'Aceitar' or 'Recusar' a change waiting for staff: the lead takes its details, or keeps its own. */
export function decideChange(leadId: string, changeId: number, decision: "accept" | "refuse"): Promise<unknown> {
  return apiRequest(`/api/leads/${encodeURIComponent(leadId)}/changes/${changeId}/${decision}`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

/** 'Recusar todas': every change waiting on the lead is refused; how many were. */
export function refuseAllChanges(leadId: string): Promise<{ refused: number }> {
  return apiRequest<{ refused: number }>(`/api/leads/${encodeURIComponent(leadId)}/changes/refuse-all`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

export type Attempt = {
  id: number;
  at: string | null;
  kind: "lead" | "update";
  outcome: "sent" | "failed";
  detail: string | null;
};
export type StaffAction = { id: number; at: string | null; staff_email: string; action: AuditAction };
export type LinkedLead = { id: string; name: string; email: string; whatsapp_display: string };

/**
 * A lead's story, for its own page: its first submission and its newest
 * ones, its newest attempts and staff actions, and how many of each the
 * page leaves out (`hidden`).
 */
export type LeadStory = {
  lead: Lead;
  /** The lead's history: every submission but the changes waiting for staff. */
  submissions: Submission[];
  /** The changes waiting for staff, oldest first. */
  waiting_changes: Submission[];
  attempts: Attempt[];
  actions: StaffAction[];
  possible_duplicates: LinkedLead[];
  hidden: { submissions: number; attempts: number; actions: number };
  /** Its deliveries besides the lead's own to Jetimob (Meta's, its answers to Jetimob); none: não se aplica. */
  deliveries: Delivery[];
  /** Whether Meta's Conversions API is configured. */
  meta_configured: boolean;
  crm_configured: boolean;
  rights: Rights;
};

export function fetchLeadStory(id: string, signal?: AbortSignal): Promise<LeadStory> {
  return apiRequest<LeadStory>(`/api/leads/${encodeURIComponent(id)}`, { staff: true, signal });
}

/**
 * 'Marcar Enviado': the staff entered the lead in Jetimob with the details the
 * panel showed them. They go with the request, so a correction the visitor
 * sent meanwhile is still sent to Jetimob rather than taken as entered.
 */
export function markSent(lead: Pick<Lead, "id" | "name" | "email" | "whatsapp">): Promise<unknown> {
  const { name, email, whatsapp } = lead;
  return apiRequest(`/api/leads/${encodeURIComponent(lead.id)}/mark-sent`, {
    method: "POST",
    body: { name, email, whatsapp },
    staff: true,
  });
}

/**
 * 'Desfazer', right after 'Marcar Enviado': the lead goes back to what it was
 * ('pending', delivered by the worker again, or 'failed'). The worker refuses
 * it (409, with why) a minute after the mark, or to a colleague who did not mark it.
 */
export function unmarkSent(id: string): Promise<{ delivery_status: DeliveryStatus }> {
  return apiRequest<{ delivery_status: DeliveryStatus }>(`/api/leads/${encodeURIComponent(id)}/unmark-sent`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

export function deleteLead(id: string): Promise<unknown> {
  return apiRequest(`/api/leads/${encodeURIComponent(id)}`, { method: "DELETE", staff: true });
}

export type ResendResult = { delivered: boolean; last_error: string | null };

export function resendLead(id: string): Promise<ResendResult> {
  return apiRequest<ResendResult>(`/api/leads/${encodeURIComponent(id)}/resend`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

/** A lead's delivery to a destination besides Jetimob. */
export type Delivery = {
  destination: "meta" | "jetimob_answers";
  status: "pending" | "sent" | "failed" | "expired";
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  /** 'Reenviar' can still send it (its 7 days are not over). */
  can_resend: boolean;
};

/** 'Reenviar' to Meta: whether Meta took it now, and what it answered if not. */
export function resendToMeta(id: string): Promise<{ delivered: boolean; last_error: string | null }> {
  return apiRequest(`/api/leads/${encodeURIComponent(id)}/resend/meta`, { method: "POST", body: {}, staff: true });
}

/** A lead's first contact as the worker answers 'Já falei' and its 'Desfazer'. */
export type ContactAnswer = {
  /** This call recorded it (or undid it); false: someone else had already. */
  recorded: boolean;
  first_contact_at: string | null;
  contacted_by_id: string | null;
  contacted_by: string | null;
  /** Until when 'Desfazer' is taken, for whoever recorded it. */
  undo_until: string | null;
};

/** 'Já falei': records the first contact, unless someone already did (then says who). */
export function recordContact(id: string): Promise<ContactAnswer> {
  return apiRequest<ContactAnswer>(`/api/leads/${encodeURIComponent(id)}/contact`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

/** Its 'Desfazer', by whoever recorded it, within a minute. */
export function undoContact(id: string): Promise<ContactAnswer> {
  return apiRequest<ContactAnswer>(`/api/leads/${encodeURIComponent(id)}/uncontact`, {
    method: "POST",
    body: {},
    staff: true,
  });
}

/** 'Corrigir WhatsApp' of a lead Jetimob refused: the number as typed; 422 with why under the field. */
export function correctWhatsapp(id: string, whatsapp: string): Promise<unknown> {
  return apiRequest(`/api/leads/${encodeURIComponent(id)}/whatsapp`, {
    method: "POST",
    body: { whatsapp },
    staff: true,
  });
}

/** Downloads the CSV of the current filter (the whole list, not just the page shown). */
export function exportCsv(params: ListParams): Promise<void> {
  return downloadStaffFile(`/api/leads/export.csv${toSearch({ ...params, page: 1 })}`, "leads.csv");
}
