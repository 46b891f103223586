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
  resent: { title: "Lead enviado ao Jetimob" },
  resendScheduled: { title: "Reenvio agendado", description: "O lead será enviado ao Jetimob em instantes." },
  resendRefusedTitle: "O Jetimob não aceitou o lead",
  resendFailed: { title: "Erro ao reenviar lead", variant: "destructive" },
  exportFailed: { title: "Erro ao exportar leads", variant: "destructive" },
  crmNotConfigured:
    "A integração com o Jetimob não está configurada: os leads ficam pendentes até as chaves serem cadastradas.",
} satisfies Record<string, string | ToastInput>;
