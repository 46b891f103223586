import { apiRequest } from "../../lib/api";
import type { DayRange } from "../../lib/days";
import { downloadStaffFile } from "../../lib/download";

/** A group's time to first contact: its leads, those contacted, the median (ms), within the target, still waiting. */
export type Figures = {
  leads: number;
  contacted: number;
  median_ms: number | null;
  within_target: number;
  waiting: number;
};

export type FirstContactReport = {
  period: { from: string; to: string };
  target_minutes: number;
  overall: Figures;
  /** Newest day first. */
  days: (Figures & { day: string })[];
  /** The campaigns that brought the most leads first; "" for none. */
  campaigns: (Figures & { source: string; campaign: string })[];
  /** Who contacted first, most contacts first. */
  colleagues: (Figures & { email: string })[];
};

/** The owners' choices for the panel. */
export type PanelSettings = { contact_target_minutes: number; colleague_notices: boolean };

function rangeSearch(range: DayRange): string {
  return `?${new URLSearchParams({ de: range.from, ate: range.to })}`;
}

export function fetchFirstContact(range: DayRange, signal?: AbortSignal): Promise<FirstContactReport> {
  return apiRequest<FirstContactReport>(`/api/first-contact${rangeSearch(range)}`, { staff: true, signal });
}

export function exportFirstContactCsv(range: DayRange): Promise<void> {
  return downloadStaffFile(
    `/api/first-contact/export.csv${rangeSearch(range)}`,
    `primeiro-contato-${range.from}-a-${range.to}.csv`,
  );
}

export function fetchPanelSettings(signal?: AbortSignal): Promise<PanelSettings> {
  return apiRequest<PanelSettings>("/api/settings", { staff: true, signal });
}

/** An owner changes one choice or both; the worker answers them all as they now are. */
export function savePanelSettings(change: Partial<PanelSettings>): Promise<PanelSettings> {
  return apiRequest<PanelSettings>("/api/settings", { method: "PUT", body: change, staff: true });
}
