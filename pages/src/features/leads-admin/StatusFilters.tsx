import { formatCount } from "../../lib/format";
import { STATUS_LABELS, type StatusFilter } from "../../lib/leadLinks";
import type { LeadsPage } from "./api";

const FILTERS: { value: StatusFilter; count: (p: LeadsPage) => number }[] = [
  { value: "todos", count: (p) => p.counts.total },
  { value: "pendentes", count: (p) => p.counts.pending },
  { value: "enviados", count: (p) => p.counts.sent },
  { value: "falhas", count: (p) => p.counts.attention },
  { value: "duplicados", count: (p) => p.counts.duplicates },
  { value: "alteracoes", count: (p) => p.pending_changes },
];

type Props = {
  status: StatusFilter;
  /** The page on screen, whose counts the buttons show. */
  page: LeadsPage | null;
  onChange: (status: StatusFilter) => void;
};

/** The toolbar's buttons by Jetimob status, each with how many leads it holds. */
export function StatusFilters({ status, page, onChange }: Props) {
  return (
    <fieldset className="filters">
      <legend className="sr-only">Status Jetimob</legend>
      {FILTERS.map((f) => (
        <button
          key={f.value}
          type="button"
          className="filters__option"
          aria-pressed={status === f.value}
          onClick={() => onChange(f.value)}
        >
          {STATUS_LABELS[f.value]}
          {page && <span className="filters__count">{formatCount(f.count(page))}</span>}
        </button>
      ))}
    </fieldset>
  );
}
