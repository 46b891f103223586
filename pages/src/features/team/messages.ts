import type { ToastInput } from "../../components/toast";
import type { TeamAction } from "./api";

/** The 'Equipe' page's words. */
export const teamMessages = {
  title: "Equipe",
  subtitle: "Quem tem acesso ao painel, e o que cada pessoa pode fazer.",
  loading: "Carregando a equipe...",
  loadFailed: { title: "Erro", description: "Erro ao carregar a equipe", variant: "destructive" },
  actionFailedTitle: "Não foi possível alterar a conta",
  owner: "Responsável",
  staff: "Equipe",
  confirmed: "Confirmada",
  pending: "Aguardando confirmação",
  disabled: "Desativada",
  never: "Nunca entrou",
  you: "você",
  rolesNote: "Responsáveis gerenciam a equipe e veem a atividade; a equipe vê e trata os leads.",
} satisfies Record<string, string | ToastInput>;

/** Under an address the incident alerts no longer reach. */
export const alertMissed = (date: string) =>
  `Alerta de ${date} não entregue: o serviço de e-mail recusou este endereço.`;

/** Each action's button and the toast once it is done. */
export const actionLabels: Record<TeamAction, { button: string; done: string }> = {
  disable: { button: "Desativar", done: "Conta desativada" },
  enable: { button: "Reativar", done: "Conta reativada" },
  "end-sessions": { button: "Encerrar sessões", done: "Sessões encerradas" },
  "make-owner": { button: "Tornar responsável", done: "Agora é responsável pelo painel" },
  "remove-owner": { button: "Remover responsável", done: "Não é mais responsável pelo painel" },
};
