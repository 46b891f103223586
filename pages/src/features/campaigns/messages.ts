import type { ToastInput } from "../../components/toast";

/** The 'Campanhas' page's words. */
export const campaignMessages = {
  title: "Campanhas",
  subtitle: "Qual campanha e qual anúncio trazem leads: visitas, leads e conversão por origem.",
  loading: "Carregando campanhas...",
  empty: "Nenhuma visita ou lead neste período.",
  loadFailed: { title: "Erro", description: "Erro ao carregar campanhas", variant: "destructive" },
  exportFailed: { title: "Erro ao exportar campanhas", variant: "destructive" },
  visitsNote:
    "Conta-se uma visita quando alguém chega ao site vindo de fora (um anúncio, outro site, um link direto); " +
    "robôs e prévias de links não contam. Nenhum cookie, IP ou identificador do visitante é guardado.",
} satisfies Record<string, string | ToastInput>;
