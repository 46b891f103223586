import type { ToastInput } from "../../lib/toast";

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
  conversionOverflow:
    "* Mais leads que visitas contadas: leads enviados direto ao formulário (sem passar pela página) ou visitas " +
    "de um dia que não foram contadas. A conversão aparece como — porque não teria sentido.",
  spendTitle: "Investimento",
  spendIntro:
    "Importe o que as campanhas gastaram: uma planilha com as colunas data;origem;campanha;investimento " +
    "(e anuncio, se quiser), como 24/11/2026;Instagram;lancamento;R$ 100,00, ou o relatório exportado do " +
    "Gerenciador de Anúncios da Meta ou do Google Ads, dividido por dia. Cada dia, origem, campanha e anúncio " +
    "fica com o valor da importação mais recente.",
  spendChoose: "Arquivo de investimento (.csv)",
  spendSend: "Importar",
  spendSending: "Importando...",
  spendNoRight: "Só os responsáveis e quem eles autorizam em Equipe importam investimento.",
  spendNone: "Nenhuma importação ainda.",
  spendUndo: "Desfazer",
  spendUndone: { title: "Importação desfeita" },
  spendUndoFailed: { title: "Erro ao desfazer a importação", variant: "destructive" },
  spendLoadFailed: "Erro ao carregar as importações.",
  unmatchedTitle: "Investimento sem campanha correspondente",
  unmatchedWhy:
    "Estas campanhas têm investimento, mas nenhuma visita ou lead com o mesmo nome em utm_campaign (ou o mesmo " +
    "ID). Confira o nome da campanha no link do anúncio. O valor entra no total da plataforma.",
  googleAdsTitle: "Conversões no Google Ads",
  googleAdsIntro:
    "O Google Ads busca sozinho, uma vez por dia, os leads que chegaram por um clique num anúncio do Google, " +
    "para otimizar as campanhas por lead. Em Google Ads › Metas › Uploads › Programações, escolha HTTPS e " +
    "use estes dados; a ação de conversão precisa ter exatamente este nome.",
  googleAdsAddress: "Endereço",
  googleAdsUser: "Usuário",
  googleAdsConversion: "Nome da conversão",
  googleAdsPassword:
    "A senha é a definida em GOOGLE_ADS_IMPORT_PASSWORD nas configurações do site; ela não aparece aqui.",
  copy: "Copiar",
  copied: "Copiado",
  print: "Imprimir",
  previousPeriod: (from: string) => `Comparado com ${from}`,
  visitsNote:
    "Conta-se uma visita quando alguém chega ao site vindo de fora (um anúncio, outro site, um link direto); " +
    "robôs e prévias de links não contam. Nenhum cookie, IP ou identificador do visitante é guardado; para os " +
    "limites, só uma marca cifrada da rede de onde veio a visita, apagada quando o dia acaba.",
} satisfies Record<string, string | ToastInput | ((from: string) => string)>;

/** What an import added, in a sentence. */
export const spendMessages = {
  kind: { planilha: "Planilha", meta: "Meta (arquivo)", google: "Google Ads (arquivo)", meta_api: "Meta (automático)" },
  added: (lines: string, added: number, changed: number, unchanged: number, delta: string) =>
    `${lines}: ${added} ${added === 1 ? "nova" : "novas"}, ${changed} ${changed === 1 ? "alterada" : "alteradas"}, ` +
    `${unchanged} sem mudança; ${delta} no investimento.`,
  imported: (file: string) => `${file} importado`,
  undoneBy: (who: string) => `Desfeita por ${who}`,
};

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
