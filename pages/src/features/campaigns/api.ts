import { apiRequest } from "../../lib/api";
import type { DayRange } from "../../lib/days";
import { downloadStaffFile } from "../../lib/download";

/** What the report counts: visits from outside, the leads they brought, and what became of those leads. */
export type Counts = { visits: number; leads: number; delivered: number; duplicates: number };

/** One leaf of the report: a source, a campaign ("" for none) and an ad ("" for none). */
export type ReportRow = Counts & { source: string; campaign: string; content: string };

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
  };
  totals: Counts;
  /** Every day of the period, in order. */
  days: ReportDay[];
  /** Every source of the period, most leads first. */
  sources: string[];
  rows: ReportRow[];
  /** The days of the period a visit limit was reached, in order. */
  limits: DayLimit[];
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
