/** What counts as the visitor starting to use a form. */
export const INTENT_EVENTS = ["focusin", "pointerdown", "input"] as const;

/**
 * Calls `start` once, at the visitor's first focus, press or input inside a
 * form of the page: a visitor who only reads runs no script but the loader.
 *
 * Calls `prepare` once before that, when the browser is idle after the page
 * has loaded, painted its first content and drawn its web fonts (unless the
 * visitor started first): the moment to fetch what `start` runs, so that the
 * first touch only has to run it. Browsers without `requestIdleCallback`
 * (Safari) prepare just after that.
 */
export function startOnIntent(start: () => void, prepare: () => void, win: Window = window): void {
  const doc = win.document;
  let started = false;
  let prepared = false;
  const onIntent = (event: Event) => {
    const target = event.target as Partial<Element> | null;
    if (started || !target?.closest?.("form")) return;
    started = true;
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, true);
    start();
  };
  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });

  const onIdle = () => {
    if (started || prepared) return;
    prepared = true;
    prepare();
  };
  // The fetch must not compete with the page's own first paints: the load
  // event can come before the first paint, and a frame asked for can be shown
  // later than its callback runs. So: load, then the first contentful paint as
  // the browser reports it, then the web fonts (their swap is the last paint
  // of the text), then one more frame, then idleness.
  const whenIdle = () =>
    afterFirstPaint(win, () => {
      const fonts = doc.fonts?.ready ?? Promise.resolve();
      void fonts.then(() =>
        win.requestAnimationFrame(() =>
          win.setTimeout(() => {
            if (typeof win.requestIdleCallback === "function") win.requestIdleCallback(onIdle);
            else onIdle();
          }, 0),
        ),
      );
    });
  if (doc.readyState === "complete") whenIdle();
  else win.addEventListener("load", whenIdle, { once: true });
}

/**
 * Calls `then` once the browser reports the page's first contentful paint
 * (at once if it did already); where paint timing is not reported, after the
 * next frame.
 */
function afterFirstPaint(win: Window, then: () => void): void {
  const Observer = (win as Window & { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
  if (typeof Observer !== "function" || !Observer.supportedEntryTypes?.includes("paint")) {
    win.requestAnimationFrame(() => win.setTimeout(then, 0));
    return;
  }
  const observer = new Observer((list) => {
    if (list.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    then();
  });
  observer.observe({ type: "paint", buffered: true });
}
