import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useState } from "react";
import { useRouter } from "../../app/router";
import { Button } from "../../components/Button";
import { GrapesIcon } from "../../components/icons";
import { PageStatus } from "../../components/PageStatus";
import { type ToastInput, useToast } from "../../components/toast";
import { agency, development } from "../../config/agency";
import { ApiError, serverMessage } from "../../lib/api";
import { VineyardArt } from "../landing/VineyardArt";
import { useTurnstile } from "../turnstile/useTurnstile";
import { EmailField } from "./EmailField";
import { ConfirmSignup, ForgotPassword, ResetPassword } from "./LinkForms";
import { authMessages, newPasswordIds, newPasswordProblem, newPasswordProblemField } from "./messages";
import { NewPasswordFields, PasswordField } from "./PasswordField";
import { checkSession, signIn, signUp, useSession } from "./session";
import { useFieldErrors } from "./useFieldErrors";
import "./auth.css";

type Tab = "login" | "signup";

/** What the card shows: the two tabs, 'Esqueci minha senha', or the form of an e-mailed link. */
type View =
  | { kind: "tabs" }
  | { kind: "forgot" }
  | { kind: "confirm"; token: string }
  | { kind: "reset"; token: string };

/**
 * The e-mailed link in the address, if any, taken out of it (and of the
 * history) at once: a confirmation, a reset, or the 'Não foi você?' of a
 * security e-mail (`?esqueci`), which opens 'Esqueci minha senha'.
 */
function linkInAddress(): View {
  const params = new URLSearchParams(window.location.search);
  const confirm = params.get("confirmar");
  const reset = params.get("redefinir");
  const forgot = params.has("esqueci");
  if (!confirm && !reset && !forgot) return { kind: "tabs" };
  window.history.replaceState(null, "", "/auth");
  if (confirm) return { kind: "confirm", token: confirm };
  return reset ? { kind: "reset", token: reset } : { kind: "forgot" };
}

/** /auth: staff sign in, or sign up with the company's e-mail; the links of the e-mails land here too. */
export default function AuthPage() {
  const session = useSession();
  const { navigate } = useRouter();
  const [view, setView] = useState<View>(() => linkInAddress());
  const [tab, setTab] = useState<Tab>("login");
  const [prefill, setPrefill] = useState("");

  useEffect(() => {
    // A link's form signs the person in itself; a session open elsewhere must not skip it.
    if (view.kind === "tabs" || view.kind === "forgot") void checkSession();
  }, [view.kind]);

  useEffect(() => {
    if (session.status === "signed-in") navigate("/admin", { replace: true });
  }, [session.status, navigate]);

  if (session.status === "signed-in") {
    return <PageStatus text={authMessages.redirecting} />;
  }

  const toLogin = () => {
    setView({ kind: "tabs" });
    setTab("login");
  };

  if (view.kind === "confirm") {
    return (
      <AuthCard title={authMessages.confirmTitle}>
        <ConfirmSignup token={view.token} onLinkUnusable={toLogin} />
      </AuthCard>
    );
  }
  if (view.kind === "reset") {
    return (
      <AuthCard title={authMessages.resetTitle}>
        <ResetPassword token={view.token} onLinkUnusable={() => setView({ kind: "forgot" })} />
      </AuthCard>
    );
  }
  if (view.kind === "forgot") {
    return (
      <AuthCard title={authMessages.forgotTitle}>
        <ForgotPassword prefill={prefill} onBack={toLogin} />
      </AuthCard>
    );
  }

  // The sign-up form it was in is hidden: focus goes to the Login tab, where the person goes on.
  const onSignedUp = (email: string) => {
    setPrefill(email);
    setTab("login");
    document.getElementById("tab-login")?.focus();
  };

  return (
    <AuthCard title="Acesso Administrativo" subtitle={`Área restrita à equipe da ${agency.name}.`} notice>
      <Tabs tab={tab} onChange={setTab} />
      <div role="tabpanel" id="panel-login" aria-labelledby="tab-login" hidden={tab !== "login"}>
        <LoginForm prefill={prefill} onEmail={setPrefill} />
        <button type="button" className="auth__link" onClick={() => setView({ kind: "forgot" })}>
          Esqueci minha senha
        </button>
      </div>
      <div role="tabpanel" id="panel-signup" aria-labelledby="tab-signup" hidden={tab !== "signup"}>
        <SignupForm onSignedUp={onSignedUp} />
      </div>
    </AuthCard>
  );
}

/** The card every view of /auth sits in, over the vineyard. */
function AuthCard(props: { title: string; subtitle?: string; notice?: boolean; children: ReactNode }) {
  const { navigate } = useRouter();
  return (
    <main className="auth">
      <VineyardArt />
      <div className="auth__card">
        <div className="auth__brand">
          <GrapesIcon size={30} />
          <span>{development.name}</span>
        </div>
        <h1 className="auth__title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.subtitle && <p className="auth__subtitle">{props.subtitle}</p>}
        {props.children}
        {props.notice && (
          <p className="auth__notice">
            Somente colaboradores da {agency.name} podem se cadastrar, com o e-mail corporativo @
            {agency.staffEmailDomain}.
          </p>
        )}
        <button type="button" className="button button--ghost auth__back" onClick={() => navigate("/")}>
          Voltar ao site
        </button>
      </div>
    </main>
  );
}

function Tabs({ tab, onChange }: { tab: Tab; onChange: (tab: Tab) => void }) {
  const tabs: [Tab, string][] = [
    ["login", "Login"],
    ["signup", "Cadastrar"],
  ];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next: Tab = tab === "login" ? "signup" : "login";
    onChange(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label="Entrar ou cadastrar" onKeyDown={onKeyDown}>
      {tabs.map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="tab"
          id={`tab-${id}`}
          className="tabs__tab"
          aria-selected={tab === id}
          aria-controls={`panel-${id}`}
          tabIndex={tab === id ? 0 : -1}
          onClick={() => onChange(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

function LoginForm({ prefill, onEmail }: { prefill: string; onEmail: (email: string) => void }) {
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

function SignupForm({ onSignedUp }: { onSignedUp: (email: string) => void }) {
  const { toast } = useToast();
  const id = useId();
  const emailId = `${id}-email`;
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const turnstile = useTurnstile();
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
