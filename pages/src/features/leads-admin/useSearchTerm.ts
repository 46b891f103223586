import { useEffect, useRef, useState } from "react";

/** How long the search box waits after the last key before it searches. */
export const SEARCH_DELAY_MS = 300;

/**
 * The search box's text. It is applied (`apply`) SEARCH_DELAY_MS after the
 * last key, and follows `q` (the search in the address) when the address
 * changes on its own, as with Back and Forward. The address echoing the box's
 * own search never overwrites the box: on a slow phone that echo can arrive
 * after the person has typed on, and what they typed would be lost.
 */
export function useSearchTerm(q: string, apply: (term: string) => void): [string, (term: string) => void] {
  const [term, setTerm] = useState(q);
  const applied = useRef(q);

  useEffect(() => {
    if (q === applied.current) return;
    applied.current = q;
    setTerm(q);
  }, [q]);

  useEffect(() => {
    if (term === q) return;
    const timer = window.setTimeout(() => {
      applied.current = term;
      apply(term);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [term, q, apply]);

  return [term, setTerm];
}
