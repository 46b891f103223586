/**
 * Campaign parameters and click ids the page was opened with, sent along with
 * the lead: the worker's list (worker/src/attribution.rs, `attribution_fields!`)
 * but for the referrer and the page's address.
 */
export const ATTRIBUTION_KEYS = [
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "gclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "msclkid",
  "ttclid",
] as const;

export type Attribution = Partial<Record<(typeof ATTRIBUTION_KEYS)[number] | "referrer" | "page_url", string>>;

const STORAGE_KEY = "lead-attribution";

/** The campaign parameters in the address `url`. */
function campaignOf(url: string): Attribution {
  const found: Attribution = {};
  try {
    const params = new URL(url).searchParams;
    for (const key of ATTRIBUTION_KEYS) {
      const value = params.get(key)?.trim();
      if (value) found[key] = value;
    }
  } catch {
    // Not an address (an empty referrer): no campaign.
  }
  return found;
}

/** Whether `referrer` is a page of the site `url` is on. */
function sameSite(referrer: string, url: string): boolean {
  try {
    return new URL(referrer).origin === new URL(url).origin;
  } catch {
    return false;
  }
}

/**
 * Reads the campaign parameters of `url`. The first visit's parameters are
 * kept for the browser session, so a visitor who reads the privacy page
 * before signing up still counts for the campaign that brought them. The
 * landing runs this script only once the visitor uses the form, so the
 * first visit may not have been seen: a page of this site that sent the
 * visitor here (the landing, opened from an ad, then the privacy notice,
 * then back through the header's logo) still has the campaign in its address.
 */
export function captureAttribution(url: string, referrer: string, storage: Storage | null): Attribution {
  const fromUrl = campaignOf(url);
  let saved: Attribution | null = null;
  try {
    saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? "null") as Attribution | null;
  } catch {
    saved = null;
  }
  const fromReferrer = sameSite(referrer, url) ? campaignOf(referrer) : {};
  const arrived: Attribution =
    Object.keys(fromUrl).length === 0 && Object.keys(fromReferrer).length > 0
      ? { ...fromReferrer, page_url: referrer }
      : { ...fromUrl, referrer, page_url: url };
  const first: Attribution = saved ?? arrived;
  if (!saved) {
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify(first));
    } catch {
      // Private mode or storage full: attribution is a nicety, never a blocker.
    }
  }
  return Object.fromEntries(Object.entries(first).filter(([, v]) => v)) as Attribution;
}
