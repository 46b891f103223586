import type { ToastInput } from "../../components/toast";

/** The 'Atividade' page's words. */
export const activityMessages = {
  title: "Atividade",
  subtitle: "Quem fez o quê no painel, e quando: acessos, contas e leads.",
  loading: "Carregando a atividade...",
  empty: "Nenhuma atividade registrada ainda",
  loadFailed: { title: "Erro", description: "Erro ao carregar a atividade", variant: "destructive" },
  newer: "Mais recentes",
  older: "Mais antigas",
  leadNote: "Leads aparecem só pelo identificador: excluídos, não deixam dados pessoais aqui.",
} satisfies Record<string, string | ToastInput>;

/** Each recorded action, as staff read it. */
export const actionNames: Record<string, string> = {
  sign_in: "Entrou no painel",
  sign_in_failed: "Tentativa de entrar sem sucesso",
  confirm: "Confirmou o cadastro",
  password_reset: "Redefiniu a senha pelo e-mail",
  password_change: "Alterou a senha",
  disable: "Desativou a conta",
  enable: "Reativou a conta",
  end_sessions: "Encerrou as sessões",
  make_owner: "Tornou responsável",
  remove_owner: "Tirou o papel de responsável",
  approve: "Aprovou o acesso",
  refuse: "Recusou o acesso",
  permissions: "Mudou as permissões de exportar CSV e excluir leads",
  export: "Exportou leads (CSV)",
  mark_sent: "Marcou lead como enviado",
  unmark_sent: "Desfez a marcação de lead como enviado",
  accept_change: "Aceitou uma alteração dos dados de um lead",
  refuse_change: "Recusou uma alteração dos dados de um lead",
  resend: "Reenviou lead ao Jetimob",
  delete: "Excluiu lead",
};
