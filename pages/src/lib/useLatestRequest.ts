import { useCallback, useRef } from "react";

/**
 * For a page that loads what it shows: each `start()` aborts the request
 * started before and answers the new one's controller, so the answer on
 * screen is always the latest asked for; `isLatest(controller)` tells
 * whether no other has started since.
 */
export function useLatestRequest(): {
  start: () => AbortController;
  isLatest: (controller: AbortController) => boolean;
} {
  const current = useRef<AbortController | null>(null);
  const start = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    return controller;
  }, []);
  const isLatest = useCallback((controller: AbortController) => current.current === controller, []);
  return { start, isLatest };
}
