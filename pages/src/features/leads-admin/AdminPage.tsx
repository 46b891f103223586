import { useEffect, useState } from "react";
import { useRouter } from "../../app/router";
import { EmailAddress } from "../../components/EmailAddress";
import { GrapesIcon } from "../../components/icons";
import { PageStatus } from "../../components/PageStatus";
import { development } from "../../config/agency";
import { authMessages } from "../staff-auth/messages";
import { checkSession, signOut, TICK_MS, tick, useSession } from "../staff-auth/session";
import { LeadsPanel } from "./LeadsPanel";
import "./admin.css";

/** /admin: the protected panel. Without a live session it sends the visitor to /auth. */
export default function AdminPage() {
  const session = useSession();
  const { navigate } = useRouter();
  const [leaving, setLeaving] = useState(false);

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

  const leave = async () => {
    setLeaving(true);
    await signOut();
  };

  return (
    <div className="admin">
      <header className="admin__header">
        <div className="admin__container admin__header-inner">
          <div>
            <p className="admin__brand">
              <GrapesIcon size={22} />
              {development.name}
            </p>
            <h1 className="admin__title">Painel Administrativo</h1>
            <p className="admin__subtitle">Gerencie os leads do pré-lançamento e acompanhe o envio ao CRM Jetimob.</p>
          </div>
          <div className="admin__user">
            <p>
              Logado como{" "}
              <strong>
                <EmailAddress email={session.user.email} />
              </strong>
            </p>
            <button type="button" className="button button--ghost admin__logout" onClick={leave} disabled={leaving}>
              Sair
            </button>
          </div>
        </div>
      </header>
      <main className="admin__container admin__main">
        <LeadsPanel />
      </main>
    </div>
  );
}
