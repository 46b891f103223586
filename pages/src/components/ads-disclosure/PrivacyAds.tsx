import { agency, development } from "../../config/agency";
import { type AdsDisclosure, asksConsent } from "../../lib/disclosure";
import { EmailAddress } from "../EmailAddress";
import { CONSENT_LABEL, onPlatforms, toPlatforms } from "./messages";

/** The ad platforms among the services the data passes through (the privacy notice's list). */
export function AdsRecipients({ disclosure: d }: { disclosure: AdsDisclosure }) {
  return (
    <>
      {d.meta && (
        <li>
          a Meta (Facebook e Instagram), que recebe de forma protegida os cadastros vindos dos anúncios dela, para
          medi-los (veja “Medição dos anúncios”){d.google ? ";" : "."}
        </li>
      )}
      {d.google && (
        <li>
          o Google (Google Ads), que recebe de forma protegida os cadastros vindos dos anúncios dele, para medi-los
          (veja “Medição dos anúncios”).
        </li>
      )}
    </>
  );
}

/**
 * The privacy notice's section on the ads, when a lead's details go to Meta or
 * Google: who, what for, what exactly, on what basis, and how to stop it.
 */
export function PrivacyAds({ disclosure: d }: { disclosure: AdsDisclosure }) {
  if (!d.meta && !d.google) return null;
  const consent = asksConsent(d);
  return (
    <section aria-labelledby="privacidade-anuncios">
      <h2 id="privacidade-anuncios">Medição dos anúncios</h2>
      <p>
        Para saber quais anúncios trazem pessoas interessadas no {development.name} e melhorar esses anúncios,
        informamos {toPlatforms(d)} cada novo cadastro feito a partir de um clique em anúncio.{" "}
        {consent
          ? `Fazemos isso só quando você marca, no formulário, a caixa “${CONSENT_LABEL}”, que vem desmarcada; sem ela, nada é enviado, e o seu cadastro vale do mesmo jeito.`
          : "Isso vale para todo cadastro feito enquanto essa medição estiver ativa."}
      </p>
      <p>O que enviamos, e só isso:</p>
      <ul>
        <li>
          o e-mail, o telefone e o nome em forma de resumo criptográfico (hash SHA-256): a plataforma só consegue
          compará-los com os dados que já tem das contas dela, sem lê-los;
        </li>
        <li>
          o identificador do clique no anúncio, que vem no link
          {d.meta && d.google
            ? " (fbclid, da Meta; gclid, gbraid ou wbraid, do Google)"
            : d.meta
              ? " (fbclid)"
              : " (gclid, gbraid ou wbraid)"}
          , e a data e a hora do cadastro;
        </li>
        {d.meta && (
          <li>
            para a Meta, também o endereço IP e a identificação do navegador no momento do envio do formulário, que não
            guardamos.
          </li>
        )}
      </ul>
      <p>
        O site continua sem cookies de publicidade e sem código das plataformas de anúncios: o envio parte do nosso
        servidor, depois do seu cadastro. A base legal é{" "}
        {consent
          ? "o seu consentimento, que você pode retirar quando quiser"
          : `o legítimo interesse da ${agency.name} em medir a própria publicidade, com os seus dados protegidos dessa forma`}
        . Para que seus dados não sejam usados assim, ou para pedir a exclusão do que já foi enviado, escreva para{" "}
        <a href={`mailto:${agency.privacyEmail}`}>
          <EmailAddress email={agency.privacyEmail} />
        </a>
        : deixamos de enviar e pedimos a exclusão {toPlatforms(d)}. Os dados enviados ficam guardados {onPlatforms(d)}{" "}
        conforme as regras {d.meta && d.google ? "de cada uma" : d.meta ? "dela" : "dele"}, e podem ser processados fora
        do Brasil.
      </p>
    </section>
  );
}
