import { onPlatforms } from "../../components/ads-disclosure/messages";
import { AdsRecipients, PrivacyAds } from "../../components/ads-disclosure/PrivacyAds";
import { EmailAddress } from "../../components/EmailAddress";
import { SiteFooter, SiteHeader } from "../../components/SiteChrome";
import { agency, development } from "../../config/agency";
import { useDisclosure } from "../../lib/disclosure";
import "./privacy.css";

/** The LGPD privacy notice for the lead form, with the agency's details from configuration. */
export default function Privacy() {
  const disclosure = useDisclosure();
  const ads = disclosure.meta || disclosure.google;
  return (
    <>
      <SiteHeader overlay={false} />
      <main className="privacy container">
        <h1 tabIndex={-1}>Política de Privacidade</h1>
        <p className="privacy__intro">
          Esta política explica como a {agency.legalName} ({agency.creci}) trata os dados pessoais que você informa no
          pré-cadastro do {development.name}, conforme a Lei Geral de Proteção de Dados Pessoais (Lei nº 13.709/2018).
        </p>

        <h2>Quais dados coletamos</h2>
        <p>
          Nome completo, e-mail e número de WhatsApp, que você digita no formulário, e a data e a hora de cada envio.
          Também registramos de onde veio a sua visita: o endereço da página do formulário, o site que trouxe você até
          ela e, quando vêm no link do anúncio, os parâmetros da campanha (utm) e os identificadores de clique do Google
          (gclid, gbraid e wbraid), da Meta (fbclid), da Microsoft (msclkid) e do TikTok (ttclid).
        </p>
        <p>
          Se você responder às perguntas opcionais depois do cadastro (por exemplo, se pretende morar ou investir), as
          respostas ficam junto do seu cadastro e vão também para o nosso CRM, para que a equipe atenda você melhor.
        </p>
        <p>
          Para proteger o formulário contra envios em massa, usamos o endereço IP da sua conexão para contar quantos
          envios saem dele; essa contagem é apagada em cerca de um dia. Quando a verificação anti-robô da Cloudflare
          (Turnstile) está ativa, ela recebe o seu endereço IP para confirmar que o envio vem de uma pessoa.
        </p>

        <h2>Para que usamos</h2>
        <p>
          {ads ? "Para" : "Somente para"} entrar em contato com você sobre o {development.name}: enviar informações do
          pré-lançamento, plantas, valores e condições, e tirar suas dúvidas; a base legal é o seu consentimento ao
          enviar o formulário.{" "}
          {ads && <>E, de forma protegida, para medir os nossos anúncios {onPlatforms(disclosure)} (veja abaixo). </>}
          Não vendemos nem cedemos seus dados para outras finalidades.
        </p>

        <h2>Com quem compartilhamos</h2>
        <p>
          Apenas a nossa equipe tem acesso aos seus dados, e eles passam só pelos serviços que usamos para atender você:
        </p>
        <ul>
          <li>a Cloudflare, que hospeda o site e o banco de dados onde o cadastro fica guardado;</li>
          <li>
            o Jetimob, o sistema de gestão de clientes (CRM) que a {agency.name} usa para organizar o atendimento;
          </li>
          <li>
            o serviço de e-mail que avisa a equipe de cada novo cadastro e, quando a equipe usa, o canal de mensagens
            interno que recebe o mesmo aviso{ads ? ";" : "."}
          </li>
          <AdsRecipients disclosure={disclosure} />
        </ul>
        <p>Esses serviços podem armazenar ou processar os dados fora do Brasil.</p>

        <PrivacyAds disclosure={disclosure} />

        <h2>Cookies e armazenamento no navegador</h2>
        <p>
          Quando você envia o formulário, o site guarda no seu navegador, por um ano, um cookie técnico que identifica o
          seu cadastro: assim, só o navegador que fez o cadastro corrige os dados dele na hora; de outro navegador, a
          correção espera a confirmação da nossa equipe. O site não usa cookies de publicidade nem ferramentas de
          análise de terceiros. Ele apenas conta as visitas por dia e por origem (a campanha do link, ou o site que
          trouxe você), sem guardar o seu endereço IP, o seu navegador ou qualquer identificador seu; para que uma só
          conexão não infle essa contagem, a rede de onde vem a visita é lembrada só por uma marca cifrada, não pelo
          endereço, apagada quando o dia acaba. Enquanto a aba está aberta, o navegador guarda de onde veio a sua
          visita, para enviá-la junto com o formulário; ao fechar a aba, isso se apaga.
        </p>

        <h2>Por quanto tempo guardamos</h2>
        <p>Enquanto durar o lançamento do empreendimento e o atendimento a você, ou até que você peça a exclusão.</p>

        <h2>Seus direitos</h2>
        <p>
          Para corrigir seus dados, basta enviar o formulário de novo com o mesmo e-mail ou o mesmo WhatsApp, do mesmo
          navegador: o seu cadastro é atualizado, também no CRM. De outro navegador, nossa equipe confirma a alteração
          antes.
        </p>
        <p>
          Você pode, a qualquer momento, pedir acesso, correção ou exclusão dos seus dados, ou retirar o seu
          consentimento. Basta escrever para{" "}
          <a href={`mailto:${agency.privacyEmail}`}>
            <EmailAddress email={agency.privacyEmail} />
          </a>
          . A exclusão vale para o nosso cadastro, o CRM e os avisos enviados à equipe.
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
