/*
 * Where a page reached without a reload takes the keyboard and the view: its
 * heading, or the element its address's #fragment names.
 */

/**
 * Focuses the page's <h1 tabIndex={-1}> once it is on screen (a staff page
 * shows it once the session is checked), unless focus has gone somewhere
 * meanwhile. Answers what stops waiting for it.
 */
export function focusHeading(): () => void {
  const before = document.activeElement;
  const focus = () => {
    const heading = document.querySelector<HTMLElement>("h1");
    if (!heading) return false;
    const now = document.activeElement;
    if (now === before || now === document.body || now === null) heading.focus({ preventScroll: true });
    return true;
  };
  if (focus()) return () => {};
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

/** Scrolls to the element a `#fragment` names, once the next page has rendered it. */
export function scrollToHash(hash: string, tries = 20) {
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (target) target.scrollIntoView({ block: "center" });
  else if (tries > 0) window.setTimeout(() => scrollToHash(hash, tries - 1), 50);
}
