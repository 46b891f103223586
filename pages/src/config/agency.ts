import agencyJson from "../../../agency.json";

/**
 * Everything agency-specific (names, city, CRECI, contacts, social links, the
 * staff e-mail domain) comes from agency.json at the repository root, which
 * the worker reads too.
 */
export const agency = agencyJson.agency;
export const development = agencyJson.development;
export const site = agencyJson.site;
/** The development in pictures: the agency's images (drawn artwork until it supplies photos). */
export const gallery: GalleryImage[] = agencyJson.gallery;
/** The optional questions after 'Sucesso!': the worker keeps only these options (worker/build.rs). */
export const questions: { id: string; label: string; options: string[] }[] = agencyJson.questions;

/**
 * An image of the gallery: a file under pages/public (`/galeria/…`) or an
 * address; `sources` for modern formats (AVIF, WebP) with `srcset` widths,
 * `srcset` for the fallback's, and its own width and height (no layout shift).
 */
export type GalleryImage = {
  src: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
  srcset?: string;
  sources?: { type: string; srcset: string }[];
};

/** `+5549999990000` → `(49) 99999-0000`; other numbers unchanged. */
export function formatPhone(e164: string): string {
  const national = e164.startsWith("+55") ? e164.slice(3) : null;
  if (!national || !/^\d{10,11}$/.test(national)) return e164;
  const split = national.length === 11 ? 7 : 6;
  return `(${national.slice(0, 2)}) ${national.slice(2, split)}-${national.slice(split)}`;
}

/** A chat with `e164` with `text` typed in it; without a number, WhatsApp asks whom to send `text` to. */
export function whatsappLink(e164: string, text?: string): string {
  const query = text ? `?text=${encodeURIComponent(text)}` : "";
  return `https://wa.me/${e164.replace(/\D/g, "")}${query}`;
}
