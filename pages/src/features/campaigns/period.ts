import { brasiliaDay, type DayRange, RECENT_PERIODS, type RecentPeriod, recentDays } from "../../lib/days";

/** The report's period: a preset, or days staff chose ('Personalizado'). */
export type Period = { preset: RecentPeriod | "tudo" } | { custom: DayRange };

/** The period without one in the address: 30 dias. */
const DEFAULT_PRESET = "30d";

/** The presets in the picker's order; 'Todo o lançamento' runs from the first day anything was counted. */
export const PRESETS: { value: RecentPeriod | "tudo"; label: string }[] = [
  ...RECENT_PERIODS.map(({ value, label }) => ({ value, label })),
  { value: "tudo", label: "Todo o lançamento" },
];

/**
 * The period in the address: `?periodo=hoje|7d|30d|tudo`, or `?de=&ate=`
 * (checked by the worker, which says what is wrong with them); 30 dias
 * without either.
 */
export function readPeriod(search: string): Period {
  const params = new URLSearchParams(search);
  const from = params.get("de");
  const to = params.get("ate");
  if (from !== null && to !== null) return { custom: { from, to } };
  const preset = PRESETS.find((p) => p.value === params.get("periodo"));
  return { preset: preset?.value ?? DEFAULT_PRESET };
}

/** The query of `period`'s address ("" for the default). */
export function periodSearch(period: Period): string {
  if ("custom" in period) return `?${new URLSearchParams({ de: period.custom.from, ate: period.custom.to })}`;
  return period.preset === DEFAULT_PRESET ? "" : `?periodo=${period.preset}`;
}

/** What every report says of the calendar: today in Brasília, and the first day anything was counted. */
export type Calendar = { today: string; first_day: string | null };

/**
 * The days of `period`, counted from the last report's `calendar` (before
 * any, from the browser's own clock in Brasília). Null for 'Todo o
 * lançamento' before any report: its first day comes with one. Before
 * anything was counted it is today alone.
 */
export function periodRange(period: Period, calendar: Calendar | null): DayRange | null {
  if ("custom" in period) return period.custom;
  if (period.preset !== "tudo") return recentDays(period.preset, calendar?.today ?? brasiliaDay());
  if (!calendar) return null;
  return { from: calendar.first_day ?? calendar.today, to: calendar.today };
}
