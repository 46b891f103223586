import { formatCount } from "../../lib/format";
import type { ContactFilter } from "../../lib/leadLinks";
import type { LeadsPage } from "./api";
import { contactMessages } from "./messages";

type Props = {
  /** The contact filter on screen (the address's, or the person's default). */
  shown: Exclude<ContactFilter, "">;
  page: LeadsPage | null;
  onChange: (contato: Exclude<ContactFilter, "">) => void;
};

/**
 * 'Não contatados' and 'Contatados por mim': two switches, one on at most;
 * pressing the one that is on shows every lead again.
 */
export function ContactFilters({ shown, page, onChange }: Props) {
  const options = [
    { value: "nao", label: contactMessages.uncontacted, count: page?.counts.uncontacted },
    { value: "meus", label: contactMessages.mine, count: page?.counts.mine },
  ] as const;
  return (
    <fieldset className="filters filters--contact">
      <legend className="sr-only">Contato</legend>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className="filters__option"
          aria-pressed={shown === o.value}
          onClick={() => onChange(shown === o.value ? "todos" : o.value)}
        >
          {o.label}
          {o.count !== undefined && <span className="filters__count">{formatCount(o.count)}</span>}
        </button>
      ))}
    </fieldset>
  );
}
