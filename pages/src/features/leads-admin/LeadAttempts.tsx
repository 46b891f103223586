import { formatDate } from "../../lib/format";
import type { LeadStory } from "./api";
import { TimelineOmitted } from "./TimelineOmitted";

/** 'Envios ao Jetimob': each try to send the lead or a correction of it, and what Jetimob answered. */
export function LeadAttempts({ story }: { story: LeadStory }) {
  return (
    <section className="panel" aria-labelledby="attempts-title">
      <div className="panel__head">
        <h2 id="attempts-title">Envios ao Jetimob</h2>
      </div>
      {story.attempts.length === 0 ? (
        <p className="panel__note">
          {story.crm_configured
            ? "Nenhuma tentativa registrada."
            : "Nenhuma tentativa: a integração com o Jetimob não está configurada."}
        </p>
      ) : (
        <ol className="timeline">
          {story.hidden.attempts > 0 && (
            <TimelineOmitted
              count={story.hidden.attempts}
              one="1 tentativa mais antiga não é mostrada aqui."
              many="tentativas mais antigas não são mostradas aqui."
            />
          )}
          {story.attempts.map((a) => (
            <li key={a.id} className="timeline__item">
              <time dateTime={a.at ?? undefined}>{formatDate(a.at)}</time>
              <div>
                <p>
                  {a.kind === "lead" ? "Lead" : "Correção dos dados"}:{" "}
                  <span className={a.outcome === "sent" ? "badge badge--sent" : "badge badge--failed"}>
                    {a.outcome === "sent" ? "Enviado" : "Falhou"}
                  </span>
                </p>
                {a.detail && (
                  <p className="lead-card__hint">
                    {a.outcome === "sent" ? `Código no Jetimob: ${a.detail}` : a.detail}
                  </p>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
