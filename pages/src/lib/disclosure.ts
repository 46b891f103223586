import { createContext, useContext } from "react";

/**
 * Whether a lead's details go, protected, to the ad platforms (issue 45): the
 * worker's settings say it (worker/src/site/disclosure.rs), and the pages are
 * prerendered once per combination, each served by the worker at the page's
 * own address. The page learns which one it is from `#root[data-anuncios]`,
 * written into its HTML at build time, so it hydrates as it was rendered.
 */
export type AdsDisclosure = {
  /** Meta's Conversions API is configured. */
  meta: boolean;
  /** Google Ads' conversions import is configured. */
  google: boolean;
  /** `ADS_CONSENT=checkbox`: an unticked, optional box under the form, and only leads who ticked it are sent. */
  checkbox: boolean;
};

export const NO_ADS: AdsDisclosure = { meta: false, google: false, checkbox: false };

/** The name of a combination's pages, as the worker names it (`meta-google-consentimento`); null: nothing is sent. */
export function variantName(d: AdsDisclosure): string | null {
  if (!d.meta && !d.google) return null;
  return [d.meta && "meta", d.google && "google", d.checkbox && "consentimento"].filter(Boolean).join("-");
}

/** The combination a page's `data-anuncios` names; anything else is none. */
export function fromVariantName(name: string | undefined | null): AdsDisclosure {
  const found = ALL_VARIANTS.find((d) => variantName(d) === name);
  return found ?? NO_ADS;
}

/** Every combination that sends something: the build writes the public pages once for each. */
export const ALL_VARIANTS: AdsDisclosure[] = [true, false].flatMap((checkbox) =>
  [
    { meta: true, google: false },
    { meta: false, google: true },
    { meta: true, google: true },
  ].map((d) => ({ ...d, checkbox })),
);

/** Whether the form asks for consent before a lead may be sent. */
export const asksConsent = (d: AdsDisclosure) => d.checkbox && (d.meta || d.google);

/** "Meta", "Google" or "Meta e Google": who receives the data. */
export function platforms(d: AdsDisclosure): string {
  return [d.meta && "Meta", d.google && "Google"].filter(Boolean).join(" e ");
}

export const DisclosureContext = createContext<AdsDisclosure>(NO_ADS);

export function useDisclosure(): AdsDisclosure {
  return useContext(DisclosureContext);
}
