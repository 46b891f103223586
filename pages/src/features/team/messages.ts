import type { ToastInput } from "../../lib/toast";
import type { Permission, TeamAction } from "./api";

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
  awaitingApproval: "Aguardando aprovação",
  disabled: "Desativada",
  never: "Nunca entrou",
  you: "você",
  rolesNote: "Responsáveis gerenciam a equipe e veem a atividade; a equipe vê e trata os leads.",
  roleColumn: "Papel e permissões",
  allPermissions: "Todas as permissões",
} satisfies Record<string, string | ToastInput>;

/** Under an address the incident alerts no longer reach. */
export const alertMissed = (date: string) =>
  `Alerta de ${date} não entregue: o serviço de e-mail recusou este endereço.`;

/** Above the list while someone waits for an owner's 'Aprovar'. */
export const waitingNote = (count: number) =>
  count === 1
    ? "1 conta aguarda aprovação para entrar no painel."
    : `${count} contas aguardam aprovação para entrar no painel.`;

/** A colleague's switches: the label on screen, and the name that says whose it is. */
export const permissionLabels: Record<Permission, { label: string; name: (email: string) => string }> = {
  export: { label: "Exportar CSV", name: (email) => `Permitir que ${email} exporte CSV` },
  delete: { label: "Excluir leads", name: (email) => `Permitir que ${email} exclua leads` },
  "mark-sent": { label: "Marcar enviado", name: (email) => `Permitir que ${email} marque leads como enviados` },
  "import-spend": {
    label: "Importar investimento",
    name: (email) => `Permitir que ${email} importe investimento das campanhas`,
  },
};

/** Each action's button and the toast once it is done. */
export const actionLabels: Record<TeamAction, { button: string; done: string }> = {
  disable: { button: "Desativar", done: "Conta desativada" },
  enable: { button: "Reativar", done: "Conta reativada" },
  "end-sessions": { button: "Encerrar sessões", done: "Sessões encerradas" },
  "make-owner": { button: "Tornar responsável", done: "Agora é responsável pelo painel" },
  "remove-owner": { button: "Remover responsável", done: "Não é mais responsável pelo painel" },
  approve: { button: "Aprovar", done: "Acesso aprovado" },
  refuse: { button: "Recusar", done: "Acesso recusado: conta desativada" },
  "allow-export": { button: "Permitir exportar CSV", done: "Pode exportar CSV" },
  "deny-export": { button: "Não permitir exportar CSV", done: "Não pode mais exportar CSV" },
  "allow-delete": { button: "Permitir excluir leads", done: "Pode excluir leads" },
  "deny-delete": { button: "Não permitir excluir leads", done: "Não pode mais excluir leads" },
  "allow-mark-sent": { button: "Permitir marcar enviado", done: "Pode marcar leads como enviados" },
  "deny-mark-sent": { button: "Não permitir marcar enviado", done: "Não pode mais marcar leads como enviados" },
  "allow-import-spend": { button: "Permitir importar investimento", done: "Pode importar investimento" },
  "deny-import-spend": { button: "Não permitir importar investimento", done: "Não pode mais importar investimento" },
};
