/** How the staff pages write dates, counts and sources: the Brazilian way, in Brasília time. */

const parts = new Intl.DateTimeFormat("pt-BR", {
  timeZone: "America/Sao_Paulo",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** `dd/MM/yyyy HH:mm` in Brasília time, whatever the browser's own zone. */
export function formatDate(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const p = Object.fromEntries(parts.formatToParts(date).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

const numbers = new Intl.NumberFormat("pt-BR");

/** `1234` → `1.234`. */
export function formatCount(n: number): string {
  return numbers.format(n);
}

/** A Brasília day, `2026-11-24` → `24/11/2026`. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}/${month}/${year}`;
}

/** A period of Brasília days: `20/11/2026 – 26/11/2026`, or the one day. */
export function formatDays(from: string, to: string): string {
  return from === to ? formatDay(from) : `${formatDay(from)} – ${formatDay(to)}`;
}

/** A Brasília day without its year, for a chart's axis: `2026-11-24` → `24/11`. */
export function formatShortDay(day: string): string {
  return formatDay(day).slice(0, 5);
}

/**
 * The worker names each source once (worker/src/attribution/sources.rs: 'ig'
 * and 'instagram' are 'Instagram'); these two read better with a word more.
 * Any other source reads as it is.
 */
const SOURCE_NAMES = new Map([
  ["Direto", "Direto (sem origem)"],
  // Visits past a day's limit of new lines, counted together by the worker.
  ["(outras)", "Outras origens"],
  // The names rows had before 0024 gave each source one name (a backup, a test's seed).
  ["direto", "Direto (sem origem)"],
  ["instagram", "Instagram"],
  ["facebook", "Facebook"],
  ["google", "Google"],
  ["whatsapp", "WhatsApp"],
  ["youtube", "YouTube"],
  ["tiktok", "TikTok"],
  ["linkedin", "LinkedIn"],
  ["x", "X"],
  ["bing", "Bing"],
]);

/** A lead's or visit's source as staff read it: `Direto` → `Direto (sem origem)`, `(outras)` → `Outras origens`. */
export function sourceName(source: string): string {
  return SOURCE_NAMES.get(source) ?? source;
}

/** A campaign (utm_campaign) as staff read it: '(sem campanha)' for none. */
export function campaignName(campaign: string): string {
  return campaign || "(sem campanha)";
}

/** An ad (utm_content) as staff read it: '(sem anúncio)' for none. */
export function adName(content: string): string {
  return content || "(sem anúncio)";
}

/**
 * How long ago `iso` was, as staff say it: 'agora', 'há 5 min', 'há 2 h',
 * 'há 3 dias' (from `now`, ms). Empty for a missing time.
 */
export function timeAgo(iso: string | null, now: number): string {
  const span = elapsed(iso, now);
  return span === null ? "" : span === "agora" ? "agora" : `há ${span}`;
}

/** A wait as staff say it: '5 min', '2 h', '3 dias' ('agora' under a minute); null for a missing time. */
export function elapsed(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const ms = now - new Date(iso).getTime();
  if (Number.isNaN(ms)) return null;
  return duration(ms);
}

/** A span of time as staff say it: 'agora' under a minute, '5 min', '2 h', '1 dia', '3 dias'. */
export function duration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "agora";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 dia" : `${days} dias`;
}
