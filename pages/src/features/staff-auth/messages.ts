import { agency } from "../../config/agency";

/** The staff sign-in and sign-up messages, word for word as specified. */
export const authMessages = {
  domainDenied: {
    title: "Acesso Negado",
    description: `Apenas emails @${agency.staffEmailDomain} são permitidos`,
    variant: "destructive",
  },
  signupFailedTitle: "Erro no Cadastro",
  alreadyRegistered: "Este email já está cadastrado. Tente fazer login.",
  invalidEmail: "Email inválido",
  signupFailed: "Erro ao criar conta",
  signupSuccess: { title: "Conta criada!", description: "Verifique seu email para confirmar a conta" },
  loginFailedTitle: "Erro no Login",
  loginFailed: "Erro ao fazer login",
  loginRequired: "Informe e-mail e senha.",
  loginSuccess: { title: "Login realizado com sucesso!" },
  confirmed: { title: "E-mail confirmado!", description: "Bem-vindo ao painel." },
  confirmFailedTitle: "Link inválido",
  confirmTitle: "Confirmar cadastro",
  confirmIntro: "Para concluir, digite a senha que você escolheu ao se cadastrar.",
  confirmFailedDescription: "Não foi possível confirmar o cadastro. Tente novamente.",
  forgotTitle: "Esqueci minha senha",
  forgotIntro: "Informe o e-mail da sua conta. Enviaremos um link para você escolher uma nova senha.",
  resetRequestFailedTitle: "Erro ao pedir o link",
  resetTitle: "Redefinir senha",
  resetIntro: "Escolha a nova senha de acesso ao painel. As outras sessões abertas da conta serão encerradas.",
  resetDone: { title: "Senha redefinida", description: "Você já está no painel." },
  resetFailedTitle: "Erro ao redefinir senha",
  redirecting: "Redirecionando para o painel...",
} as const;
