import type { Incident } from "./api";

/**
 * While leads are not reaching Jetimob: the same words as the owners'
 * e-mail ('Leads não estão chegando ao Jetimob'), what is wrong and what to do.
 */
export function IncidentBanner({ incident }: { incident: Incident }) {
  return (
    <section className="incident" role="alert" aria-labelledby="incident-title">
      <h2 id="incident-title" className="incident__title">
        {incident.summary}
      </h2>
      <ul className="incident__details">
        {incident.details.map((detail) => (
          <li key={detail.what}>
            <p>{detail.what}</p>
            <p className="incident__todo">
              <strong>O que fazer:</strong> {detail.todo}
            </p>
          </li>
        ))}
      </ul>
      <p className="incident__safe">{incident.kept}</p>
    </section>
  );
}
