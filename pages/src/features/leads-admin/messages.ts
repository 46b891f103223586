import type { ToastInput } from "../../components/toast";

/** The panel's messages, word for word as specified where the specification has them. */
export const panelMessages = {
  loading: "Carregando leads...",
  empty: "Nenhum lead encontrado",
  loadFailed: { title: "Erro", description: "Erro ao carregar leads", variant: "destructive" },
  deleteFailed: { title: "Erro ao remover lead", variant: "destructive" },
  deleted: { title: "Lead removido com sucesso" },
  markFailed: { title: "Erro ao atualizar status", variant: "destructive" },
  marked: { title: "Status Jetimob atualizado" },
  undo: "Desfazer",
  unmarkedPending: {
    title: "Marcação desfeita",
    description: "O lead voltou a Pendente e será enviado ao Jetimob automaticamente.",
  },
  unmarkedFailed: { title: "Marcação desfeita", description: "O lead voltou a Falhou." },
  unmarkFailed: { title: "Erro ao desfazer a marcação", variant: "destructive" },
  resent: { title: "Lead enviado ao Jetimob" },
  resendScheduled: { title: "Reenvio agendado", description: "O lead será enviado ao Jetimob em instantes." },
  resendRefusedTitle: "O Jetimob não aceitou o lead",
  resendFailed: { title: "Erro ao reenviar lead", variant: "destructive" },
  exportFailed: { title: "Erro ao exportar leads", variant: "destructive" },
  /** The download began and was cut (the right taken away, the session ended, the connection lost). */
  exportCut:
    "A exportação foi interrompida antes do fim e o arquivo não foi salvo. Se um responsável tirou sua permissão de exportar, peça-a de volta.",
  /** Under the worker's own words when the list refused a new view (429): the leads seen this hour stay open. */
  readLimitNote: "As páginas da lista que você já abriu nesta hora continuam disponíveis.",
  readLimitTitle: "Limite de leads por hora",
  crmNotConfigured:
    "A integração com o Jetimob não está configurada: os leads ficam pendentes até as chaves serem cadastradas.",
} satisfies Record<string, string | ToastInput>;

/** 'Alteração pendente': a change from a browser that did not send the lead, waiting for staff. */
export const changeMessages = {
  explained:
    "Alguém enviou o formulário com o e-mail ou o WhatsApp deste lead e outros dados, de um navegador que não foi o do cadastro. Os dados do lead não mudaram: confira com a pessoa antes de aceitar. Aceita, a alteração vale também no Jetimob.",
  accepted: { title: "Alteração aceita", description: "O lead passou a ter os dados enviados." },
  refused: { title: "Alteração recusada", description: "O lead continua com os dados de antes." },
  failed: { title: "Erro", description: "Não foi possível decidir a alteração.", variant: "destructive" },
} satisfies Record<string, string | ToastInput>;

/** 'Recusar todas': how many changes were refused. */
export function refusedAllMessage(n: number): ToastInput {
  return {
    title: n === 1 ? "Alteração recusada" : `${n} alterações recusadas`,
    description: changeMessages.refused.description,
  };
}

/** A lead's page ('/admin/leads/{id}'). */
export const storyMessages = {
  title: "Lead",
  subtitle: "Os dados do lead, cada cadastro que ele enviou e cada envio ao Jetimob.",
  loading: "Carregando o lead...",
  loadFailed: { title: "Erro", description: "Erro ao carregar o lead", variant: "destructive" },
  missing: "Lead não encontrado. Ele pode ter sido removido por outra pessoa.",
} satisfies Record<string, string | ToastInput>;

/** What staff did to a lead, as its page lists it. */
export const staffActionNames: Record<string, string> = {
  mark_sent: "Marcou como enviado ao Jetimob",
  unmark_sent: "Desfez a marcação de enviado",
  resend: "Reenviou ao Jetimob",
  delete: "Excluiu o lead",
  accept_change: "Aceitou uma alteração dos dados",
  refuse_change: "Recusou uma alteração dos dados",
  contact: "Registrou o primeiro contato (Já falei)",
  uncontact: "Desfez o registro de contato",
  correct_whatsapp: "Corrigiu o WhatsApp",
};
