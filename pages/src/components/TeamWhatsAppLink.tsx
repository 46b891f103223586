import { agency, development, whatsappLink } from "../config/agency";
import { ChatIcon } from "./icons";

/**
 * The visitor's first message to the team, already typed in the chat: it
 * says who writes (the name just sent, when the page knows it) and about what.
 */
export function teamGreeting(name?: string | null): string {
  const who = name?.trim() ? `Olá! Sou ${name.trim()}, acabei` : "Olá! Acabei";
  return `${who} de me cadastrar no pré-lançamento do ${development.name} e gostaria de saber mais.`;
}

/** The next step once a lead went ('Sucesso!'): a chat with the team. */
export function TeamWhatsAppLink({ name }: { name?: string | null }) {
  return (
    <a
      className="button button--whatsapp"
      href={whatsappLink(agency.whatsapp, teamGreeting(name))}
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
