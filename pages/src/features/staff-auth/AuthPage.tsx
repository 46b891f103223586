import { useEffect, useState } from "react";
import { PageStatus } from "../../components/PageStatus";
import { agency } from "../../config/agency";
import { useRouter } from "../../lib/router";
import { checkSession, useSession } from "../../lib/session";
import { AuthCard } from "./AuthCard";
import { AuthTabs, type Tab } from "./AuthTabs";
import { ConfirmSignup } from "./ConfirmSignup";
import { ForgotPassword } from "./ForgotPassword";
import { LoginForm } from "./LoginForm";
import { authMessages } from "./messages";
import { ResetPassword } from "./ResetPassword";
import { SignupForm } from "./SignupForm";
import "./auth.css";

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
      <AuthTabs tab={tab} onChange={setTab} />
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
