import { isShortTerm, useSearchTerm } from "./useSearchTerm";

/** The search also finds a lead's campaign, ad (utm_content) and keyword (utm_term). */
const SEARCH_LABEL = "Buscar por nome, e-mail, WhatsApp ou campanha";

/** The toolbar's search box: it searches as staff type, a term of one or two characters on Enter. */
export function LeadSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [term, setTerm, searchNow] = useSearchTerm(q, onSearch);
  const waitsForEnter = term !== q && isShortTerm(term);
  return (
    <form
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        searchNow();
      }}
    >
      <label htmlFor="lead-search" className="sr-only">
        {SEARCH_LABEL}
      </label>
      <input
        id="lead-search"
        type="search"
        placeholder={SEARCH_LABEL}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        autoComplete="off"
        enterKeyHint="search"
        aria-describedby={waitsForEnter ? "lead-search-hint" : undefined}
      />
      {waitsForEnter && (
        <p id="lead-search-hint" className="search__hint">
          Digite 3 caracteres ou tecle Enter.
        </p>
      )}
    </form>
  );
}
