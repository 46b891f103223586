import { PeriodSelect } from "../../components/PeriodSelect";
import { type ActivityFilter, NO_FILTER, type Person } from "./api";
import { actionNames, activityMessages } from "./messages";

type Props = { filter: ActivityFilter; people: Person[]; onChange: (next: ActivityFilter) => void };

/** Who did it, what they did and when: 'Atividade''s toolbar. */
export function ActivityFilters({ filter, people, onChange }: Props) {
  const narrowed = filter.pessoa || filter.acao || filter.de || filter.ate;
  // A person the address names who is not among the accounts (an address edited by hand) still shows as chosen.
  const chosen = filter.pessoa && !people.some((p) => p.id === filter.pessoa);
  return (
    <div className="activity-filters">
      <div className="activity-filters__field">
        <label htmlFor="activity-person" className="sr-only">
          {activityMessages.personLabel}
        </label>
        <select
          id="activity-person"
          value={filter.pessoa}
          onChange={(e) => onChange({ ...filter, pessoa: e.target.value })}
        >
          <option value="">{activityMessages.everyone}</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.email}
            </option>
          ))}
          {chosen && <option value={filter.pessoa}>{filter.pessoa}</option>}
        </select>
      </div>
      <div className="activity-filters__field">
        <label htmlFor="activity-action" className="sr-only">
          {activityMessages.actionLabel}
        </label>
        <select
          id="activity-action"
          value={filter.acao}
          onChange={(e) => onChange({ ...filter, acao: e.target.value })}
        >
          <option value="">{activityMessages.everything}</option>
          {Object.entries(actionNames).map(([action, name]) => (
            <option key={action} value={action}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <PeriodSelect id="activity-period" period={filter} onChange={(period) => onChange({ ...filter, ...period })} />
      {narrowed && (
        <button type="button" className="button button--ghost button--small" onClick={() => onChange(NO_FILTER)}>
          {activityMessages.clear}
        </button>
      )}
    </div>
  );
}
