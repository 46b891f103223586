import { useCallback, useEffect, useState } from "react";
import { type Period, periodSearch, readPeriod } from "./period";

/**
 * The report's period lives in the address, so a reload or a shared link
 * shows the same report and Back returns to the period before. A Back that
 * leaves the page is not read as a period (the lead list's `de` and `ate`).
 */
export function usePeriod(): [Period, (next: Period) => void] {
  const [period, setPeriod] = useState<Period>(() => readPeriod(window.location.search));

  useEffect(() => {
    const path = window.location.pathname;
    const onPop = () => {
      if (window.location.pathname === path) setPeriod(readPeriod(window.location.search));
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  const update = useCallback((next: Period) => {
    window.history.pushState(null, "", `${window.location.pathname}${periodSearch(next)}`);
    setPeriod(next);
  }, []);

  return [period, update];
}
