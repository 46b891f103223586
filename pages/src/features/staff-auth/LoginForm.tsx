import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "../../components/Button";
import { PasswordField } from "../../components/PasswordField";
import { serverMessage } from "../../lib/api";
import { signIn } from "../../lib/session";
import { useToast } from "../../lib/toast";
import { EmailField } from "./EmailField";
import { authMessages } from "./messages";

/** The 'Login' tab's form. `prefill`: the address just signed up with; `onEmail`: the one typed, for 'Esqueci minha senha'. */
export function LoginForm({ prefill, onEmail }: { prefill: string; onEmail: (email: string) => void }) {
  const { toast } = useToast();
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (prefill) setEmail(prefill);
  }, [prefill]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      toast({ title: authMessages.loginFailedTitle, description: authMessages.loginRequired, variant: "destructive" });
      return;
    }
    setBusy(true);
    try {
      await signIn(email.trim(), password);
      toast(authMessages.loginSuccess);
    } catch (error) {
      const description = serverMessage(error, authMessages.loginFailed);
      toast({ title: authMessages.loginFailedTitle, description, variant: "destructive" });
      setBusy(false);
    }
  };

  return (
    <form className="auth__form" onSubmit={submit}>
      <EmailField
        id={`${id}-email`}
        autoComplete="username"
        value={email}
        onChange={(value) => {
          setEmail(value);
          onEmail(value.trim());
        }}
      />
      <PasswordField
        id={`${id}-password`}
        label="Senha"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
      <Button type="submit" className="button button--primary auth__submit" inactive={busy}>
        {busy ? "Entrando..." : "Entrar"}
      </Button>
    </form>
  );
}
