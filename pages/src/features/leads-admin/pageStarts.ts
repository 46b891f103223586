import { PANEL_KEY_PREFIX, safeStorage } from "../../lib/storage";
import type { PageStart } from "./api";

/** The tab's storage key ('Sair' forgets it), and how many pages it remembers (the newest turned to). */
const KEY = `${PANEL_KEY_PREFIX}page-starts`;
const KEPT = 50;

/**
 * Where each page reached with 'Próxima' or 'Anterior' starts, by its
 * address (`toSearch`). Kept for the tab (sessionStorage), so reloading the
 * browser on page 1,000 seeks to it instead of having the worker skip 49,950
 * leads; a shared link, in another tab, still finds the page by its number.
 * Only lead ids and times are kept, never a lead's details.
 */
export class PageStarts {
  private readonly starts: Map<string, PageStart>;

  constructor(private readonly storage: Storage | null = safeStorage("sessionStorage")) {
    this.starts = new Map(read(storage));
  }

  get(search: string): PageStart | undefined {
    return this.starts.get(search);
  }

  set(search: string, start: PageStart): void {
    this.starts.delete(search);
    this.starts.set(search, start);
    for (const oldest of [...this.starts.keys()].slice(0, Math.max(0, this.starts.size - KEPT))) {
      this.starts.delete(oldest);
    }
    try {
      this.storage?.setItem(KEY, JSON.stringify([...this.starts]));
    } catch {
      // Storage full or refused: the tab still remembers until it reloads.
    }
  }
}

/** What the tab kept, ignoring anything that is not a list of [address, start]. */
function read(storage: Storage | null): [string, PageStart][] {
  try {
    const kept: unknown = JSON.parse(storage?.getItem(KEY) ?? "[]");
    if (!Array.isArray(kept)) return [];
    return kept.filter(
      (entry): entry is [string, PageStart] =>
        Array.isArray(entry) &&
        typeof entry[0] === "string" &&
        typeof entry[1] === "object" &&
        entry[1] !== null &&
        (typeof entry[1].after === "string" || typeof entry[1].before === "string"),
    );
  } catch {
    return [];
  }
}
