import type { ToastInput } from "../../lib/toast";

/** The lead form's messages, word for word as the agency approved them. */
export const leadMessages = {
  submit: "Quero meu acesso antecipado ao lançamento exclusivo",
  submitting: "Enviando...",
  success: {
    title: "Sucesso!",
    description: "Seus dados foram enviados. Em breve entraremos em contato.",
  },
  failure: {
    title: "Erro",
    description: "Houve um erro ao enviar seus dados. Tente novamente.",
    variant: "destructive",
  },
  fieldRequired: "Campo obrigatório.",
  /** Under the button when nothing answered (no network, or no answer in time), until the visitor types again. */
  notSentOffline:
    "Seus dados não foram enviados: sem conexão com o servidor. Verifique sua internet e tente novamente.",
  /** Under the button when the server failed without saying why. */
  notSent: "Seus dados não foram enviados. Tente novamente em instantes.",
  /** 'Este número parece fixo…': asked before a landline goes as the visitor's WhatsApp. */
  landlineQuestion: "Este número parece fixo. Ele tem WhatsApp?",
  landlineYes: "Sim, enviar assim",
  landlineFix: "Corrigir",
  /** After 'Sucesso!', when a field changed while the lead was on its way (kept, not cleared). */
  changedWhileSending: "Você alterou seus dados durante o envio. Envie de novo para atualizá-los.",
} satisfies Record<string, string | ToastInput>;
