import { formatCount, formatShortDay, sourceName } from "../../lib/format";
import type { Compared, Counts, DayLimit, ReportDay, ReportRow } from "./api";
import { limitMessages } from "./messages";

export type AdGroup = Compared & { content: string };
export type CampaignGroup = Compared & { campaign: string; ads: AdGroup[] };
export type SourceGroup = Compared & { source: string; campaigns: CampaignGroup[] };
export type PlatformGroup = Compared & { platform: string; sources: SourceGroup[] };

/** A column the table can be sorted by. */
export type SortKey =
  | "name"
  | "visits"
  | "leads"
  | "conversion"
  | "delivered"
  | "meta_sent"
  | "spend"
  | "cpl"
  | "cplDelivered";
export type Sort = { key: SortKey; descending: boolean };
/** The report's own order: the most leads first. */
export const DEFAULT_SORT: Sort = { key: "leads", descending: true };

const empty = (): Counts => ({ visits: 0, leads: 0, delivered: 0, duplicates: 0, meta_sent: 0, spend: null });

/**
 * The report's leaves grouped platform → source → campaign → ad, each group
 * with the sums under it, now and in the period before; each level in
 * `sort`'s order (the unnamed, '(sem campanha)', after the named among equals).
 */
export function groupRows(rows: ReportRow[], sort: Sort = DEFAULT_SORT, name = (s: string) => s): PlatformGroup[] {
  const platforms: PlatformGroup[] = [];
  for (const row of rows) {
    const platform = childOf(
      platforms,
      (p) => p.platform === row.platform,
      () => ({ platform: row.platform, sources: [] }),
    );
    const source = childOf(
      platform.sources,
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
    for (const group of [platform, source, campaign, ad]) {
      addCounts(group, row);
      addCounts(group.previous, row.previous);
    }
  }
  for (const platform of platforms) {
    for (const source of platform.sources) {
      for (const campaign of source.campaigns) campaign.ads.sort(bySort(sort, (a) => a.content));
      source.campaigns.sort(bySort(sort, (c) => c.campaign));
    }
    platform.sources.sort(bySort(sort, (s) => name(s.source)));
  }
  return platforms.sort(bySort(sort, (p) => p.platform));
}

function childOf<T extends Compared>(list: T[], isIt: (item: T) => boolean, make: () => Omit<T, keyof Compared>): T {
  const found = list.find(isIt);
  if (found) return found;
  const made = { ...make(), ...empty(), previous: empty() } as T;
  list.push(made);
  return made;
}

function addCounts(group: Counts, row: Counts) {
  group.visits += row.visits;
  group.leads += row.leads;
  group.delivered += row.delivered;
  group.duplicates += row.duplicates;
  group.meta_sent += row.meta_sent;
  if (row.spend !== null) group.spend = (group.spend ?? 0) + row.spend;
}

/** A column's value for sorting: null (no value, '—') always last. */
export function sortValue(key: Exclude<SortKey, "name">, c: Counts): number | null {
  switch (key) {
    case "conversion":
      return c.visits > 0 && c.leads <= c.visits ? c.leads / c.visits : null;
    case "spend":
      return c.spend;
    case "cpl":
      return costPer(c.spend, c.leads);
    case "cplDelivered":
      return costPer(c.spend, c.delivered);
    default:
      return c[key];
  }
}

/**
 * Names among equals, as the campaign CSV orders them (worker/src/campaigns/order.rs,
 * tested with the same cases): the unnamed ('(sem campanha)') after the named, then
 * without case or accents, then as written.
 */
export function byNames(a: string, b: string): number {
  return Number(a === "") - Number(b === "") || compare(folded(a), folded(b)) || compare(a, b);
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const ACCENTED = "áàâãäéèêëíìîïóòôõöúùûüçñ";
const PLAIN = "aaaaaeeeeiiiiooooouuuucn";
const ACCENT = new RegExp(`[${ACCENTED}]`, "g");

/** A name in lower case, its accents taken off (`unaccented` in worker/src/formats/characters.rs). */
function folded(name: string): string {
  return name.toLowerCase().replace(ACCENT, (c) => PLAIN[ACCENTED.indexOf(c)] ?? c);
}

function bySort<T extends Counts>(sort: Sort, name: (item: T) => string) {
  const byName = (a: T, b: T) => byNames(name(a), name(b));
  if (sort.key === "name") return (a: T, b: T) => (sort.descending ? -1 : 1) * byName(a, b);
  const key = sort.key;
  return (a: T, b: T) => {
    const [x, y] = [sortValue(key, a), sortValue(key, b)];
    if (x === null || y === null) return Number(x === null) - Number(y === null) || byName(a, b);
    return (sort.descending ? y - x : x - y) || b.leads - a.leads || b.visits - a.visits || byName(a, b);
  };
}

/** Spend per lead, in cents; null without spend or without leads. */
export function costPer(spend: number | null, leads: number): number | null {
  return spend === null || leads <= 0 ? null : spend / leads;
}

const money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });

/** Cents as reais, the Brazilian way ('R$ 1.234,56'); '—' for none. */
export function formatMoney(cents: number | null): string {
  return cents === null ? "—" : money.format(Math.round(cents) / 100).replace(/\u00a0/g, " ");
}

const percent = new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 });

/** Whether leads outnumber counted visits: no conversion to read (leads sent straight to the form, a day's visits not counted). */
export function conversionOverflows({ visits, leads }: Pick<Counts, "visits" | "leads">): boolean {
  return visits > 0 && leads > visits;
}

/**
 * Leads per visit as a pt-BR percentage with at most one decimal ('40%',
 * '3,3%'), in tenths of a percent rounded half up, counted in whole numbers;
 * '—' without visits or above 100% (see {@link conversionOverflows}). A rate
 * that rounds to nothing reads '< 0,1%' rather than a '0%' that would hide its
 * leads. The campaign CSV writes the same (`conversion` in
 * worker/src/campaigns/export.rs, whose cases report.test.ts repeats).
 */
export function formatConversion({ visits, leads }: Pick<Counts, "visits" | "leads">): string {
  if (visits === 0 || leads > visits) return "—";
  const tenths = Math.floor((leads * 1000 + Math.floor(visits / 2)) / visits);
  if (tenths === 0 && leads > 0) return "< 0,1%";
  const whole = Math.floor(tenths / 10);
  return tenths % 10 === 0 ? `${whole}%` : `${whole},${tenths % 10}%`;
}

/** A figure beside the period before: '▲ 25%', '▼ 10%', '= 0%', 'novo' (nothing before), or null when neither has it. */
export function formatChange(now: number | null, before: number | null): string | null {
  if (now === null && before === null) return null;
  if (before === null || before === 0) return now === null || now === 0 ? "=" : "novo";
  const change = ((now ?? 0) - before) / before;
  if (Math.abs(change) < 0.0005) return "= 0%";
  return `${change > 0 ? "▲" : "▼"} ${percent.format(Math.abs(change))}`;
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
export function chartSummary(days: ReportDay[], sources: string[], spent?: Counts): string {
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
  const cost = spent ? costPer(spent.spend, spent.leads) : null;
  if (spent && cost !== null) {
    sentence += `. Investimento de ${formatMoney(spent.spend)}: ${formatMoney(cost)} por lead`;
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
