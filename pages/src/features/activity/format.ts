import { adName, campaignName, formatDay, formatDays, sourceName } from "../../lib/format";
import { statusFilterLabel } from "../../lib/leadLinks";

/**
 * An export's filter as the list's toolbar and chips say it: 'Pendentes ·
 * busca “silva” · 20/11/2026 – 26/11/2026 · Instagram · campanha verao'. An
 * export of every lead: 'Todos os leads'.
 */
export function describeFilter(filter: Record<string, string> | undefined): string {
  const f = filter ?? {};
  const parts: string[] = [];
  const status = f.status ? statusFilterLabel(f.status) : undefined;
  if (status && f.status !== "todos") parts.push(status);
  if (f.q) parts.push(`busca “${f.q}”`);
  if (f.de && f.ate) parts.push(formatDays(f.de, f.ate));
  else if (f.de) parts.push(`desde ${formatDay(f.de)}`);
  else if (f.ate) parts.push(`até ${formatDay(f.ate)}`);
  if (f.fonte) parts.push(sourceName(f.fonte));
  if (f.campanha !== undefined) parts.push(`campanha ${campaignName(f.campanha)}`);
  if (f.anuncio !== undefined) parts.push(`anúncio ${adName(f.anuncio)}`);
  return parts.length ? parts.join(" · ") : "Todos os leads";
}
