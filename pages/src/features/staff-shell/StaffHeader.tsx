import { useEffect, useId, useRef, useState } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { GrapesIcon } from "../../components/icons";
import { development } from "../../config/agency";
import { useRouter } from "../../lib/router";
import type { SessionUser } from "../../lib/session";
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

/**
 * The top of every staff page: the page's name, who is signed in, their
 * switches and buttons, the pages. On a phone it folds into one bar (the
 * pages, with the one on screen marked, and 'Menu' with the person, the
 * switch, 'Alterar senha' and 'Sair'), so the first screen is the leads.
 */
export function StaffHeader({ title, subtitle, user, waiting, leaving, onLeave, onChangePassword }: Props) {
  const { path } = useRouter();
  const [open, setOpen] = useState(false);
  const id = useId();
  const menu = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // Another page closes the menu; so do Escape and a tap outside it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is what closes it.
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onDown = (event: PointerEvent) => {
      const target = event.target as Element;
      // A dialog the menu opened ('Alterar senha') keeps it open: its button gets the focus back.
      if (target.closest?.("[role='dialog'], dialog")) return;
      if (!menu.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open]);

  return (
    <header className={`admin__header${waiting ? " admin__header--waiting" : ""}`}>
      <div className="admin__container admin__header-inner">
        <div className="admin__heading">
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
        {!waiting && (
          <button
            ref={toggle}
            type="button"
            className="admin__menu-toggle"
            aria-expanded={open}
            aria-controls={`${id}-menu`}
            onClick={() => setOpen(!open)}
          >
            <span aria-hidden="true" className="admin__menu-icon" />
            Menu
          </button>
        )}
        <div ref={menu} id={`${id}-menu`} className={`admin__user${open ? " admin__user--open" : ""}`}>
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
