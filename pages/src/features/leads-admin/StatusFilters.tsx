import { formatCount } from "../../lib/format";
import type { LeadsPage, StatusFilter } from "./api";

const FILTERS: { value: StatusFilter; label: string; count: (p: LeadsPage) => number }[] = [
  { value: "todos", label: "Todos", count: (p) => p.counts.total },
  { value: "pendentes", label: "Pendentes", count: (p) => p.counts.pending },
  { value: "enviados", label: "Enviados", count: (p) => p.counts.sent },
  { value: "falhas", label: "Falharam", count: (p) => p.counts.attention },
  { value: "duplicados", label: "Possível duplicado", count: (p) => p.counts.duplicates },
  { value: "alteracoes", label: "Alteração pendente", count: (p) => p.pending_changes },
];

/** A status filter's name as the toolbar shows it ('Pendentes' for `pendentes`). */
export function statusFilterLabel(status: string): string | undefined {
  return FILTERS.find((f) => f.value === status)?.label;
}

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
          {f.label}
          {page && <span className="filters__count">{formatCount(f.count(page))}</span>}
        </button>
      ))}
    </fieldset>
  );
}
