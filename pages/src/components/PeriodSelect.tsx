import { brasiliaDay, RECENT_PERIODS, recentDays, recentPeriodOf } from "../lib/days";
import type { ListFilters } from "../lib/leadLinks";

type Period = Pick<ListFilters, "de" | "ate">;

/** The select's values besides the recent periods: every lead, and a period chosen elsewhere ('Campanhas', a shared address). */
const ALL = "todo";
const CHOSEN = "escolhido";

type Props = {
  period: Period;
  onChange: (period: Period) => void;
  /** The select's id, where a page has more than one toolbar ('Atividade'). */
  id?: string;
};

/** The toolbar's period: every lead, or those of today or of the last 7 or 30 days (Brasília days). */
export function PeriodSelect({ period, onChange, id = "lead-period" }: Props) {
  const today = brasiliaDay();
  const value =
    !period.de && !period.ate ? ALL : (recentPeriodOf({ from: period.de, to: period.ate }, today) ?? CHOSEN);
  const pick = (picked: string) => {
    const recent = RECENT_PERIODS.find((p) => p.value === picked);
    const days = recent ? recentDays(recent.value, today) : null;
    onChange({ de: days?.from ?? "", ate: days?.to ?? "" });
  };
  return (
    <div className="period-select">
      <label htmlFor={id} className="sr-only">
        Período
      </label>
      <select id={id} value={value} onChange={(e) => pick(e.target.value)}>
        <option value={ALL}>Todo o período</option>
        {RECENT_PERIODS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
        {value === CHOSEN && (
          <option value={CHOSEN} disabled>
            Período escolhido
          </option>
        )}
      </select>
    </div>
  );
}
