import { useCallback, useEffect, useRef, useState } from "react";

/** How long the search box waits after the last key before it searches. */
export const SEARCH_DELAY_MS = 300;

/**
 * Whether a term is too short to search while it is typed: one or two
 * characters (a phone-like term counted by its digits, as the worker reads it).
 * The worker finds such a term only by reading every lead's details (no
 * trigram is that short), so the box searches it on Enter alone, not on the
 * way to a longer one.
 */
export function isShortTerm(term: string): boolean {
  const words = term.trim().split(/\s+/).join(" ");
  if (words === "") return false;
  const digits = words.replace(/\D/g, "");
  const phoneLike = digits !== "" && /^[\d ().+-]+$/.test(words);
  return [...(phoneLike ? digits : words)].length < 3;
}

/**
 * The search box's text. It is applied (`apply`) SEARCH_DELAY_MS after the
 * last key (a short term, see `isShortTerm`, only by `searchNow`, on Enter),
 * and follows `q` (the search in the address) when the address changes on
 * its own, as with Back and Forward. The address echoing the box's own search
 * never overwrites the box: on a slow phone that echo can arrive after the
 * person has typed on, and what they typed would be lost.
 */
export function useSearchTerm(q: string, apply: (term: string) => void): [string, (term: string) => void, () => void] {
  const [term, setTerm] = useState(q);
  const applied = useRef(q);

  useEffect(() => {
    if (q === applied.current) return;
    applied.current = q;
    setTerm(q);
  }, [q]);

  const searchNow = useCallback(() => {
    if (term === q) return;
    applied.current = term;
    apply(term);
  }, [term, q, apply]);

  useEffect(() => {
    if (term === q || isShortTerm(term)) return;
    const timer = window.setTimeout(searchNow, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [term, q, searchNow]);

  return [term, setTerm, searchNow];
}
