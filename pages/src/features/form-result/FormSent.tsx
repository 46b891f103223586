import { development } from "../../config/agency";
import { TeamWhatsAppLink } from "../lead-form/TeamWhatsAppLink";
import { ResultPage } from "./ResultPage";

/** /obrigado */
export default function FormSent() {
  return (
    <ResultPage tone="sent" title="Recebemos seus dados!" action={{ to: "/", label: "Voltar ao site" }}>
      <p>Seus dados foram enviados. Em breve entraremos em contato.</p>
      <p>Você está no grupo de pré-cadastro do {development.name} e saberá de tudo antes do lançamento oficial.</p>
      <p>
        <TeamWhatsAppLink />
      </p>
    </ResultPage>
  );
}
