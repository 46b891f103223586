import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { LoadFailed } from "../../components/LoadFailed";
import { useToast } from "../../components/toast";
import { serverMessage, sessionEnded } from "../../lib/api";
import { formatCount } from "../../lib/format";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useLatestRequest } from "../../lib/useLatestRequest";
import { TICK_MS } from "../staff-auth/session";
import {
  exportCsv,
  fetchLeads,
  type LeadsPage,
  type ListFilters,
  type ListParams,
  type PageStart,
  type StatusFilter,
  type TaggedPage,
  toSearch,
} from "./api";
import { ConfirmDelete } from "./ConfirmDelete";
import { ConfirmMarkSent } from "./ConfirmMarkSent";
import { FilterChips } from "./FilterChips";
import { IncidentBanner } from "./IncidentBanner";
import { LeadsTable } from "./LeadsTable";
import { panelMessages } from "./messages";
import { PeriodSelect } from "./PeriodSelect";
import { PageStarts } from "./pageStarts";
import { useLeadActions } from "./useLeadActions";
import { useListParams } from "./useListParams";
import { isShortTerm, useSearchTerm } from "./useSearchTerm";

const FILTERS: { value: StatusFilter; label: string; count: (p: LeadsPage) => number }[] = [
  { value: "todos", label: "Todos", count: (p) => p.counts.total },
  { value: "pendentes", label: "Pendentes", count: (p) => p.counts.pending },
  { value: "enviados", label: "Enviados", count: (p) => p.counts.sent },
  { value: "falhas", label: "Falharam", count: (p) => p.counts.attention },
  { value: "duplicados", label: "Possível duplicado", count: (p) => p.counts.duplicates },
  { value: "alteracoes", label: "Alteração pendente", count: (p) => p.pending_changes },
];

/** The search also finds a lead's campaign, ad (utm_content) and keyword (utm_term). */
const SEARCH_LABEL = "Buscar por nome, e-mail, WhatsApp ou campanha";

