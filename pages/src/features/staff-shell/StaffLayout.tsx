import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useRouter } from "../../app/router";
import { EmailAddress } from "../../components/EmailAddress";
import { GrapesIcon } from "../../components/icons";
import { PageStatus } from "../../components/PageStatus";
import { useToast } from "../../components/toast";
import { development } from "../../config/agency";
import { authMessages } from "../staff-auth/messages";
import { checkSession, signOut, TICK_MS, tick, useSession } from "../staff-auth/session";
import { AwaitingApproval, awaitingMessages } from "./AwaitingApproval";
import { ChangePasswordDialog } from "./ChangePasswordDialog";
import { NoticeSwitch } from "./NoticeSwitch";
import "./staff-shell.css";

/** The panel's pages: the leads and the campaigns for everyone, the team and the activity for owners. */
const PAGES = [
  { path: "/admin", label: "Leads", ownersOnly: false },
  { path: "/admin/campanhas", label: "Campanhas", ownersOnly: false },
  { path: "/admin/equipe", label: "Equipe", ownersOnly: true },
  { path: "/admin/atividade", label: "Atividade", ownersOnly: true },
];

type Props = {
  title: string;
  subtitle: string;
  /** 'Equipe' and 'Atividade': only owners see the page. */
  ownersOnly?: boolean;
  children: ReactNode;
};

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
  const { navigate, path } = useRouter();
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

  if (session.status !== "signed-in") return <PageStatus text={authMessages.checking} />;

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
      <header className="admin__header">
        <div className="admin__container admin__header-inner">
          <div>
            <p className="admin__brand">
              <GrapesIcon size={22} />
              {development.name}
            </p>
            {/* Waiting: the page's heading is the card's 'Aguardando aprovação'. */}
            {!waiting && (
              <>
                <h1 className="admin__title" tabIndex={-1}>
                  {title}
                </h1>
                <p className="admin__subtitle">{subtitle}</p>
              </>
            )}
          </div>
          <div className="admin__user">
            <p>
              Logado como{" "}
              <strong>
                <EmailAddress email={session.user.email} />
              </strong>
            </p>
            <div className="admin__user-actions">
              {!waiting && <NoticeSwitch />}
              <button
                type="button"
                className="button button--ghost admin__logout"
                onClick={() => setChangingPassword(true)}
              >
                Alterar senha
              </button>
              {/* Waiting: 'Sair' is the card's own button. */}
              {!waiting && (
                <button type="button" className="button button--ghost admin__logout" onClick={leave} disabled={leaving}>
                  Sair
                </button>
              )}
            </div>
          </div>
        </div>
        {!waiting && (
          <nav className="admin__container staff-nav" aria-label="Páginas do painel">
            {PAGES.filter((page) => isOwner || !page.ownersOnly).map((page) => (
              <Link
                key={page.path}
                to={page.path}
                className="staff-nav__link"
                aria-current={isCurrent(page.path, path) ? "page" : undefined}
              >
                {page.label}
              </Link>
            ))}
          </nav>
        )}
      </header>
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

/**
 * Says so when the page turns from 'Aguardando aprovação' into the panel (a
 * tick brought an owner's 'Aprovar'), and puts the focus, which the card's
 * 'Sair' may have held, on the page's heading. `approved`: null while nobody is signed in.
 */
function useApprovalNews(approved: boolean | null) {
  const { toast } = useToast();
  const waited = useRef(false);
  useEffect(() => {
    if (approved === false) {
      waited.current = true;
      return;
    }
    if (approved && waited.current) {
      toast(awaitingMessages.approved);
      if (document.activeElement === document.body || document.activeElement === null) {
        document.querySelector<HTMLElement>("h1")?.focus({ preventScroll: true });
      }
    }
    waited.current = false;
  }, [approved, toast]);
}

const OWNERS_ONLY_NOTICE = "Apenas os responsáveis pelo painel veem esta página.";

/** The staff page's own content, where the skip link goes. */
const MAIN_ID = "conteudo";

/** A lead's own page belongs to the leads. */
function isCurrent(pagePath: string, path: string): boolean {
  return path === pagePath || (pagePath === "/admin" && path.startsWith("/admin/leads/"));
}
