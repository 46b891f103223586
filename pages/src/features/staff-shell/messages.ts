/** What every staff page says while it checks the session, and 'Alterar senha''s outcomes, word for word as specified. */
export const shellMessages = {
  checking: "Verificando autenticação...",
  passwordChanged: { title: "Senha alterada", description: "As outras sessões da sua conta foram encerradas." },
  changeFailedTitle: "Erro ao alterar senha",
} as const;
