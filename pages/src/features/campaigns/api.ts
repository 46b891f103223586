import { apiRequest, readAnswer, staffFetch } from "../../lib/api";
import type { DayRange } from "../../lib/days";
import { downloadStaffFile } from "../../lib/download";

/**
 * What the report counts: visits from outside, the leads they brought, what
 * became of those leads (sent to Jetimob, to Meta), and what was spent on
 * them (in cents; null: no spend known).
 */
export type Counts = {
  visits: number;
  leads: number;
  delivered: number;
  duplicates: number;
  meta_sent: number;
  spend: number | null;
};

/** A figure of the period, beside the same of the period of the same length before it. */
export type Compared = Counts & { previous: Counts };

/**
 * One leaf of the report: a platform ('Meta', 'Google', 'Orgânico', 'Direto'…),
 * a source, a campaign ("" for none) and an ad ("" for none).
 */
export type ReportRow = Compared & { platform: string; source: string; campaign: string; content: string };

/** Spend whose campaign no line's links carry. */
export type Unmatched = { source: string; campaign: string; content: string; spend: number };

/** A day of the period: its visits, and its leads by source (sources without any left out). */
export type ReportDay = { day: string; visits: number; leads: Record<string, number> };

/**
 * A day a visit limit was reached: its visits counted under '(outras)' (no
 * room left for a new line) and those not counted (their network had had
 * its day's visits counted).
 */
export type DayLimit = { day: string; overflow: number; uncounted: number };

export type CampaignReport = {
  period: {
    from: string;
    to: string;
    /** Today in Brasília. */
    today: string;
    /** The first day anything was counted, null before any visit or lead. */
    first_day: string | null;
    /** The period of the same length just before, which every figure is set beside. */
    previous: DayRange;
  };
  totals: Counts;
  previous_totals: Counts;
  /** Every day of the period, in order. */
  days: ReportDay[];
  /** Every source of the period, most leads first. */
  sources: string[];
  rows: ReportRow[];
  unmatched: Unmatched[];
  /** The days of the period a visit limit was reached, in order. */
  limits: DayLimit[];
  /** Where leads go besides Jetimob. */
  ads: Ads;
};

/**
 * Whether Meta's Conversions API is on, and (for owners, when it is on) the
 * account Google Ads signs in with to fetch its conversions file at `path`.
 */
export type Ads = {
  meta: boolean;
  google_ads: { path: string; user: string; conversion_name: string } | null;
};

/** The report of `range`; without one, the worker's own default (the last 30 days). */
export function fetchCampaigns(range: DayRange | null, signal?: AbortSignal): Promise<CampaignReport> {
  return apiRequest<CampaignReport>(`/api/campaigns${rangeSearch(range)}`, { staff: true, signal });
}

/** Downloads the report's table of `range` as CSV. */
export function exportCampaignsCsv(range: DayRange): Promise<void> {
  return downloadStaffFile(
    `/api/campaigns/export.csv${rangeSearch(range)}`,
    `campanhas-${range.from}-a-${range.to}.csv`,
  );
}

function rangeSearch(range: DayRange | null): string {
  return range ? `?${new URLSearchParams({ de: range.from, ate: range.to })}` : "";
}

/** A spend import, as 'Investimento' lists it. */
export type SpendImport = {
  id: number;
  at_iso: string | null;
  staff_email: string;
  kind: "planilha" | "meta" | "google" | "meta_api";
  file_name: string | null;
  lines: number;
  first_day: string;
  last_day: string;
  cents: number;
  added: number;
  changed: number;
  unchanged: number;
  added_cents: number;
  undone_at_iso: string | null;
  undone_by: string | null;
};

export type SpendImports = { imports: SpendImport[]; may_import: boolean };

export function fetchSpendImports(signal?: AbortSignal): Promise<SpendImports> {
  return apiRequest<SpendImports>("/api/campaigns/spend", { staff: true, signal });
}

/** A refused file: the message and each line that could not be read ('linha 4: valor inválido'). */
export class SpendRefused extends Error {
  constructor(
    message: string,
    readonly lines: string[],
    readonly errors: number,
  ) {
    super(message);
  }
}

/** Sends a spend file whole: what it added, or why it was refused. */
export async function importSpend(file: File): Promise<SpendImport> {
  const response = await staffFetch(`/api/campaigns/spend?${new URLSearchParams({ arquivo: file.name })}`, {
    method: "POST",
    rawBody: file,
  });
  if (response.status === 422) {
    const body = (await response.json().catch(() => ({}))) as { error?: string; lines?: string[]; errors?: number };
    throw new SpendRefused(body.error ?? "Arquivo recusado.", body.lines ?? [], body.errors ?? 0);
  }
  return (await readAnswer<{ import: SpendImport }>(response)).import;
}

export async function undoSpendImport(id: number): Promise<SpendImport> {
  return (
    await apiRequest<{ import: SpendImport }>(`/api/campaigns/spend/${id}/undo`, {
      staff: true,
      method: "POST",
      body: {},
    })
  ).import;
}
