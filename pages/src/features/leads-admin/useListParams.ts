import { useCallback, useEffect, useRef, useState } from "react";
import { questions } from "../../config/agency";
import { isDay } from "../../lib/days";
import { type ContactFilter, type ListParams, type StatusFilter, toSearch } from "../../lib/leadLinks";
import { PANEL_KEY_PREFIX, safeStorage } from "../../lib/storage";

const FILTERS: StatusFilter[] = ["todos", "pendentes", "enviados", "falhas", "duplicados", "alteracoes"];
const CONTACTS: ContactFilter[] = ["todos", "nao", "meus"];

export function readParams(search: string): ListParams {
  const params = new URLSearchParams(search);
  const status = params.get("status") as StatusFilter | null;
  const contato = params.get("contato") as ContactFilter | null;
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return isDay(value) ? value : "";
  };
  return {
    status: status && FILTERS.includes(status) ? status : "todos",
    contato: contato && CONTACTS.includes(contato) ? contato : "",
    q: params.get("q") ?? "",
    page: Number.isFinite(page) && page > 0 ? page : 1,
    de: day("de"),
    ate: day("ate"),
    fonte: params.get("fonte") ?? "",
    campanha: params.get("campanha"),
    anuncio: params.get("anuncio"),
    respostas: questions.flatMap((q) => {
      const chosen = params
        .getAll("resposta")
        .filter((a) => a.startsWith(`${q.id}:`) && q.options.includes(a.slice(q.id.length + 1)));
      return chosen.slice(-1);
    }),
  };
}

/** The tab's storage key of the list's last view (its address's query); 'Sair' forgets it. */
const LAST_VIEW = `${PANEL_KEY_PREFIX}list-view`;

/**
 * The list as staff last saw it in this tab, filter, search and page: where
 * a lead's page leads back to, also after a reload of that page.
 */
export function lastListAddress(): string {
  try {
    return `/admin${safeStorage("sessionStorage")?.getItem(LAST_VIEW) ?? ""}`;
  } catch {
    return "/admin";
  }
}

/**
 * The filters, search and page live in the address bar, so a reload or a
 * shared link shows the same view and Back returns to the previous one.
 * A change that comes once the address has left the list (a search typed
 * just before opening a lead, applied while the lead's page loads) is
 * dropped: it never lands in another page's address.
 */
/**
 * The contact filter a view shows: the one in its address, else the
 * person's default. A broker (not an owner) on a phone starts on 'Não
 * contatados': between visits, the first screen is who still waits for a
 * call, newest first; owners, and everyone at a desk, start on every lead.
 */
export function shownContact(params: ListParams, broker: boolean, phone: boolean): Exclude<ContactFilter, ""> {
  if (params.contato) return params.contato;
  return broker && phone ? "nao" : "todos";
}

/** Whether the screen is a phone's (the panel's phone layout). */
export function isPhone(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(max-width: 40rem)").matches;
}

export function useListParams(): [ListParams, (next: ListParams, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useState<ListParams>(() => readParams(window.location.search));
  const listPath = useRef(window.location.pathname);

  useEffect(() => {
    try {
      safeStorage("sessionStorage")?.setItem(LAST_VIEW, toSearch(params));
    } catch {
      // Storage refused: the way back is the whole list.
    }
  }, [params]);

  useEffect(() => {
    const onPop = () => setParams(readParams(window.location.search));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  const update = useCallback((next: ListParams, options?: { replace?: boolean }) => {
    if (window.location.pathname !== listPath.current) return;
    const url = `${listPath.current}${toSearch(next)}`;
    if (options?.replace) window.history.replaceState(null, "", url);
    else window.history.pushState(null, "", url);
    setParams(next);
  }, []);

  return [params, update];
}
