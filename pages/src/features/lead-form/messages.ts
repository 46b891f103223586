import type { ToastInput } from "../../components/toast";

/** The lead form's messages, word for word as the agency approved them. */
export const leadMessages = {
  submit: "Quero meu acesso antecipado ao lançamento exclusivo",
  submitting: "Enviando...",
  required: {
    title: "Campos obrigatórios",
    description: "Por favor, preencha todos os campos.",
    variant: "destructive",
  },
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
  /** After 'Sucesso!', when a field changed while the lead was on its way (kept, not cleared). */
  changedWhileSending: "Você alterou seus dados durante o envio. Envie de novo para atualizá-los.",
} satisfies Record<string, string | ToastInput>;
