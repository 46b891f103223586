import { useRef } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import { Link } from "../../lib/Link";
import { useFocusRescue } from "../../lib/useFocusRescue";
import type { LeadStory } from "./api";
import { attributionFacts, attributionNotes, mailtoHref, whatsappChat } from "./format";
import { LeadActions } from "./LeadActions";
import { leadPath } from "./LeadsTable";
import { StatusBadge } from "./StatusBadge";
import type { useLeadActions } from "./useLeadActions";

type Props = { story: LeadStory; actions: ReturnType<typeof useLeadActions> };

/** The lead at the top of its page: who, how to reach them, where they came from, its status and actions. */
export function LeadCard({ story, actions }: Props) {
  const { lead } = story;
  const facts = attributionFacts(lead);
  const last = lead.last_touch;
  const card = useRef<HTMLElement>(null);
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
            <a href={whatsappChat(lead.whatsapp)} target="_blank" rel="noopener noreferrer">
              {lead.whatsapp_display}
            </a>{" "}
            <span className="lead-card__hint">(abre uma conversa no WhatsApp)</span>
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
          <dt>Primeiro contato</dt>
          <dd>{lead.origem}</dd>
        </div>
        {last && (
          <div>
            <dt>Último contato</dt>
            <dd>
              {last.origem}
              {attributionNotes(last).length > 0 && (
                <span className="lead-card__hint"> · {attributionNotes(last).join(" · ")}</span>
              )}
              <span className="lead-card__hint"> · {formatDate(last.at)}</span>
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
