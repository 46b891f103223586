import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { newPasswordIds, newPasswordProblem, newPasswordProblemField } from "../../components/newPassword";
import { NewPasswordFields } from "../../components/PasswordField";
import { agency } from "../../config/agency";
import { ApiError } from "../../lib/api";
import { signUp } from "../../lib/session";
import { type ToastInput, useToast } from "../../lib/toast";
import { useTurnstile } from "../../lib/turnstile/useTurnstile";
import { EmailField } from "./EmailField";
import { authMessages } from "./messages";
import { useFieldErrors } from "./useFieldErrors";

/** The 'Cadastrar' tab's form: an account with the company's e-mail; `onSignedUp` with its address once created. */
export function SignupForm({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const { toast } = useToast();
  const id = useId();
  const emailId = `${id}-email`;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const turnstile = useTurnstile("signup");
  const fields = useFieldErrors();
  const passwordIds = newPasswordIds(id);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    fields.reset();
    const address = email.trim().toLowerCase();
    if (!address.endsWith(`@${agency.staffEmailDomain.toLowerCase()}`)) {
      toast(authMessages.domainDenied);
      fields.show(emailId, authMessages.domainDenied.description);
      return;
    }
    const problem = newPasswordProblem(password, confirmation);
    if (problem) {
      toast(problem);
      fields.show(newPasswordProblemField(id, problem), problem.description);
      return;
    }
    setBusy(true);
    try {
      await signUp(address, password, await turnstile.token());
      toast(authMessages.signupSuccess);
      setEmail("");
      setPassword("");
      setConfirmation("");
      onSignedUp(address);
    } catch (error) {
      const { field, ...failure } = signupFailure(error);
      toast(failure);
      if (field) fields.show(field === "email" ? emailId : passwordIds[0], failure.description);
    } finally {
      turnstile.reset();
      setBusy(false);
    }
  };

  return (
    <form className="auth__form" onSubmit={submit} onFocus={turnstile.activate}>
      <EmailField
        id={emailId}
        autoComplete="email"
        placeholder={`nome@${agency.staffEmailDomain}`}
        value={email}
        onChange={fields.editing([emailId], setEmail)}
        error={fields.errors[emailId]}
      />
      <NewPasswordFields
        id={id}
        label="Senha"
        password={password}
        confirmation={confirmation}
        onPassword={fields.editing(passwordIds, setPassword)}
        onConfirmation={fields.editing(passwordIds, setConfirmation)}
        errors={fields.errors}
      />
      <div ref={turnstile.containerRef} className="turnstile" />
      <Button type="submit" className="button button--primary auth__submit" inactive={busy}>
        {busy ? "Criando conta..." : "Criar conta"}
      </Button>
    </form>
  );
}

/** The catalogue's sign-up failures, from the server's answer; `field`: the one it is about. */
function signupFailure(error: unknown): ToastInput & { description: string; field?: "email" | "password" } {
  const failed = (description: string, field?: "email" | "password") => ({
    title: authMessages.signupFailedTitle,
    description,
    variant: "destructive" as const,
    field,
  });
  if (error instanceof ApiError) {
    if (error.status === 403) return { ...authMessages.domainDenied, description: error.message, field: "email" };
    if (error.status === 409) return failed(authMessages.alreadyRegistered, "email");
    if (error.fields.email) return failed(authMessages.invalidEmail, "email");
    if (error.fields.password) return failed(error.message, "password");
    if (error.status === 422 || error.status === 429 || error.status === 503) return failed(error.message);
  }
  return failed(authMessages.signupFailed);
}
