/**
 * The browser's storage, or null where it is refused: reading
 * `window.localStorage` itself throws in some private modes, sandboxed
 * frames, and with storage switched off.
 */
export function safeStorage(name: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[name];
  } catch {
    return null;
  }
}

/** The start of every key the leads panel keeps in the tab's sessionStorage: 'Sair' forgets them all. */
export const PANEL_KEY_PREFIX = "leads-";
