import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { useToast } from "../../components/toast";
import { ApiError, serverMessage } from "../../lib/api";
import { EmailField } from "./EmailField";
import { authMessages, newPasswordIds, newPasswordProblem, newPasswordProblemField } from "./messages";
import { NewPasswordFields, PasswordField } from "./PasswordField";
import { confirmEmail, requestPasswordReset, resetPassword } from "./session";
import { useFieldErrors } from "./useFieldErrors";

type LinkFormProps = { token: string; onLinkUnusable: () => void };

/**
 * The confirmation link's form: whoever opens it types the password chosen
 * at sign-up, so only the person who signed up and owns the mailbox can
 * confirm the account (and its password is theirs).
 */
export function ConfirmSignup({ token, onLinkUnusable }: LinkFormProps) {
  const { toast } = useToast();
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !password) return;
    setBusy(true);
    try {
      await confirmEmail(token, password);
      toast(authMessages.confirmed);
    } catch (error) {
      const linkGone = error instanceof ApiError && error.status === 400;
      toast({
        title: linkGone ? authMessages.confirmFailedTitle : authMessages.signupFailedTitle,
        description: serverMessage(error, authMessages.confirmFailedDescription),
        variant: "destructive",
      });
      setBusy(false);
      if (linkGone) onLinkUnusable();
    }
  };

  return (
    <form className="auth__form" onSubmit={submit}>
      <p className="auth__intro">{authMessages.confirmIntro}</p>
      <PasswordField
        id={`${id}-password`}
        label="Senha"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <Button type="submit" className="button button--primary auth__submit" inactive={busy}>
        {busy ? "Confirmando..." : "Confirmar e entrar"}
      </Button>
    </form>
  );
}

/** The reset link's form: a new password twice, with the sign-up's rules and messages. */
export function ResetPassword({ token, onLinkUnusable }: LinkFormProps) {
  const { toast } = useToast();
  const id = useId();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors();
  const passwordIds = newPasswordIds(id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    fields.reset();
    const problem = newPasswordProblem(password, confirmation);
    if (problem) {
      toast(problem);
      fields.show(newPasswordProblemField(id, problem), problem.description);
      return;
    }
    setBusy(true);
    try {
      await resetPassword(token, password);
      toast(authMessages.resetDone);
    } catch (error) {
      const linkGone = error instanceof ApiError && error.status === 400;
      toast({
        title: linkGone ? authMessages.confirmFailedTitle : authMessages.resetFailedTitle,
        description: serverMessage(error, authMessages.resetFailedTitle),
        variant: "destructive",
      });
      setBusy(false);
      if (linkGone) onLinkUnusable();
      else if (error instanceof ApiError && error.fields.password) fields.show(passwordIds[0], error.message);
    }
  };

  return (
    <form className="auth__form" onSubmit={submit}>
      <p className="auth__intro">{authMessages.resetIntro}</p>
      <NewPasswordFields
        id={id}
        label="Nova senha"
        password={password}
        confirmation={confirmation}
        onPassword={fields.editing(passwordIds, setPassword)}
        onConfirmation={fields.editing(passwordIds, setConfirmation)}
        errors={fields.errors}
      />
      <Button type="submit" className="button button--primary auth__submit" inactive={busy}>
        {busy ? "Redefinindo..." : "Redefinir senha"}
      </Button>
    </form>
  );
}

/** 'Esqueci minha senha': the e-mail, then the same answer whoever asks. */
export function ForgotPassword({ prefill, onBack }: { prefill: string; onBack: () => void }) {
  const { toast } = useToast();
  const id = useId();
  const [email, setEmail] = useState(prefill);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !email.trim()) return;
    setBusy(true);
    try {
      setSent(await requestPasswordReset(email.trim()));
    } catch (error) {
      toast({
        title: authMessages.resetRequestFailedTitle,
        description: serverMessage(error, authMessages.loginFailed),
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth__form" onSubmit={submit}>
      <p className="auth__intro">{authMessages.forgotIntro}</p>
      <EmailField id={`${id}-email`} autoComplete="username" value={email} onChange={setEmail} />
      {sent && (
        <p className="auth__sent" role="status">
          {sent}
        </p>
      )}
      <Button type="submit" className="button button--primary auth__submit" inactive={busy}>
        {busy ? "Enviando..." : "Enviar link"}
      </Button>
      <button type="button" className="auth__link" onClick={onBack}>
        Voltar ao login
      </button>
    </form>
  );
}
