import type { ToastInput } from "../../lib/toast";
import type { AuditAction } from "../../lib/vocabulary";

/** The 'Atividade' page's words. */
export const activityMessages = {
  title: "Atividade",
  subtitle: "Quem fez o quê no painel, e quando: acessos, contas e leads.",
  loading: "Carregando a atividade...",
  empty: "Nenhuma atividade registrada ainda",
  loadFailed: { title: "Erro", description: "Erro ao carregar a atividade", variant: "destructive" },
  newer: "Mais recentes",
  older: "Mais antigas",
  leadNote: "Cada lead aparece com o nome que tem hoje; um lead excluído não deixa dados pessoais aqui.",
  leadGone: "lead excluído",
  everyone: "Todas as pessoas",
  everything: "Todas as ações",
  personLabel: "Pessoa",
  actionLabel: "Ação",
  periodLabel: "Período",
  clear: "Limpar filtros",
  emptyFiltered: "Nenhuma atividade com esses filtros",
} satisfies Record<string, string | ToastInput>;

/** Each recorded action, as staff read it. */
export const actionNames: Record<AuditAction, string> = {
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
  permissions: "Mudou as permissões de um colega",
  bulk_read: "Viu muitos leads na lista sem trabalhá-los",
  export: "Exportou leads (CSV)",
  mark_sent: "Marcou lead como enviado",
  unmark_sent: "Desfez a marcação de lead como enviado",
  accept_change: "Aceitou uma alteração dos dados de um lead",
  refuse_change: "Recusou uma alteração dos dados de um lead",
  resend: "Reenviou lead ao Jetimob",
  delete: "Excluiu lead",
  contact: "Registrou o primeiro contato com um lead ('Já falei')",
  uncontact: "Desfez o registro de contato com um lead",
  correct_whatsapp: "Corrigiu o WhatsApp de um lead recusado pelo Jetimob",
  settings: "Mudou uma configuração do painel",
};

/** An owners' choice as 'Atividade' names it, with its new value. */
export function settingChange(name: string | undefined, value: number | undefined): string | null {
  if (value === undefined) return null;
  if (name === "contact_target_minutes") return `Meta de primeiro contato: ${value} min`;
  if (name === "colleague_notices")
    return value === 1
      ? "Novos colegas passam a receber o aviso de novos leads"
      : "Novos colegas deixam de receber o aviso de novos leads";
  return null;
}

/** Each right as an owner gives or takes it. */
const RIGHT_NAMES: Record<string, string> = {
  export: "exportar CSV",
  delete: "excluir leads",
  mark_sent: "marcar leads como enviados",
  import_spend: "importar investimento",
};

/** What a permission change did: 'Tirou a permissão de exportar CSV'. */
export function permissionChange(right: string | undefined, allowed: boolean | undefined): string | null {
  const name = right ? RIGHT_NAMES[right] : undefined;
  if (!name || allowed === undefined) return null;
  return `${allowed ? "Deu" : "Tirou"} a permissão de ${name}`;
}

const count = (n: number) => n.toLocaleString("pt-BR");
const leads = (n: number) => (n === 1 ? "1 lead" : `${count(n)} leads`);

/** An export's rows and how it ended, as a line under it. */
export function exportOutcome(rows: number | undefined, state: string | undefined): string | null {
  if (rows === undefined) return null;
  switch (state) {
    case "complete":
      return rows === 0 ? "Nenhum lead exportado" : rows === 1 ? "1 lead exportado" : `${count(rows)} leads exportados`;
    case "right_taken":
      return `Interrompida após ${leads(rows)}: a permissão de exportar foi retirada`;
    case "session_ended":
      return `Interrompida após ${leads(rows)}: a sessão foi encerrada`;
    case "failed":
      return `Interrompida após ${leads(rows)}: erro ao ler os leads`;
    default:
      return `Não concluída: ${leads(rows)} enviados até agora`;
  }
}

/** How much someone without 'Exportar CSV' read and worked in the hour. */
export function bulkRead(read: number | undefined, worked: number | undefined): string | null {
  if (read === undefined || worked === undefined) return null;
  const done = worked === 0 ? "nenhum trabalhado" : worked === 1 ? "1 trabalhado" : `${count(worked)} trabalhados`;
  return `${leads(read)} vistos na lista em uma hora, ${done}`;
}
