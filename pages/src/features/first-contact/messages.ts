import type { ToastInput } from "../../lib/toast";

/** 'Tempo até o primeiro contato' and the owners' choices. */
export const firstContactMessages = {
  title: "Tempo até o primeiro contato",
  note: "Do cadastro ao primeiro 'Já falei' de alguém da equipe. Só contam os leads que chegaram depois que o painel passou a registrar o contato.",
  loading: "Carregando o tempo até o primeiro contato...",
  loadFailed: { title: "Erro", description: "Erro ao carregar o tempo até o primeiro contato", variant: "destructive" },
  empty: "Nenhum lead neste período.",
  byDay: "Por dia",
  byCampaign: "Por campanha",
  byColleague: "Por colega",
  exportFailed: { title: "Erro ao exportar o tempo até o primeiro contato", variant: "destructive" },
  targetLabel: "Meta (minutos)",
  targetSave: "Salvar meta",
  targetSaved: { title: "Meta de primeiro contato salva" },
  saveFailed: { title: "Não foi possível salvar", variant: "destructive" },
  noticesLabel: "Novos colegas recebem o aviso de novos leads",
  noticesHint:
    "Vale para quem confirmar o cadastro daqui em diante; cada pessoa pode ligar ou desligar o próprio aviso no menu do painel.",
  noticesOn: { title: "Novos colegas passam a receber o aviso de novos leads" },
  noticesOff: { title: "Novos colegas não recebem mais o aviso de novos leads" },
} satisfies Record<string, string | ToastInput>;
