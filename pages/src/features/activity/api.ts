import { apiRequest } from "../../lib/api";
import type { AuditAction } from "../../lib/vocabulary";

/** What an export's entry keeps: the list's filter as its address names it, its rows, and how it ended. */
export type ExportDetail = {
  filter?: Record<string, string>;
  rows?: number;
  state?: "running" | "complete" | "right_taken" | "session_ended" | "failed";
};
/** A right an owner gave a colleague or took away. */
export type PermissionDetail = { right?: "export" | "delete" | "mark_sent" | "import_spend"; allowed?: boolean };
/** Leads someone without 'Exportar CSV' was shown in an hour, and how many they worked. */
export type BulkReadDetail = { read?: number; worked?: number };
/** An owners' choice for the panel and its new value (a number; 1 or 0 for a switch). */
export type SettingsDetail = { name?: string; value?: number };

export type Entry = {
  id: number;
  at: string | null;
  actor_email: string;
  actor_id: string | null;
  action: AuditAction;
  lead_id: string | null;
  /** The lead's name as it is now; null once it was deleted. */
  lead_name: string | null;
  account_id: string | null;
  account_email: string | null;
  detail: (ExportDetail & PermissionDetail & BulkReadDetail & SettingsDetail) | null;
};

export type Person = { id: string; email: string };

export type ActivityPage = { entries: Entry[]; next_before: string | null; page_size: number; people: Person[] };

/** What 'Atividade' shows: whose, which action, which Brasília days ("" for any). */
export type ActivityFilter = { pessoa: string; acao: string; de: string; ate: string };

export const NO_FILTER: ActivityFilter = { pessoa: "", acao: "", de: "", ate: "" };

/** The filter as the address (and the API) write it: only what narrows. */
export function filterQuery(filter: ActivityFilter): URLSearchParams {
  const query = new URLSearchParams();
  for (const key of ["pessoa", "acao", "de", "ate"] as const) if (filter[key]) query.set(key, filter[key]);
  return query;
}

/** A page of the audit trail under `filter`, newest first; `before` an entry's key for the page after it. */
export function fetchActivity(
  filter: ActivityFilter,
  before: string | null,
  signal?: AbortSignal,
): Promise<ActivityPage> {
  const query = filterQuery(filter);
  if (before) query.set("before", before);
  const text = query.toString();
  return apiRequest<ActivityPage>(`/api/audit${text ? `?${text}` : ""}`, { staff: true, signal });
}
