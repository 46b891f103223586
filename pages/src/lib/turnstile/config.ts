import { apiRequest } from "../api";

/** What the worker tells the pages at run time (`GET /api/config`). */
export type PublicConfig = { turnstile_site_key: string | null };

let pending: Promise<PublicConfig> | null = null;

/**
 * Fetched once per page, on the first use of a protected form rather than on
 * load: the landing's first load makes no request beyond its own files. A
 * failure is remembered only until the next try.
 */
export function publicConfig(): Promise<PublicConfig> {
  pending ??= apiRequest<PublicConfig>("/api/config").catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}
