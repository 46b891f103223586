import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { PasswordField } from "../../components/PasswordField";
import { ApiError, serverMessage } from "../../lib/api";
import { confirmEmail } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { authMessages } from "./messages";

/** `onLinkUnusable`: the link no longer works (the worker answered 400). */
type Props = { token: string; onLinkUnusable: () => void };

/**
 * The confirmation link's form: whoever opens it types the password chosen
 * at sign-up, so only the person who signed up and owns the mailbox can
 * confirm the account (and its password is theirs).
 */
export function ConfirmSignup({ token, onLinkUnusable }: Props) {
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
