import { ChatIcon } from "../../components/icons";
import { agency, development, whatsappLink } from "../../config/agency";

/** The visitor's first message to the team, already typed in the chat. */
const TEAM_GREETING = `Olá! Acabei de me cadastrar no pré-lançamento do ${development.name} e gostaria de saber mais.`;

/** The next step once a lead went (under the form's note, and on /obrigado): a chat with the team. */
export function TeamWhatsAppLink() {
  return (
    <a
      className="button button--whatsapp"
      href={whatsappLink(agency.whatsapp, TEAM_GREETING)}
      target="_blank"
      rel="noopener noreferrer"
    >
      <span>
        <ChatIcon size={20} />
        Falar com a equipe no WhatsApp
      </span>
    </a>
  );
}
