import { development } from "../../config/agency";
import { type AdsDisclosure, asksConsent } from "../../lib/disclosure";

/** "na Meta", "no Google", "na Meta e no Google". */
export function onPlatforms(d: AdsDisclosure): string {
  return [d.meta && "na Meta", d.google && "no Google"].filter(Boolean).join(" e ");
}

/** "à Meta", "ao Google", "à Meta e ao Google". */
export function toPlatforms(d: AdsDisclosure): string {
  return [d.meta && "à Meta", d.google && "ao Google"].filter(Boolean).join(" e ");
}

/** The form's consent box (`ADS_CONSENT=checkbox`), word for word as the issue gives it. */
export const CONSENT_LABEL = "Aceito que meus dados sejam usados, de forma protegida, para medir os anúncios";

/** The line under the form: what the data is used for, in a few words. */
export function formLine(d: AdsDisclosure): string {
  if (!d.meta && !d.google) return `Usamos seus dados só para falar com você sobre o ${development.name}.`;
  const when = asksConsent(d) ? "se você permitir, " : "";
  return `Usamos seus dados para falar com você sobre o ${development.name} e, ${when}de forma protegida, para medir nossos anúncios ${onPlatforms(d)}.`;
}

/** The footer's LGPD notice, after 'LGPD:'. */
export function footerNotice(d: AdsDisclosure): string {
  const law = "seus dados são tratados conforme a Lei Geral de Proteção de Dados (Lei nº 13.709/2018)";
  const erase = "Você pode pedir a exclusão a qualquer momento.";
  if (!d.meta && !d.google) return `${law} e usados apenas para contato sobre este empreendimento. ${erase}`;
  const when = asksConsent(d) ? ", se você permitir" : "";
  return `${law} e usados para contato sobre este empreendimento e, de forma protegida${when}, para medir nossos anúncios ${onPlatforms(d)}. ${erase}`;
}
