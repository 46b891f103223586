import type { MouseEvent } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import { Link } from "../../lib/Link";
import { useRouter } from "../../lib/router";
import type { Lead, Rights } from "./api";
import { attributionNotes, mailtoHref, whatsappChat } from "./format";
import { LeadActions } from "./LeadActions";
import { StatusBadge } from "./StatusBadge";
import "./lead-page.css";

type Props = {
  leads: Lead[];
  busy: Record<string, boolean>;
  crmConfigured: boolean;
  rights: Rights;
  loading: boolean;
  onMarkSent: (lead: Lead) => void;
  onResend: (lead: Lead) => void;
  onDelete: (lead: Lead) => void;
};

/** The leads, newest first: a table on wide screens, one card per lead on phones. */
export function LeadsTable({ leads, busy, crmConfigured, rights, loading, onMarkSent, onResend, onDelete }: Props) {
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
                </div>
              </td>
              <td data-label="Email">
                <a href={mailtoHref(lead.email)}>
                  <EmailAddress email={lead.email} />
                </a>
              </td>
              <td data-label="WhatsApp">
                <a href={whatsappChat(lead.whatsapp)} target="_blank" rel="noopener noreferrer">
                  {lead.whatsapp_display}
                </a>
              </td>
              <td data-label="Origem" className="leads-table__origin">
                <Origin lead={lead} />
              </td>
              <td data-label="Status Jetimob">
                <StatusBadge lead={lead} />
              </td>
              <td data-label="Data">
                <time dateTime={lead.created_at}>{formatDate(lead.created_at)}</time>
              </td>
              <td data-label="Ações">
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

/** The address of a lead's own page. */
export function leadPath(id: string): string {
  return `/admin/leads/${encodeURIComponent(id)}`;
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
