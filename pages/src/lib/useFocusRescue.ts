import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

type Rescue = {
  /** The items of the list in `scope` (its rows), where focus moves between. */
  items?: string;
  /** What takes focus in an item: its first action. */
  target?: string;
  /** Where focus goes when no item can take it: the list's heading, the lead's status. */
  fallback: () => HTMLElement | null;
};

/** Where focus was last inside the scope: the element and its item, with the item's place in the list. */
type Last = { element: Element; item: Element | null; index: number };

/**
 * Keeps keyboard focus from falling to the page's <body> when the control
 * holding it goes away: 'Marcar Enviado' once the lead is sent, a deleted
 * lead's row, an account's action once done. After each render, if the
 * element last focused inside `scope` is gone and focus is nowhere, focus
 * goes to the `target` of the same item if it is still there, else of the
 * item now in its place (the next row) or the last one, else to `fallback()`.
 */
export function useFocusRescue(scope: RefObject<HTMLElement | null>, rescue: Rescue): void {
  const last = useRef<Last | null>(null);
  const latest = useRef(rescue);
  latest.current = rescue;

  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const element = event.target;
      const area = scope.current;
      if (!(element instanceof Element) || !area?.contains(element)) {
        // Focus went somewhere else on purpose: nothing to rescue.
        last.current = null;
        return;
      }
      const items = itemsIn(area, latest.current.items);
      const item = items.find((i) => i.contains(element)) ?? null;
      last.current = { element, item, index: item ? items.indexOf(item) : -1 };
    };
    // Focus left for nowhere: a click on blank space (the element is still
    // there once the event is over), not the element going away, nor the
    // window losing focus (the element is still the active one).
    const onFocusOut = (event: FocusEvent) => {
      const element = event.target;
      if (event.relatedTarget || !(element instanceof Element)) return;
      window.setTimeout(() => {
        if (last.current?.element === element && element.isConnected && document.activeElement !== element) {
          last.current = null;
        }
      }, 0);
    };
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("focusout", onFocusOut);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("focusout", onFocusOut);
    };
  }, [scope]);

  useLayoutEffect(() => {
    const lost = last.current;
    const area = scope.current;
    if (!lost || lost.element.isConnected || !area) return;
    last.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const { items: itemSelector, target, fallback } = latest.current;
    const items = itemsIn(area, itemSelector);
    let item = lost.item;
    if (item && !item.isConnected) item = items[lost.index] ?? items.at(-1) ?? null;
    const next = (target && item?.querySelector<HTMLElement>(target)) || fallback();
    // Without scrolling: the page stays where the person left it.
    next?.focus({ preventScroll: true });
  });
}

function itemsIn(area: HTMLElement, selector: string | undefined): Element[] {
  return selector ? [...area.querySelectorAll(selector)] : [];
}
