import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import type { LeadStory } from "./api";
import { staffActionNames } from "./messages";
import { TimelineOmitted } from "./TimelineOmitted";

/** 'Ações da equipe': what staff did to the lead, and who. */
export function LeadStaffActions({ story }: { story: LeadStory }) {
  return (
    <section className="panel" aria-labelledby="actions-title">
      <div className="panel__head">
        <h2 id="actions-title">Ações da equipe</h2>
      </div>
      {story.actions.length === 0 ? (
        <p className="panel__note">Ninguém da equipe alterou este lead.</p>
      ) : (
        <ol className="timeline">
          {story.hidden.actions > 0 && (
            <TimelineOmitted
              count={story.hidden.actions}
              one="1 ação mais antiga não é mostrada aqui."
              many="ações mais antigas não são mostradas aqui."
            />
          )}
          {story.actions.map((a) => (
            <li key={a.id} className="timeline__item">
              <time dateTime={a.at ?? undefined}>{formatDate(a.at)}</time>
              <div>
                <p>{staffActionNames[a.action] ?? a.action}</p>
                <p className="lead-card__hint">
                  <EmailAddress email={a.staff_email} />
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
