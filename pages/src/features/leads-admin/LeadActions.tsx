import { Button } from "../../components/Button";
import type { Lead, Rights } from "./api";
import { canMarkSent, needsResend } from "./format";

type Props = {
  lead: Lead;
  /** One of the lead's actions is running. */
  busy?: boolean;
  crmConfigured: boolean;
  /** What the person may do: a button they may not use is not shown. */
  rights: Rights;
  onMarkSent: (lead: Lead) => void;
  onResend: (lead: Lead) => void;
  onDelete: (lead: Lead) => void;
};

/**
 * What staff can do to a lead: 'Marcar Enviado' and 'Reenviar' where they apply, and 'Excluir lead',
 * each only for someone who may. While one runs they are all inactive, the one pressed keeping the focus.
 */
export function LeadActions({ lead, busy, crmConfigured, rights, onMarkSent, onResend, onDelete }: Props) {
  return (
    <div className="row-actions">
      {rights.mark_sent && canMarkSent(lead, crmConfigured) && (
        <Button
          type="button"
          className="button button--small button--primary"
          inactive={busy}
          onClick={() => onMarkSent(lead)}
        >
          Marcar Enviado
        </Button>
      )}
      {needsResend(lead) && crmConfigured && (
        <Button
          type="button"
          className="button button--small button--ghost"
          inactive={busy}
          onClick={() => onResend(lead)}
        >
          Reenviar
        </Button>
      )}
      {rights.delete && (
        <Button
          type="button"
          className="icon-button"
          aria-label="Excluir lead"
          title="Excluir lead"
          inactive={busy}
          onClick={() => onDelete(lead)}
        >
          <svg
            viewBox="0 0 24 24"
            width="18"
            height="18"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
          </svg>
        </Button>
      )}
    </div>
  );
}
