import { EmailAddress } from "../../components/EmailAddress";
import { GrapesIcon } from "../../components/icons";
import { development } from "../../config/agency";
import { useRouter } from "../../lib/router";
import type { SessionUser } from "../staff-auth/session";
import { NoticeSwitch } from "./NoticeSwitch";
import { StaffNav } from "./StaffNav";

type Props = {
  title: string;
  subtitle: string;
  user: SessionUser;
  /** The account waits for an owner's approval: the card under the header has the heading and 'Sair'. */
  waiting: boolean;
  leaving: boolean;
  onLeave: () => void;
  onChangePassword: () => void;
};

/** The top of every staff page: the page's name, who is signed in, their switches and buttons, the pages. */
export function StaffHeader({ title, subtitle, user, waiting, leaving, onLeave, onChangePassword }: Props) {
  const { path } = useRouter();
  return (
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
              <EmailAddress email={user.email} />
            </strong>
          </p>
          <div className="admin__user-actions">
            {!waiting && <NoticeSwitch />}
            <button type="button" className="button button--ghost admin__logout" onClick={onChangePassword}>
              Alterar senha
            </button>
            {/* Waiting: 'Sair' is the card's own button. */}
            {!waiting && (
              <button type="button" className="button button--ghost admin__logout" onClick={onLeave} disabled={leaving}>
                Sair
              </button>
            )}
          </div>
        </div>
      </div>
      {!waiting && <StaffNav path={path} isOwner={user.role === "owner"} />}
    </header>
  );
}
