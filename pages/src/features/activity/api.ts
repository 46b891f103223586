import { apiRequest } from "../../lib/api";

export type Entry = {
  id: number;
  at: string | null;
  actor_email: string;
  action: string;
  lead_id: string | null;
  account_id: string | null;
  account_email: string | null;
};

export type ActivityPage = { entries: Entry[]; next_before: number | null; page_size: number };

/** A page of the audit trail, newest first; `before` an entry's id for the page after it. */
export function fetchActivity(before: number | null, signal?: AbortSignal): Promise<ActivityPage> {
  const query = before ? `?before=${before}` : "";
  return apiRequest<ActivityPage>(`/api/audit${query}`, { staff: true, signal });
}
