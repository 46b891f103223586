import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import type { Submission } from "./api";
import { attributionNotes } from "./format";

/** One submission: what was typed, and what changed since the one before. */
export function SubmissionItem({ submission: s, previous }: { submission: Submission; previous?: Submission }) {
  const changed = (key: "name" | "email" | "whatsapp") => previous !== undefined && previous[key] !== s[key];
  const notes = attributionNotes(s);
  return (
    <li className="timeline__item">
      <time dateTime={s.at ?? undefined}>{formatDate(s.at)}</time>
      <div>
        <p className={changed("name") ? "timeline__changed" : undefined}>{s.name}</p>
        <p className={changed("email") ? "timeline__changed" : undefined}>
          <EmailAddress email={s.email} />
        </p>
        <p className={changed("whatsapp") ? "timeline__changed" : undefined}>{s.whatsapp_display}</p>
        <p className="lead-card__hint">
          origem {s.origem}
          {notes.length > 0 && ` · ${notes.join(" · ")}`}
        </p>
        {s.kind === "pending" && <p className="timeline__badge">Alteração pendente: dados não aplicados</p>}
        {s.kind === "refused" && <p className="timeline__badge">{refusedBy(s)}</p>}
        {s.kind !== "pending" &&
          s.kind !== "refused" &&
          previous &&
          (changed("name") || changed("email") || changed("whatsapp")) && (
            <p className="timeline__badge">Dados corrigidos pelo visitante</p>
          )}
      </div>
    </li>
  );
}

/** Who set a refused change aside: staff, or the rules that keep waiting changes few. */
function refusedBy(s: Submission): string {
  switch (s.auto_refused) {
    case "replaced":
      return "Alteração recusada: substituída por outra mais nova do mesmo remetente";
    case "limit":
      return "Alteração recusada automaticamente: o lead já tinha o máximo de alterações aguardando";
    default:
      return "Alteração recusada pela equipe";
  }
}
