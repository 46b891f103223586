import { useId, useState } from "react";
import { useSession } from "../../lib/session";
import { safeStorage } from "../../lib/storage";
import type { Incident } from "./api";
import { bannerMessages, refusedTitle } from "./messages";

type Props = {
  incident: Incident;
  /** 'Ver os leads': the list turns to 'Falharam'. */
  onShowRefused: () => void;
  /** Leads Jetimob refused for good, over every lead. */
  refused: number;
  /** On a phone the banner starts folded to its line: it never covers the first lead. */
  phone: boolean;
};

/** Where a person's choice to fold or unfold the banner is kept, in this browser. */
function foldKey(userId: string): string {
  return `painel-aviso:${userId}`;
}

/**
 * The banner, honest about what is wrong: no lead reaches Jetimob ('Jetimob
 * fora do ar', the alert's words in full) or Jetimob refused a few (one line,
 * '2 leads recusados pelo Jetimob', with a link to them, in full for owners).
 * It folds to its line and unfolds ('Detalhes'), and each person's choice is
 * kept for this trouble (a new one starts as its kind does). A step only an
 * owner can take (a secret, the worker's settings) is, for everyone else,
 * something to tell an owner, with the step to pass on.
 */
export function IncidentBanner({ incident, refused, phone, onShowRefused }: Props) {
  const session = useSession();
  const user = session.status === "signed-in" ? session.user : null;
  const isOwner = user?.role === "owner";
  const id = useId();
  const which = `${incident.standing}:${incident.since ?? ""}`;
  const kept = () => {
    try {
      const saved = user ? safeStorage("localStorage")?.getItem(foldKey(user.id)) : null;
      const parsed = saved ? (JSON.parse(saved) as { which: string; open: boolean }) : null;
      if (parsed?.which === which) return parsed.open;
    } catch {
      // Storage refused or unreadable: the banner starts as its kind does.
    }
    if (phone) return false;
    return incident.standing !== "refused" || isOwner;
  };
  const [open, setOpen] = useState(kept);
  const toggle = () => {
    const next = !open;
    setOpen(next);
    try {
      if (user) safeStorage("localStorage")?.setItem(foldKey(user.id), JSON.stringify({ which, open: next }));
    } catch {
      // Not kept: the choice lasts while the page is open.
    }
  };
  const isRefused = incident.standing === "refused";
  const title = isRefused ? refusedTitle(refused) : incident.title;
  return (
    <section
      className={`incident incident--${incident.standing}`}
      role={isRefused ? "note" : "alert"}
      aria-label={title}
    >
      <div className="incident__line">
        <p className="incident__headline">
          <strong>{title}</strong>
          {isRefused && refused > 0 && (
            <>
              {" "}
              <a
                href="/admin?status=falhas"
                className="incident__link"
                onClick={(event) => {
                  event.preventDefault();
                  onShowRefused();
                }}
              >
                {bannerMessages.seeRefused}
              </a>
            </>
          )}
        </p>
        <button
          type="button"
          className="incident__toggle"
          aria-expanded={open}
          aria-controls={`${id}-details`}
          onClick={toggle}
        >
          {open ? bannerMessages.fold : bannerMessages.unfold}
        </button>
      </div>
      <div id={`${id}-details`} className="incident__body" hidden={!open}>
        <h2 className="incident__title">{incident.summary}</h2>
        {incident.oldest_waiting && <p className="incident__waiting">{incident.oldest_waiting}</p>}
        <ul className="incident__details">
          {incident.details.map((detail) => (
            <li key={detail.what}>
              <p>{detail.what}</p>
              <p className="incident__todo">
                <strong>O que fazer:</strong>{" "}
                {detail.owners && !isOwner ? `avise o responsável pelo painel. Para ele: ${detail.todo}` : detail.todo}
              </p>
            </li>
          ))}
        </ul>
        <p className="incident__safe">{incident.kept}</p>
      </div>
    </section>
  );
}
