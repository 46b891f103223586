import { EmailAddress } from "../../components/EmailAddress";
import { agency, development } from "../../config/agency";
import { SiteFooter, SiteHeader } from "../landing/SiteChrome";
import "./privacy.css";

/** The LGPD privacy notice for the lead form, with the agency's details from configuration. */
export default function Privacy() {
  return (
    <>
      <SiteHeader overlay={false} />
      <main className="privacy container">
        <h1>Política de Privacidade</h1>
        <p className="privacy__intro">
          Esta política explica como a {agency.legalName} ({agency.creci}) trata os dados pessoais que você informa no
          pré-cadastro do {development.name}, conforme a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018).
        </p>

        <h2>Quais dados coletamos</h2>
        <p>
          Nome completo, e-mail e número de WhatsApp, que você digita no formulário. Também registramos de onde veio a
          sua visita (por exemplo, o anúncio ou a rede social que trouxe você ao site) e a data do cadastro.
        </p>

        <h2>Para que usamos</h2>
        <p>
          Somente para entrar em contato com você sobre o {development.name}: enviar informações do pré-lançamento,
          plantas, valores e condições, e tirar suas dúvidas. A base legal é o seu consentimento ao enviar o formulário.
          Não vendemos nem cedemos seus dados para outras finalidades.
        </p>

        <h2>Com quem compartilhamos</h2>
        <p>
          Os dados ficam armazenados com segurança em nossa infraestrutura e são registrados no sistema de gestão de
          clientes (CRM) que a {agency.name} usa para organizar o atendimento. Apenas a nossa equipe tem acesso.
        </p>

        <h2>Por quanto tempo guardamos</h2>
        <p>Enquanto durar o lançamento do empreendimento e o atendimento a você, ou até que você peça a exclusão.</p>

        <h2>Seus direitos</h2>
        <p>
          Você pode, a qualquer momento, pedir acesso, correção ou exclusão dos seus dados, ou retirar o seu
          consentimento. Basta escrever para{" "}
          <a href={`mailto:${agency.privacyEmail}`}>
            <EmailAddress email={agency.privacyEmail} />
          </a>
          .
        </p>

        <h2>Quem é o responsável</h2>
        <p>
          {agency.legalName}, {agency.address}. Contato:{" "}
          <a href={`mailto:${agency.email}`}>
            <EmailAddress email={agency.email} />
          </a>
          .
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
