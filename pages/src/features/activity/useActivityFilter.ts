import { useCallback, useEffect, useState } from "react";
import { isDay } from "../../lib/days";
import { type ActivityFilter, filterQuery } from "./api";

/** The filter an address names (`/admin/atividade?pessoa=…&acao=…&de=…&ate=…`). */
export function readFilter(search: string): ActivityFilter {
  const params = new URLSearchParams(search);
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return isDay(value) ? value : "";
  };
  return { pessoa: params.get("pessoa") ?? "", acao: params.get("acao") ?? "", de: day("de"), ate: day("ate") };
}

/**
 * 'Atividade''s filter lives in the address, so a reload, a shared link (the
 * owners' e-mail about someone reading many leads names the person) and
 * Back show the same entries.
 */
export function useActivityFilter(): [ActivityFilter, (next: ActivityFilter) => void] {
  const [filter, setFilter] = useState(() => readFilter(window.location.search));

  useEffect(() => {
    const onPop = () => setFilter(readFilter(window.location.search));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  const update = useCallback((next: ActivityFilter) => {
    const query = filterQuery(next).toString();
    window.history.pushState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
    setFilter(next);
  }, []);

  return [filter, update];
}
