/**
 * Calendar days in Brasília, as the worker counts them and as periods go in
 * addresses: `YYYY-MM-DD` strings, whatever the browser's own zone.
 */

const brasilia = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** The day it is in Brasília at `now`. */
export function brasiliaDay(now: Date = new Date()): string {
  return brasilia.format(now);
}

/** Whether `text` is a real day written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** A period of whole days, both ends included. */
export type DayRange = { from: string; to: string };

/** The recent periods staff pick from, each ending today: 7 dias is today and the 6 days before. */
export const RECENT_PERIODS = [
  { value: "hoje", label: "Hoje", days: 1 },
  { value: "7d", label: "7 dias", days: 7 },
  { value: "30d", label: "30 dias", days: 30 },
] as const;

export type RecentPeriod = (typeof RECENT_PERIODS)[number]["value"];

export function recentDays(period: RecentPeriod, today: string): DayRange {
  const days = RECENT_PERIODS.find((p) => p.value === period)?.days ?? 1;
  return { from: addDays(today, 1 - days), to: today };
}

/** The recent period that is exactly `range` on `today`, if any. */
export function recentPeriodOf(range: DayRange, today: string): RecentPeriod | null {
  const match = RECENT_PERIODS.find((p) => {
    const days = recentDays(p.value, today);
    return days.from === range.from && days.to === range.to;
  });
  return match?.value ?? null;
}
