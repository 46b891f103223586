import { type ReactNode, useEffect, useState } from "react";
import { PageStatus } from "../../components/PageStatus";
import { Link } from "../../lib/Link";
import { useRouter } from "../../lib/router";
import { checkSession, signOut, TICK_MS, tick, useSession } from "../../lib/session";
import { AwaitingApproval } from "./AwaitingApproval";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { shellMessages } from "./messages";
import { StaffHeader } from "./StaffHeader";
import { useApprovalNews } from "./useApprovalNews";
import "./staff-shell.css";

type Props = {
  title: string;
  subtitle: string;
  /** 'Equipe' and 'Atividade': only owners see the page. */
  ownersOnly?: boolean;
  children: ReactNode;
};

const OWNERS_ONLY_NOTICE = "Apenas os responsáveis pelo painel veem esta página.";

/** The staff page's own content, where the skip link goes. */
const MAIN_ID = "conteudo";

/**
 * Every staff page: checks the session (no user → /auth), keeps it fresh
 * every 30 seconds (a sign-out or a 'Desativar' elsewhere shows here within
 * that), and shows the header with who is signed in, 'Receber aviso de novos leads',
 * the pages they can open, 'Alterar senha' and 'Sair'. An account an owner
 * has not approved yet sees only 'Aguardando aprovação' (and 'Alterar
 * senha'), until a tick brings the approval.
 */
export function StaffLayout({ title, subtitle, ownersOnly = false, children }: Props) {
  const session = useSession();
  const { navigate } = useRouter();
  const [leaving, setLeaving] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  useApprovalNews(session.status === "signed-in" ? session.user.approved !== false : null);

  useEffect(() => {
    void checkSession();
  }, []);

  useEffect(() => {
    if (session.status === "signed-out") navigate("/auth", { replace: true });
  }, [session.status, navigate]);

  useEffect(() => {
    if (session.status !== "signed-in") return;
    const timer = window.setInterval(() => void tick(), TICK_MS);
    return () => window.clearInterval(timer);
  }, [session.status]);

  if (session.status !== "signed-in") return <PageStatus text={shellMessages.checking} />;

  const isOwner = session.user.role === "owner";
  // Strictly `false`: a worker from before approvals answers no `approved`.
  const waiting = session.user.approved === false;
  const leave = async () => {
    setLeaving(true);
    await signOut();
  };

  return (
    <div className="admin">
      {/* The first stop of the keyboard: past the header's switch, buttons and page links. */}
      <a
        className="skip-link"
        href={`#${MAIN_ID}`}
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(MAIN_ID)?.focus();
        }}
      >
        Pular para o conteúdo
      </a>
      <StaffHeader
        title={title}
        subtitle={subtitle}
        user={session.user}
        waiting={waiting}
        leaving={leaving}
        onLeave={leave}
        onChangePassword={() => setChangingPassword(true)}
      />
      <main id={MAIN_ID} className="admin__container admin__main" tabIndex={-1}>
        {waiting ? (
          <AwaitingApproval email={session.user.email} leaving={leaving} onLeave={leave} />
        ) : ownersOnly && !isOwner ? (
          <div className="notice" role="note">
            <p>{OWNERS_ONLY_NOTICE}</p>
            <Link to="/admin">Voltar aos leads</Link>
          </div>
        ) : (
          children
        )}
      </main>
      <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </div>
  );
}
