/**
 * A new password typed twice (sign-up, reset, 'Alterar senha'): its rule and
 * what is said when it is broken, word for word as specified.
 */
export const newPasswordMessages = {
  passwordsDiffer: { title: "Erro", description: "As senhas não coincidem", variant: "destructive" },
  passwordTooShort: { title: "Erro", description: "A senha deve ter pelo menos 6 caracteres", variant: "destructive" },
} as const;

export const PASSWORD_MIN_LENGTH = 6;

/** What is wrong with a new password typed twice, as the toast that says so; null when it may be sent. */
export function newPasswordProblem(password: string, confirmation: string) {
  if (password !== confirmation) return newPasswordMessages.passwordsDiffer;
  if ([...password].length < PASSWORD_MIN_LENGTH) return newPasswordMessages.passwordTooShort;
  return null;
}

/** The ids of `NewPasswordFields`' two inputs under `id`: the password, then its confirmation. */
export function newPasswordIds(id: string): [string, string] {
  return [`${id}-password`, `${id}-confirmation`];
}

/** Which of the two fields a problem is about. */
export function newPasswordProblemField(id: string, problem: NonNullable<ReturnType<typeof newPasswordProblem>>) {
  const [password, confirmation] = newPasswordIds(id);
  return problem === newPasswordMessages.passwordsDiffer ? confirmation : password;
}
