import { useSession } from "../staff-auth/session";
import type { Incident } from "./api";

/**
 * While leads are not reaching Jetimob: the same words as the owners'
 * e-mail ('Leads não estão chegando ao Jetimob'), what is wrong and what to do.
 * A step only an owner can take (a secret, the worker's settings) is, for
 * everyone else, something to tell an owner, with the step to pass on.
 */
export function IncidentBanner({ incident }: { incident: Incident }) {
  const session = useSession();
  const isOwner = session.status === "signed-in" && session.user.role === "owner";
  return (
    <section className="incident" role="alert" aria-labelledby="incident-title">
      <h2 id="incident-title" className="incident__title">
        {incident.summary}
      </h2>
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
    </section>
  );
}
