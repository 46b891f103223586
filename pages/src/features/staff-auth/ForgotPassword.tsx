import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/Button";
import { serverMessage } from "../../lib/api";
import { requestPasswordReset } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { EmailField } from "./EmailField";
import { authMessages } from "./messages";

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
