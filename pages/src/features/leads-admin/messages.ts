import type { ToastInput } from "../../lib/toast";
import type { AuditAction } from "../../lib/vocabulary";

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

/** 'Já falei': the first contact with a lead, recorded once. */
export const contactMessages = {
  spoke: "Já falei",
  waiting: "Aguardando contato há",
  justArrived: "Chegou agora: aguardando contato",
  recorded: { title: "Contato registrado" },
  undone: { title: "Registro de contato desfeito", description: "O lead voltou a 'Não contatados'." },
  undoFailed: { title: "Erro ao desfazer o registro", variant: "destructive" },
  failed: { title: "Erro ao registrar o contato", variant: "destructive" },
  uncontacted: "Não contatados",
  mine: "Contatados por mim",
  /** Why a broker's phone opens on 'Não contatados'. */
  phoneDefault: "No celular, a lista abre em 'Não contatados'.",
} satisfies Record<string, string | ToastInput>;

/** Someone else recorded the first contact first: who, and when. */
export function alreadyContacted(who: string, ago: string): ToastInput {
  return { title: "Este lead já foi contatado", description: `${who} registrou o contato ${ago}.` };
}

/** The banner's own words (what is wrong comes from the worker, in the alert's words). */
export const bannerMessages = {
  unfold: "Detalhes",
  fold: "Ocultar",
  seeRefused: "Ver os leads",
};

/** The banner's line for leads Jetimob refused for good: '2 leads recusados pelo Jetimob'. */
export function refusedTitle(n: number): string {
  if (n <= 0) return "Leads recusados pelo Jetimob";
  return n === 1 ? "1 lead recusado pelo Jetimob" : `${n.toLocaleString("pt-BR")} leads recusados pelo Jetimob`;
}

/** A lead Jetimob refused: what it answered, what to do, 'Corrigir WhatsApp'. */
export const refusedMessages = {
  title: "O Jetimob recusou este lead",
  correctionTitle: "O Jetimob recusou a correção deste lead",
  answered: "O Jetimob respondeu:",
  label: "WhatsApp conferido com a pessoa",
  submit: "Corrigir WhatsApp",
  busy: "Corrigindo...",
  corrected: {
    title: "WhatsApp corrigido",
    description: "Use 'Reenviar' para enviar o lead ao Jetimob com o novo número.",
  },
  failed: { title: "Erro ao corrigir o WhatsApp", variant: "destructive" },
} satisfies Record<string, string | ToastInput>;

/** What to do about Jetimob's answer `answer` ('HTTP 422: …'). */
export function refusedTodo(answer: string, crmConfigured: boolean): string {
  const status = Number(/^HTTP (\d{3})/.exec(answer)?.[1] ?? 0);
  if (status === 400 || status === 422)
    return "o Jetimob não aceitou os dados do lead (quase sempre o telefone). Ligue ou chame a pessoa, confira o número, corrija-o abaixo e use 'Reenviar'. Ou cadastre o lead no Jetimob à mão e use 'Marcar Enviado'.";
  if (status === 409)
    return "o Jetimob diz que este lead já existe lá. Confira no Jetimob; se ele estiver lá, use 'Marcar Enviado'.";
  if (status === 401 || status === 403)
    return "o Jetimob recusou as chaves da integração: avise o responsável pelo painel. Quando as chaves forem corrigidas, use 'Reenviar'.";
  if (!crmConfigured) return "a integração com o Jetimob não está configurada: avise o responsável pelo painel.";
  return "o Jetimob não respondeu durante 7 dias de tentativas (fora do ar ou lento). Use 'Reenviar' para tentar de novo agora; se ele continuar fora, cadastre o lead no Jetimob à mão e use 'Marcar Enviado'.";
}

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

/** 'Envio ao Meta' on a lead's page. */
export const deliveryMessages = {
  metaSent: { title: "Enviado ao Meta", description: "O Meta recebeu o lead." },
  failed: { title: "Erro", description: "Não foi possível reenviar ao Meta.", variant: "destructive" },
  notApplicable:
    "Não se aplica: este lead chegou quando o envio ao Meta estava desligado, ou sem o consentimento pedido no formulário.",
  metaNotSent: (error: string | null): ToastInput => ({
    title: "O Meta não aceitou",
    description: error ?? "Tente de novo em alguns minutos.",
    variant: "destructive",
  }),
} as const;

/** A lead's page ('/admin/leads/{id}'). */
export const storyMessages = {
  title: "Lead",
  subtitle: "Os dados do lead, cada cadastro que ele enviou e cada envio ao Jetimob.",
  loading: "Carregando o lead...",
  loadFailed: { title: "Erro", description: "Erro ao carregar o lead", variant: "destructive" },
  missing: "Lead não encontrado. Ele pode ter sido removido por outra pessoa.",
} satisfies Record<string, string | ToastInput>;

/** What staff did to a lead, as its page lists it. */
export const staffActionNames: Partial<Record<AuditAction, string>> = {
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
