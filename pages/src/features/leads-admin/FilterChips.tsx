import { useRef } from "react";
import { questions } from "../../config/agency";
import { formatDay, formatDays } from "../../lib/format";
import { campaignPath, type ListFilters, NO_FILTERS } from "../../lib/leadLinks";
import { useFocusRescue } from "../../lib/useFocusRescue";

type Props = {
  filters: ListFilters;
  /** Takes these filters off the list. */
  onRemove: (cleared: Partial<ListFilters>) => void;
  /** Where focus goes once the last chip is removed. */
  fallback: () => HTMLElement | null;
};

/** The period, the campaign and the answers the list is narrowed to, each removable with its ✕. */
export function FilterChips({ filters, onRemove, fallback }: Props) {
  const area = useRef<HTMLDivElement>(null);
  // A removed chip hands the focus to the next one, or `fallback` after the last.
  useFocusRescue(area, { items: "li", target: "button", fallback });

  const chips: { text: string; cleared: Partial<ListFilters> }[] = [];
  const period = periodText(filters);
  if (period) chips.push({ text: `Período: ${period}`, cleared: { de: NO_FILTERS.de, ate: NO_FILTERS.ate } });
  const campaign = campaignPath(filters);
  if (campaign) {
    const { fonte, campanha, anuncio } = NO_FILTERS;
    chips.push({ text: `Campanha: ${campaign}`, cleared: { fonte, campanha, anuncio } });
  }
  for (const answer of filters.respostas) {
    const question = questions.find((q) => answer.startsWith(`${q.id}:`));
    if (!question) continue;
    const respostas = filters.respostas.filter((a) => a !== answer);
    chips.push({ text: `${question.label} ${answer.slice(question.id.length + 1)}`, cleared: { respostas } });
  }

  return (
    <div ref={area}>
      {chips.length > 0 && (
        <ul className="filter-chips" aria-label="Filtros aplicados">
          {chips.map((chip) => (
            <li key={chip.text}>
              <button
                type="button"
                className="filter-chip"
                aria-label={`Remover filtro ${chip.text}`}
                onClick={() => onRemove(chip.cleared)}
              >
                {chip.text}
                <span aria-hidden="true">✕</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** '20/11/2026 – 26/11/2026', 'desde 20/11/2026', 'até 26/11/2026', or '' without a period. */
function periodText({ de, ate }: Pick<ListFilters, "de" | "ate">): string {
  if (de && ate) return formatDays(de, ate);
  if (de) return `desde ${formatDay(de)}`;
  if (ate) return `até ${formatDay(ate)}`;
  return "";
}
