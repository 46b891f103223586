import type { ToastInput } from "../../components/toast";

/** The 'Campanhas' page's words. */
export const campaignMessages = {
  title: "Campanhas",
  subtitle: "Qual campanha e qual anúncio trazem leads: visitas, leads e conversão por origem.",
  loading: "Carregando campanhas...",
  empty: "Nenhuma visita ou lead neste período.",
  loadFailed: { title: "Erro", description: "Erro ao carregar campanhas", variant: "destructive" },
  exportFailed: { title: "Erro ao exportar campanhas", variant: "destructive" },
  limitsTitle: "Limite de campanhas novas",
  limitsWhy:
    "Para que ninguém encha o relatório com links inventados, cada rede de internet cria poucas campanhas novas " +
    "por dia e tem um número limitado de visitas contadas. As campanhas já vistas continuam na própria linha; " +
    "só links novos esperam em Outras origens. Os leads são sempre contados na campanha de cada um.",
  visitsNote:
    "Conta-se uma visita quando alguém chega ao site vindo de fora (um anúncio, outro site, um link direto); " +
    "robôs e prévias de links não contam. Nenhum cookie, IP ou identificador do visitante é guardado; para os " +
    "limites, só uma marca cifrada da rede de onde veio a visita, apagada quando o dia acaba.",
} satisfies Record<string, string | ToastInput>;

/** The sentences of the days a visit limit was reached ('Em 12/11 o limite de campanhas novas foi atingido: …'). */
export const limitMessages = {
  newCampaigns: (day: string) => `Em ${day} o limite de campanhas novas foi atingido: `,
  day: (day: string) => `Em ${day}, `,
  otherDays: (days: string) => `Em outros ${days} dias do período: `,
  overflow: (visits: string, one: boolean, where: string) =>
    `${visits} ${one ? "visita contada" : "visitas contadas"} em ${where}`,
  uncounted: (visits: string, one: boolean) =>
    `${visits} ${one ? "visita de redes que passaram do limite diário não foi contada" : "visitas de redes que passaram do limite diário não foram contadas"}`,
  uncountedShort: (visits: string, one: boolean) => `${visits} ${one ? "visita não contada" : "visitas não contadas"}`,
};
