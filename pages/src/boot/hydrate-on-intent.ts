/** What counts as the visitor starting to use a form. */
export const INTENT_EVENTS = ["focusin", "pointerdown", "input"] as const;

/**
 * Calls `start` once: at the visitor's first focus, press or input inside a
 * form of the page, or when the browser is idle after the page has loaded
 * and painted, whichever comes first. Browsers without `requestIdleCallback`
 * (Safari) start just after that paint.
 */
export function startOnIntentOrIdle(start: () => void, win: Window = window): void {
  const doc = win.document;
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, true);
    start();
  };
  const onIntent = (event: Event) => {
    const target = event.target as Partial<Element> | null;
    if (target?.closest?.("form")) go();
  };
  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });

  // The load event can come before the first paint: wait for the next frame
  // to be painted too, so the fetch never competes with it.
  const whenIdle = () =>
    win.requestAnimationFrame(() =>
      win.setTimeout(() => {
        if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(go);
        else go();
      }, 0),
    );
  if (doc.readyState === "complete") whenIdle();
  else win.addEventListener("load", whenIdle, { once: true });
}
