import { useCallback, useEffect, useRef, useState } from "react";
import { LoadFailed } from "../../components/LoadFailed";
import { PeriodSelect } from "../../components/PeriodSelect";
import { type ListFilters, type ListParams, toSearch } from "../../lib/leadLinks";
import { TICK_MS, useSession } from "../../lib/session";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useLoad } from "../../lib/useLoad";
import { useNow } from "../../lib/useNow";
import { fetchLeads, type PageStart, type TaggedPage } from "./api";
import { ContactFilters } from "./ContactFilters";
import { FilterChips } from "./FilterChips";
import { pageSummary } from "./format";
import { IncidentBanner } from "./IncidentBanner";
import { LeadActionDialogs } from "./LeadActionDialogs";
import { LeadCounters } from "./LeadCounters";
import { LeadSearch } from "./LeadSearch";
import { LeadsExportButton } from "./LeadsExportButton";
import { LeadsPager } from "./LeadsPager";
import { LeadsTable } from "./LeadsTable";
import { contactMessages, panelMessages } from "./messages";
import { PageStarts } from "./pageStarts";
import { StatusFilters } from "./StatusFilters";
import { useLeadActions } from "./useLeadActions";
import { isPhone, shownContact, useListParams } from "./useListParams";

/** The counters, the filters and search, the table of leads and its pages. */
export function LeadsPanel() {
  const [params, setParams] = useListParams();
  const session = useSession();
  const me = session.status === "signed-in" ? session.user : { id: "", email: "", role: "staff" as const };
  // Whether the panel opened on a phone: a broker's list starts on 'Não contatados' there.
  const [phone] = useState(isPhone);
  const contato = shownContact(params, me.role !== "owner", phone);
  const now = useNow();
  /** Where each page reached with 'Próxima'/'Anterior' starts, by its address. */
  const starts = useRef<PageStarts | null>(null);
  starts.current ??= new PageStarts();
  // The page on screen comes with its tag: a reload asks only whether it changed.
  // Without `keep`: a view that failed shows nothing of another under its filter.
  // A new view refused for the hour (429, no 'Exportar CSV') is said in the worker's own words.
  const { data, loading, failed, refusal, said, load, retry, reload } = useLoad<ListParams, TaggedPage>({
    fetch: async (view, signal, shown) => {
      const tagged = await fetchLeads(view, starts.current?.get(toSearch(view)), signal, shown);
      const { page } = tagged;
      if (page.leads.length === 0 && page.page > Math.max(1, page.pages)) {
        // The last leads of a later page were sent, deleted or moved away:
        // its last page now, rather than an empty list with no pager.
        setParams({ ...view, page: Math.max(1, page.pages) }, { replace: true });
        return null;
      }
      return tagged;
    },
    failure: panelMessages.loadFailed,
    refusals: [429],
    announce: ({ page }) => (page.leads.length === 0 ? panelMessages.empty : pageSummary(page)),
  });
  const page = data?.page ?? null;
  const list = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // A lead's row gone (deleted, or out of the filter once sent) or its 'Marcar Enviado' gone:
  // focus goes to the row's first action, the next row's, or the list's heading.
  useFocusRescue(list, { items: "tbody tr", target: ".row-actions button", fallback: () => heading.current });

  /** What the worker is asked: the view, with its contact filter as shown. */
  const view = useRef<ListParams>(params);
  view.current = { ...params, contato: contato === "todos" ? "" : contato };
  const viewKey = toSearch(view.current);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is read through its ref; its address says when it changed.
  useEffect(() => {
    void load(view.current);
  }, [viewKey, load]);

  // New leads show up within 30 seconds while the panel is in view, and at
  // once when staff come back to its tab (a reload that finds nothing
  // changed is a 304 of a few rows).
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === "visible") void load(view.current, { quiet: true });
    };
    const timer = window.setInterval(tick, TICK_MS);
    document.addEventListener("visibilitychange", tick);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", tick);
    };
  }, [load]);

  const search = useCallback(
    (q: string) => setParams({ ...params, q, page: 1 }, { replace: true }),
    [params, setParams],
  );

  /** A period or campaign set or taken off: the list starts again from its first page. */
  const narrow = (change: Partial<ListFilters>) => setParams({ ...params, ...change, page: 1 });

  const actions = useLeadActions({ reload });

  /** 'Próxima'/'Anterior': the page number goes in the address, where it starts is kept for the worker. */
  const turnPage = (to: number, start: PageStart | null) => {
    const next = { ...params, page: to };
    if (start) starts.current?.set(toSearch({ ...view.current, page: to }), start);
    setParams(next);
  };

  return (
    <>
      {page?.incident && (
        <IncidentBanner
          incident={page.incident}
          refused={page.refused}
          phone={phone}
          onShowRefused={() => setParams({ ...params, status: "falhas", page: 1 })}
        />
      )}
      <LeadCounters counts={page?.counts} />
      {page && !page.incident && !page.crm_configured && (
        <p className="notice" role="note">
          {panelMessages.crmNotConfigured}
        </p>
      )}

      <section className="leads" aria-labelledby="leads-title" ref={list}>
        <div className="leads__head">
          <h2 id="leads-title" ref={heading} tabIndex={-1}>
            Lista de Leads
          </h2>
          {page?.rights.export && <LeadsExportButton view={view.current} onFailed={() => void reload()} />}
        </div>

        <div className="toolbar">
          <LeadSearch q={params.q} onSearch={search} />
          <PeriodSelect period={params} onChange={narrow} />
          <ContactFilters shown={contato} page={page} onChange={(c) => setParams({ ...params, contato: c, page: 1 })} />
          <StatusFilters
            status={params.status}
            page={page}
            onChange={(status) => setParams({ ...params, status, page: 1 })}
          />
        </div>
        {!params.contato && contato === "nao" && <p className="list-note">{contactMessages.phoneDefault}</p>}
        <FilterChips filters={params} onRemove={narrow} fallback={() => heading.current} />
        <p className="sr-only" role="status">
          {said}
        </p>

        {refusal ? (
          <div className="notice notice--limit" role="alert">
            <p className="notice__title">{panelMessages.readLimitTitle}</p>
            <p>{refusal.message}</p>
            <p>{panelMessages.readLimitNote}</p>
          </div>
        ) : !page && loading ? (
          <p className="list-status" role="status">
            {panelMessages.loading}
          </p>
        ) : !page && failed ? (
          <LoadFailed text={panelMessages.loadFailed.description} onRetry={retry} />
        ) : page && page.leads.length === 0 ? (
          <p className="list-status">{panelMessages.empty}</p>
        ) : page ? (
          <>
            <LeadsTable
              leads={page.leads}
              busy={actions.busy}
              crmConfigured={page.crm_configured}
              rights={page.rights}
              onMarkSent={actions.onMarkSent}
              onResend={actions.onResend}
              onDelete={actions.onDelete}
              onSpoke={actions.onSpoke}
              me={me}
              now={now}
              loading={loading}
            />
            <LeadsPager page={page} onTurn={turnPage} />
          </>
        ) : null}
      </section>

      <LeadActionDialogs actions={actions} />
    </>
  );
}
