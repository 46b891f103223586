import { useRef } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import { Link } from "../../lib/Link";
import { leadPath } from "../../lib/leadLinks";
import { useSession } from "../../lib/session";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useNow } from "../../lib/useNow";
import type { LeadStory } from "./api";
import { jetimobLeadHref } from "./contact";
import { attributionFacts, attributionNotes, mailtoHref } from "./format";
import { LeadActions } from "./LeadActions";
import { ContactState, ReachButtons, SpokeButton } from "./LeadContact";
import { StatusBadge } from "./StatusBadge";
import type { useLeadActions } from "./useLeadActions";

type Props = { story: LeadStory; actions: ReturnType<typeof useLeadActions> };

/** The lead at the top of its page: who, how to reach them, where they came from, its status and actions. */
export function LeadCard({ story, actions }: Props) {
  const { lead } = story;
  const facts = attributionFacts(lead);
  const last = lead.last_touch;
  const card = useRef<HTMLElement>(null);
  const session = useSession();
  const me = session.status === "signed-in" ? session.user : { id: "", email: "" };
  const now = useNow();
  const jetimob = lead.jetimob_lead_id ? jetimobLeadHref(lead.jetimob_lead_id) : null;
  const status = useRef<HTMLDivElement>(null);
  // 'Marcar Enviado' gone once the lead is sent: focus goes to the status that says so.
  useFocusRescue(card, { fallback: () => status.current });

  return (
    <section className="panel lead-card" aria-labelledby="lead-name" ref={card}>
      <div className="lead-card__head">
        <div>
          <h2 id="lead-name">{lead.name}</h2>
          <p className="panel__note">
            Lead desde {formatDate(lead.created_at)} ·{" "}
            {lead.submission_count === 1 ? "1 cadastro" : `${lead.submission_count} cadastros`}
          </p>
          <ContactState lead={lead} myId={me.id} now={now} />
          <div className="lead-card__reach">
            <ReachButtons lead={lead} me={me.email} />
            <SpokeButton lead={lead} busy={actions.busy[lead.id]} onSpoke={actions.onSpoke} />
          </div>
        </div>
        <div className="lead-card__status">
          <div ref={status} tabIndex={-1}>
            <StatusBadge lead={lead} />
          </div>
          <LeadActions
            lead={lead}
            busy={actions.busy[lead.id]}
            crmConfigured={story.crm_configured}
            rights={story.rights}
            onMarkSent={actions.onMarkSent}
            onResend={actions.onResend}
            onDelete={actions.onDelete}
          />
        </div>
      </div>
      <dl className="lead-card__facts">
        <div>
          <dt>WhatsApp</dt>
          <dd>
            {lead.whatsapp_display}
            {lead.landline && <span className="lead-card__hint"> (fixo: ligue)</span>}
          </dd>
        </div>
        <div>
          <dt>E-mail</dt>
          <dd>
            <a href={mailtoHref(lead.email)}>
              <EmailAddress email={lead.email} />
            </a>
          </dd>
        </div>
        <div>
          <dt>Primeira origem</dt>
          <dd>{lead.origem}</dd>
        </div>
        {last && (
          <div>
            <dt>Última origem</dt>
            <dd>
              {last.origem}
              {attributionNotes(last).length > 0 && (
                <span className="lead-card__hint"> · {attributionNotes(last).join(" · ")}</span>
              )}
              <span className="lead-card__hint"> · {formatDate(last.at)}</span>
            </dd>
          </div>
        )}
        {lead.jetimob_lead_id && (
          <div>
            <dt>Código no Jetimob</dt>
            <dd>
              {jetimob ? (
                <a href={jetimob} target="_blank" rel="noopener noreferrer">
                  {lead.jetimob_lead_id}
                </a>
              ) : (
                lead.jetimob_lead_id
              )}
            </dd>
          </div>
        )}
      </dl>
      {facts.length > 0 && (
        <>
          <h3 className="lead-card__subhead">De onde veio</h3>
          <dl className="lead-card__facts lead-card__facts--attribution">
            {facts.map((fact) => (
              <div key={fact.label}>
                <dt>{fact.label}</dt>
                <dd>{fact.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {story.possible_duplicates.length > 0 && (
        <div className="notice lead-card__duplicates" role="note">
          <strong>Possível duplicado.</strong> Um cadastro trouxe dados de outro lead; nada foi juntado automaticamente.
          Compare:
          <ul>
            {story.possible_duplicates.map((other) => (
              <li key={other.id}>
                <Link to={leadPath(other.id)}>{other.name}</Link> · {other.email} · {other.whatsapp_display}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
