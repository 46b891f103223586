import { development, site } from "../../config/agency";

/** What the visitor reads once a lead went: 'Sucesso!' in the form's place, and the next steps. */
export const sentMessages = {
  title: "Sucesso!",
  /** The seed's success message, word for word. */
  text: "Seus dados foram enviados. Em breve entraremos em contato.",
  group: `Você está no grupo de pré-cadastro do ${development.name} e saberá de tudo antes do lançamento oficial.`,
  share: "Compartilhar com alguém",
  another: "Enviar outro cadastro",
  questionsTitle: "Quer nos contar um pouco mais?",
  questionsHint: "Opcional: um toque em cada pergunta ajuda a equipe a atender você melhor.",
  answered: "Resposta salva. Obrigado!",
  answerFailed: "Sua resposta não foi salva. Tente de novo em instantes.",
};

/**
 * What a visitor sends a friend from 'Compartilhar com alguém': the site,
 * tagged so the friend's visit and lead count under the share
 * (docs/campaigns.md asks for every shared link to be tagged).
 */
export function shareText(): string {
  const url = `${site.url.replace(/\/$/, "")}/?utm_source=whatsapp&utm_medium=compartilhamento&utm_campaign=indicacao`;
  return `Conheça o ${development.name}, ${development.kind.toLowerCase()} ao lado de uma vinícola em Videira (SC): ${url}`;
}
