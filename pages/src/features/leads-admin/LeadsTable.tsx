import type { MouseEvent } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { formatDate, timeAgo } from "../../lib/format";
import { Link } from "../../lib/Link";
import { leadPath } from "../../lib/leadLinks";
import { useRouter } from "../../lib/router";
import type { Lead, Rights } from "./api";
import { greeting, takesWhatsapp, telHref, whatsappHref } from "./contact";
import { attributionNotes, mailtoHref } from "./format";
import { LeadActions } from "./LeadActions";
import { ContactState, ReachButtons, SpokeButton } from "./LeadContact";
import { StatusBadge } from "./StatusBadge";
import "./lead-page.css";

type Props = {
  leads: Lead[];
  busy: Record<string, boolean>;
  crmConfigured: boolean;
  rights: Rights;
  loading: boolean;
  /** The person signed in (their id and e-mail): 'Contatado por você', the greeting's broker. */
  me: { id: string; email: string };
  /** The time the relative times are read from (ms). */
  now: number;
  onMarkSent: (lead: Lead) => void;
  onResend: (lead: Lead) => void;
  onDelete: (lead: Lead) => void;
  onSpoke: (lead: Lead) => void;
};

/**
 * The leads, newest first: a table on wide screens; on phones and tablets a
 * compact card per lead (its name, how long ago, origin and ad, delivery
 * state, and 'Ligar', 'WhatsApp', 'Já falei' first among its actions).
 */
export function LeadsTable({
  leads,
  busy,
  crmConfigured,
  rights,
  loading,
  me,
  now,
  onMarkSent,
  onResend,
  onDelete,
  onSpoke,
}: Props) {
  const { navigate } = useRouter();
  // A click anywhere on a row (but on its links and buttons) opens the lead;
  // the name is the link a keyboard reaches.
  const open = (lead: Lead) => (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest("a, button")) return;
    if (window.getSelection()?.toString()) return;
    navigate(leadPath(lead.id));
  };
  return (
    <div className="table-wrap" aria-busy={loading}>
      <table className="data-table leads-table">
        <thead>
          <tr>
            <th scope="col">Nome</th>
            <th scope="col">Email</th>
            <th scope="col">WhatsApp</th>
            <th scope="col">Origem</th>
            <th scope="col">Status Jetimob</th>
            <th scope="col">Data</th>
            <th scope="col">Ações</th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id} className="leads-table__row" onClick={open(lead)}>
              <td data-label="Nome" className="leads-table__name">
                <div>
                  <Link to={leadPath(lead.id)} className="leads-table__open">
                    {lead.name}
                  </Link>
                  {lead.submission_count > 1 && (
                    <span className="leads-table__note">{lead.submission_count} cadastros</span>
                  )}
                  {lead.duplicate_of && (
                    <Link to={leadPath(lead.duplicate_of)} className="duplicate-flag">
                      Possível duplicado
                    </Link>
                  )}
                  {lead.pending_changes > 0 && (
                    <Link to={leadPath(lead.id)} className="duplicate-flag change-flag">
                      Alteração pendente
                    </Link>
                  )}
                  <ContactState lead={lead} myId={me.id} now={now} />
                </div>
              </td>
              <td data-label="Email">
                <a href={mailtoHref(lead.email)}>
                  <EmailAddress email={lead.email} />
                </a>
              </td>
              <td data-label="WhatsApp">
                {takesWhatsapp(lead) ? (
                  <a
                    href={whatsappHref(lead.whatsapp, greeting(lead.name, me.email))}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {lead.whatsapp_display}
                  </a>
                ) : (
                  <a href={telHref(lead.whatsapp)}>{lead.whatsapp_display}</a>
                )}
                {lead.landline && <span className="leads-table__note">fixo: ligue</span>}
              </td>
              <td data-label="Origem" className="leads-table__origin">
                <Origin lead={lead} />
              </td>
              <td data-label="Status Jetimob">
                <StatusBadge lead={lead} />
              </td>
              <td data-label="Data" className="leads-table__date">
                <time dateTime={lead.created_at} title={formatDate(lead.created_at)}>
                  <span className="leads-table__when">{formatDate(lead.created_at)}</span>
                  <span className="leads-table__ago">{timeAgo(lead.created_at, now)}</span>
                </time>
              </td>
              <td data-label="Ações" className="leads-table__actions">
                <div className="leads-table__reach">
                  <ReachButtons lead={lead} me={me.email} />
                  <SpokeButton lead={lead} busy={busy[lead.id]} onSpoke={onSpoke} />
                </div>
                <LeadActions
                  lead={lead}
                  busy={busy[lead.id]}
                  crmConfigured={crmConfigured}
                  rights={rights}
                  onMarkSent={onMarkSent}
                  onResend={onResend}
                  onDelete={onDelete}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The lead's origin and, in small print, the campaign that brought it (one block: a card's cell is a two-column grid). */
function Origin({ lead }: { lead: Lead }) {
  return (
    <div>
      {lead.origem}
      {attributionNotes(lead).map((note) => (
        <span key={note} className="leads-table__note">
          {note}
        </span>
      ))}
    </div>
  );
}
