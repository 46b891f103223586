/** Campaign parameters the page was opened with, sent along with the lead. */
export const ATTRIBUTION_KEYS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "gclid",
  "fbclid",
] as const;

export type Attribution = Partial<Record<(typeof ATTRIBUTION_KEYS)[number] | "referrer" | "page_url", string>>;

const STORAGE_KEY = "lead-attribution";

/**
 * Reads the campaign parameters of `url`. The first visit's parameters are
 * kept for the browser session, so a visitor who reads the privacy page
 * before signing up still counts for the campaign that brought them.
 */
export function captureAttribution(url: string, referrer: string, storage: Storage | null): Attribution {
  const params = new URL(url).searchParams;
  const fromUrl: Attribution = {};
  for (const key of ATTRIBUTION_KEYS) {
    const value = params.get(key)?.trim();
    if (value) fromUrl[key] = value;
  }
  let saved: Attribution | null = null;
  try {
    saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "null") as Attribution | null;
  } catch {
    saved = null;
  }
  const first: Attribution = saved ?? { ...fromUrl, referrer, page_url: url };
  if (!saved) {
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify(first));
    } catch {
      // Private mode or storage full: attribution is a nicety, never a blocker.
    }
  }
  return Object.fromEntries(Object.entries(first).filter(([, v]) => v)) as Attribution;
}
