import { Button } from "../../components/Button";
import type { LeadsPage, PageStart } from "./api";
import { pageSummary } from "./format";

type Props = {
  page: LeadsPage;
  /** 'Próxima'/'Anterior': the page number, and where it starts when the page on screen says so. */
  onTurn: (page: number, start: PageStart | null) => void;
};

/** Under the table: which leads these are, and 'Anterior' and 'Próxima'. */
export function LeadsPager({ page, onTurn }: Props) {
  return (
    <nav className="pager" aria-label="Páginas">
      <p>{pageSummary(page)}</p>
      <div className="pager__buttons">
        <Button
          type="button"
          className="button button--ghost"
          inactive={page.page <= 1}
          onClick={() => onTurn(page.page - 1, page.first ? { before: page.first } : null)}
        >
          Anterior
        </Button>
        <Button
          type="button"
          className="button button--ghost"
          inactive={page.page >= page.pages}
          onClick={() => onTurn(page.page + 1, page.last ? { after: page.last } : null)}
        >
          Próxima
        </Button>
      </div>
    </nav>
  );
}
