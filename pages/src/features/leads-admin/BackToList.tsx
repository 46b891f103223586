import { Link } from "../../lib/Link";
import { lastListAddress } from "./useListParams";

/** Back to the list as staff left it (its filters, search and page). */
export function BackToList() {
  return (
    <p className="lead-page__back">
      <Link to={lastListAddress()}>← Voltar à lista de leads</Link>
    </p>
  );
}
