/**
 * The addresses of the leads list and of a lead's page: what the list reads
 * from its address bar, and what 'Campanhas' and 'Atividade' link to.
 */
import { adName, campaignName, sourceName } from "./format";

/** The panel's view, as it appears in the address bar. */
export type StatusFilter = "todos" | "pendentes" | "enviados" | "falhas" | "duplicados" | "alteracoes";
/**
 * Who spoke to the lead: every lead ("todos"), 'Não contatados' ("nao"),
 * 'Contatados por mim' ("meus"); "" is the person's default (see useListParams).
 */
export type ContactFilter = "" | "todos" | "nao" | "meus";
export type ListParams = { status: StatusFilter; contato: ContactFilter; q: string; page: number } & ListFilters;

/**
 * What the 'Campanhas' report links to: a period of Brasília days (`de`,
 * `ate`, "" for none) and a source, campaign and ad. For the campaign and
 * the ad, "" means the leads without one and null any lead.
 */
export type ListFilters = {
  de: string;
  ate: string;
  fonte: string;
  campanha: string | null;
  anuncio: string | null;
  /** The visitor's answers, each `{question id}:{option}` (agency.json's), one per question. */
  respostas: string[];
};

export const NO_FILTERS: ListFilters = { de: "", ate: "", fonte: "", campanha: null, anuncio: null, respostas: [] };

export function toSearch(params: ListParams): string {
  const search = new URLSearchParams();
  if (params.status !== "todos") search.set("status", params.status);
  if (params.contato) search.set("contato", params.contato);
  if (params.q.trim()) search.set("q", params.q.trim());
  if (params.de) search.set("de", params.de);
  if (params.ate) search.set("ate", params.ate);
  if (params.fonte) search.set("fonte", params.fonte);
  if (params.campanha !== null) search.set("campanha", params.campanha);
  if (params.anuncio !== null) search.set("anuncio", params.anuncio);
  for (const answer of params.respostas) search.append("resposta", answer);
  if (params.page > 1) search.set("page", String(params.page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** The address of the lead list showing only the leads `filters` name. */
export function listAddress(filters: Partial<ListFilters>): string {
  return `/admin${toSearch({ status: "todos", contato: "", q: "", page: 1, ...NO_FILTERS, ...filters })}`;
}

/** The address of a lead's own page. */
export function leadPath(id: string): string {
  return `/admin/leads/${encodeURIComponent(id)}`;
}

/**
 * The source, campaign and ad a list is narrowed to, as one path:
 * 'Instagram › lancamento › video-1', '(sem campanha)' for the leads without
 * one; '' when it is narrowed to none of them.
 */
export function campaignPath({ fonte, campanha, anuncio }: Partial<ListFilters>): string {
  const parts: string[] = [];
  if (fonte) parts.push(sourceName(fonte));
  if (campanha != null) parts.push(campaignName(campanha));
  if (anuncio != null) parts.push(adName(anuncio));
  return parts.join(" › ");
}

/** The list's views by Jetimob status, as the toolbar names them. */
export const STATUS_LABELS: Record<StatusFilter, string> = {
  todos: "Todos",
  pendentes: "Pendentes",
  enviados: "Enviados",
  falhas: "Falharam",
  duplicados: "Possível duplicado",
  alteracoes: "Alteração pendente",
};

/** A status filter's name as the toolbar shows it ('Pendentes' for `pendentes`). */
export function statusFilterLabel(status: string): string | undefined {
  return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status as StatusFilter] : undefined;
}
