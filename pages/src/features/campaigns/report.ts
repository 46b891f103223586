import { formatCount, formatShortDay, sourceName } from "../../lib/format";
import type { Counts, DayLimit, ReportDay, ReportRow } from "./api";
import { limitMessages } from "./messages";

export type AdGroup = Counts & { content: string };
export type CampaignGroup = Counts & { campaign: string; ads: AdGroup[] };
export type SourceGroup = Counts & { source: string; campaigns: CampaignGroup[] };

/**
 * The report's leaves grouped source → campaign → ad, each group with the
 * sums of what is under it. At every level the most leads come first, then
 * the most visits; among equals the named before the unnamed ('(sem
 * campanha)'), then by name.
 */
export function groupRows(rows: ReportRow[]): SourceGroup[] {
  const sources: SourceGroup[] = [];
  for (const row of rows) {
    const source = childOf(
      sources,
      (s) => s.source === row.source,
      () => ({ source: row.source, campaigns: [] }),
    );
    const campaign = childOf(
      source.campaigns,
      (c) => c.campaign === row.campaign,
      () => ({ campaign: row.campaign, ads: [] }),
    );
    const ad = childOf(
      campaign.ads,
      (a) => a.content === row.content,
      () => ({ content: row.content }),
    );
    for (const group of [source, campaign, ad]) addCounts(group, row);
  }
  for (const source of sources) {
    for (const campaign of source.campaigns) campaign.ads.sort(byWeight((a) => a.content));
    source.campaigns.sort(byWeight((c) => c.campaign));
  }
  return sources.sort(byWeight((s) => s.source));
}

function childOf<T extends Counts>(list: T[], isIt: (item: T) => boolean, make: () => Omit<T, keyof Counts>): T {
  const found = list.find(isIt);
  if (found) return found;
  const made = { ...make(), visits: 0, leads: 0, delivered: 0, duplicates: 0 } as T;
  list.push(made);
  return made;
}

function addCounts(group: Counts, row: Counts) {
  group.visits += row.visits;
  group.leads += row.leads;
  group.delivered += row.delivered;
  group.duplicates += row.duplicates;
}

function byWeight<T extends Counts>(name: (item: T) => string) {
  return (a: T, b: T) =>
    b.leads - a.leads ||
    b.visits - a.visits ||
    Number(name(a) === "") - Number(name(b) === "") ||
    name(a).localeCompare(name(b), "pt-BR");
}

const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 });

/**
 * Leads per visit as a pt-BR percentage with at most one decimal ('40%',
 * '3,3%'); '—' without visits. A rate that rounds to nothing reads '< 0,1%'
 * rather than a '0%' that would hide its leads.
 */
export function formatConversion({ visits, leads }: Pick<Counts, "visits" | "leads">): string {
  if (visits === 0) return "—";
  const text = percent.format(leads / visits);
  return leads > 0 && text === percent.format(0) ? `< ${percent.format(0.001)}` : text;
}

/** A line of the chart: a source's leads on each day of the period, or `source` null for 'Outras'. */
export type Series = { source: string | null; label: string; counts: number[] };

/** The sources that get their own colour in the chart; the rest are summed as 'Outras'. */
export const OWN_SERIES = 6;

/**
 * The chart's lines: the sources that brought leads in the period, in the
 * report's order (most leads first), the first {@link OWN_SERIES} on their
 * own and the others summed as 'Outras'.
 */
export function dailySeries(days: ReportDay[], sources: string[]): Series[] {
  const withLeads = sources.filter((source) => days.some((d) => (d.leads[source] ?? 0) > 0));
  const own = withLeads.slice(0, OWN_SERIES);
  const series: Series[] = own.map((source) => ({
    source,
    label: sourceName(source),
    counts: days.map((d) => d.leads[source] ?? 0),
  }));
  const others = dayTotals(days).map((total, i) => total - series.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0));
  if (others.some((n) => n > 0)) series.push({ source: null, label: "Outras", counts: others });
  return series;
}

/** Each day's leads, every source together. */
export function dayTotals(days: ReportDay[]): number[] {
  return days.map((d) => Object.values(d.leads).reduce((sum, n) => sum + n, 0));
}

/**
 * The chart in a sentence, for everyone and for screen readers: '9 leads em
 * 7 dias; o dia com mais leads foi 24/11 (4). Instagram trouxe 5.'
 */
export function chartSummary(days: ReportDay[], sources: string[]): string {
  const totals = dayTotals(days);
  const leads = totals.reduce((sum, n) => sum + n, 0);
  const span = days.length === 1 ? "1 dia" : `${formatCount(days.length)} dias`;
  if (leads === 0) return `Nenhum lead em ${span}.`;
  let sentence = `${formatCount(leads)} ${leads === 1 ? "lead" : "leads"} em ${span}`;
  const best = totals.indexOf(Math.max(...totals));
  const bestDay = days[best];
  if (days.length > 1 && bestDay) {
    sentence += `; o dia com mais leads foi ${formatShortDay(bestDay.day)} (${formatCount(totals[best] ?? 0)})`;
  }
  const top = sources.find((source) => days.some((d) => (d.leads[source] ?? 0) > 0));
  if (top) {
    const brought = days.reduce((sum, d) => sum + (d.leads[top] ?? 0), 0);
    sentence += `. ${sourceName(top)} trouxe ${formatCount(brought)}`;
  }
  return `${sentence}.`;
}

/** The days named one by one in the note of limits; the others are summed. */
export const LIMIT_DAYS_NAMED = 3;

/** Where the visits that found no room for a line of their own are counted. */
const OVERFLOW = "(outras)";

/**
 * The note of limits in sentences: the newest {@link LIMIT_DAYS_NAMED} days
 * a limit was reached, newest first, each with what went to 'Outras
 * origens' and what was not counted; then the period's other such days summed.
 */
export function limitNotes(limits: DayLimit[]): string[] {
  const newest = [...limits].sort((a, b) => b.day.localeCompare(a.day));
  const named = newest.slice(0, LIMIT_DAYS_NAMED).map((limit) => {
    const day = formatShortDay(limit.day);
    const overflow = limitMessages.overflow(formatCount(limit.overflow), limit.overflow === 1, sourceName(OVERFLOW));
    const uncounted = limitMessages.uncounted(formatCount(limit.uncounted), limit.uncounted === 1);
    if (limit.overflow === 0) return `${limitMessages.day(day)}${uncounted}.`;
    return `${limitMessages.newCampaigns(day)}${overflow}${limit.uncounted > 0 ? `; ${uncounted}` : ""}.`;
  });
  const rest = newest.slice(LIMIT_DAYS_NAMED);
  if (rest.length === 0) return named;
  const overflow = rest.reduce((sum, l) => sum + l.overflow, 0);
  const uncounted = rest.reduce((sum, l) => sum + l.uncounted, 0);
  const parts = [
    overflow > 0 ? limitMessages.overflow(formatCount(overflow), overflow === 1, sourceName(OVERFLOW)) : null,
    uncounted > 0 ? limitMessages.uncountedShort(formatCount(uncounted), uncounted === 1) : null,
  ].filter((part) => part !== null);
  return [...named, `${limitMessages.otherDays(formatCount(rest.length))}${parts.join("; ")}.`];
}