/** The counters, the filters and search, the table of leads and its pages. */
export function LeadsPanel() {
  const { toast } = useToast();
  const [params, setParams] = useListParams();
  const [data, setData] = useState<LeadsPage | null>(null);
  const [loading, setLoading] = useState(true);
  /** The view on screen could not be loaded: nothing of another view is shown under its filter. */
  const [failed, setFailed] = useState(false);
  const [exporting, setExporting] = useState(false);
  const { start, isLatest } = useLatestRequest();
  /** Where each page reached with 'Próxima'/'Anterior' starts, by its address. */
  const starts = useRef<PageStarts | null>(null);
  starts.current ??= new PageStarts();
  /** The page shown and its tag: a reload asks only whether it changed. */
  const shown = useRef<TaggedPage | null>(null);
  /**
   * The view on screen now. An action reloads this one when it ends, not the
   * view it began in: staff may have searched or changed the filter while
   * 'Reenviar' waited for Jetimob.
   */
  const onScreen = useRef(params);
  onScreen.current = params;
  /** What the list shows after a view staff asked for, said to screen readers: the count, or that none was found. */
  const [result, setResult] = useState("");
  /** The first view has loaded (or failed): later ones were asked for. */
  const arrived = useRef(false);
  /** A view was asked for and its result not said yet: whichever load brings it says it. */
  const untold = useRef(false);
  const list = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // A lead's row gone (deleted, or out of the filter once sent) or its 'Marcar Enviado' gone:
  // focus goes to the row's first action, the next row's, or the list's heading.
  useFocusRescue(list, { items: "tbody tr", target: ".row-actions button", fallback: () => heading.current });

  /** Loads the view; `quiet` reloads (the 30-second tick) keep the table and stay silent on failure. */
  const load = useCallback(
    async (view: ListParams, quiet = false) => {
      const controller = start();
      if (!quiet) setLoading(true);
      // Emptied first, so the same words said again are heard again.
      if (!quiet && arrived.current) {
        untold.current = true;
        setResult("");
      }
      try {
        const tagged = await fetchLeads(view, starts.current?.get(toSearch(view)), controller.signal, shown.current);
        const { page } = tagged;
        if (page.leads.length === 0 && page.page > Math.max(1, page.pages)) {
          // The last leads of a later page were sent, deleted or moved away:
          // its last page now, rather than an empty list with no pager.
          setParams({ ...view, page: Math.max(1, page.pages) }, { replace: true });
          return;
        }
        shown.current = tagged;
        setData(page);
        setFailed(false);
        arrived.current = true;
        if (untold.current) {
          untold.current = false;
          setResult(page.leads.length === 0 ? panelMessages.empty : summary(page));
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        arrived.current = true;
        if (!quiet && !sessionEnded(error)) {
          toast(panelMessages.loadFailed);
          shown.current = null;
          setData(null);
          setFailed(true);
        }
      } finally {
        if (isLatest(controller)) setLoading(false);
      }
    },
    [toast, setParams, start, isLatest],
  );

  useEffect(() => {
    void load(params);
  }, [params, load]);

  // New leads show up within 30 seconds while the panel is in view, and at
  // once when staff come back to its tab (a reload that finds nothing
  // changed is a 304 of a few rows).
  useEffect(() => {
    const reload = () => {
      if (document.visibilityState === "visible") void load(params, true);
    };
    const timer = window.setInterval(reload, TICK_MS);
    document.addEventListener("visibilitychange", reload);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", reload);
    };
  }, [params, load]);

  const search = useCallback(
    (q: string) => setParams({ ...params, q, page: 1 }, { replace: true }),
    [params, setParams],
  );
  const [term, setTerm, searchNow] = useSearchTerm(params.q, search);
  const waitsForEnter = term !== params.q && isShortTerm(term);

  /** A period or campaign set or taken off: the list starts again from its first page. */
  const narrow = (change: Partial<ListFilters>) => setParams({ ...params, ...change, page: 1 });

  const actions = useLeadActions({ reload: () => load(onScreen.current, true) });

  const onExport = async () => {
    setExporting(true);
    try {
      await exportCsv(params);
    } catch (error) {
      // The server's own words when it said why (an owner took the export away).
      toast({ ...panelMessages.exportFailed, description: serverMessage(error) });
    } finally {
      setExporting(false);
    }
  };

  /** 'Próxima'/'Anterior': the page number goes in the address, where it starts is kept for the worker. */
  const turnPage = (page: number, start: PageStart | null) => {
    const next = { ...params, page };
    if (start) starts.current?.set(toSearch(next), start);
    setParams(next);
  };

  const counts = data?.counts;

  return (
    <>
      {data?.incident && <IncidentBanner incident={data.incident} />}

      <section className="counters" aria-label="Resumo">
        <Counter label="Total de Leads" value={counts?.total} />
        <Counter label="Enviados Jetimob" value={counts?.sent} tone="sent" />
        <Counter label="Pendentes" value={counts?.pending} tone="pending" />
        <Counter label="Precisam de atenção" value={counts?.attention} tone="failed" />
      </section>

      {data && !data.incident && !data.crm_configured && (
        <p className="notice" role="note">
          {panelMessages.crmNotConfigured}
        </p>
      )}

      <section className="leads" aria-labelledby="leads-title" ref={list}>
        <div className="leads__head">
          <h2 id="leads-title" ref={heading} tabIndex={-1}>
            Lista de Leads
          </h2>
          <Button type="button" className="button button--ghost" onClick={onExport} inactive={exporting}>
            {exporting ? "Exportando..." : "Exportar CSV"}
          </Button>
        </div>

        <div className="toolbar">
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
          <PeriodSelect period={params} onChange={narrow} />
          <fieldset className="filters">
            <legend className="sr-only">Status Jetimob</legend>
            {FILTERS.map((f) => (
              <button
                key={f.value}
                type="button"
                className="filters__option"
                aria-pressed={params.status === f.value}
                onClick={() => setParams({ ...params, status: f.value, page: 1 })}
              >
                {f.label}
                {data && <span className="filters__count">{formatCount(f.count(data))}</span>}
              </button>
            ))}
          </fieldset>
        </div>
        <FilterChips filters={params} onRemove={narrow} fallback={() => heading.current} />
        <p className="sr-only" role="status">
          {result}
        </p>

        {!data && loading ? (
          <p className="list-status" role="status">
            {panelMessages.loading}
          </p>
        ) : !data && failed ? (
          <LoadFailed text={panelMessages.loadFailed.description} onRetry={() => void load(onScreen.current)} />
        ) : data && data.leads.length === 0 ? (
          <p className="list-status">{panelMessages.empty}</p>
        ) : data ? (
          <>
            <LeadsTable
              leads={data.leads}
              busy={actions.busy}
              crmConfigured={data.crm_configured}
              onMarkSent={actions.onMarkSent}
              onResend={actions.onResend}
              onDelete={actions.onDelete}
              loading={loading}
            />
            <nav className="pager" aria-label="Páginas">
              <p>{summary(data)}</p>
              <div className="pager__buttons">
                <Button
                  type="button"
                  className="button button--ghost"
                  inactive={data.page <= 1}
                  onClick={() => turnPage(data.page - 1, data.first ? { before: data.first } : null)}
                >
                  Anterior
                </Button>
                <Button
                  type="button"
                  className="button button--ghost"
                  inactive={data.page >= data.pages}
                  onClick={() => turnPage(data.page + 1, data.last ? { after: data.last } : null)}
                >
                  Próxima
                </Button>
              </div>
            </nav>
          </>
        ) : null}
      </section>

      <ConfirmMarkSent
        lead={actions.toMark}
        onCancel={actions.onCancelMarkSent}
        onConfirm={actions.onConfirmMarkSent}
      />
      <ConfirmDelete lead={actions.toDelete} onCancel={actions.onCancelDelete} onConfirm={actions.onConfirmDelete} />
    </>
  );
}

/** The pager's line: '1–50 de 60 leads · página 1 de 2'. */
function summary(page: LeadsPage): string {
  const first = (page.page - 1) * page.page_size + 1;
  const last = Math.min(page.total, page.page * page.page_size);
  return `${formatCount(first)}–${formatCount(last)} de ${formatCount(page.total)} ${page.total === 1 ? "lead" : "leads"} · página ${formatCount(page.page)} de ${formatCount(Math.max(1, page.pages))}`;
}

function Counter({ label, value, tone }: { label: string; value?: number; tone?: "sent" | "pending" | "failed" }) {
  return (
    <div className={tone ? `counter counter--${tone}` : "counter"}>
      <p className="counter__label">{label}</p>
      <p className="counter__value">{value === undefined ? "–" : formatCount(value)}</p>
    </div>
  );
}
