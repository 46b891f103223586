import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { newPasswordIds, newPasswordProblem, newPasswordProblemField } from "../../components/newPassword";
import { NewPasswordFields } from "../../components/PasswordField";
import { ApiError, serverMessage } from "../../lib/api";
import { resetPassword } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { authMessages } from "./messages";
import { useFieldErrors } from "./useFieldErrors";

/** `onLinkUnusable`: the link no longer works (the worker answered 400). */
type Props = { token: string; onLinkUnusable: () => void };

/** The reset link's form: a new password twice, with the sign-up's rules and messages. */
export function ResetPassword({ token, onLinkUnusable }: Props) {
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
