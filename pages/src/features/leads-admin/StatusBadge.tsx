import type { ReactNode } from "react";
import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import type { Lead } from "./api";

const LABELS = { sent: "Enviado", pending: "Pendente", failed: "Falhou" } as const;

/** Where the lead stands with the CRM, and the detail staff need to act on it. */
export function StatusBadge({ lead }: { lead: Lead }) {
  const status = lead.jetimob_enviado ? "sent" : lead.delivery_status;
  const attempts = lead.delivery_attempts === 1 ? "1 tentativa" : `${lead.delivery_attempts} tentativas`;
  let progress: ReactNode = "";
  if (status === "sent" && lead.sent_by === "staff") progress = <MarkedBy lead={lead} />;
  else if (status === "failed") progress = `${attempts}; reenvio automático encerrado`;
  else if (status === "pending" && lead.delivery_attempts > 0)
    progress = `${attempts}${lead.next_attempt_at ? ` · próxima ${formatDate(lead.next_attempt_at)}` : ""}`;
  let error = status !== "sent" && lead.last_error ? `Último erro: ${lead.last_error}` : "";
  // A lead the CRM has whose correction it has not learned yet.
  if (status === "sent" && lead.update_status === "pending") progress = "Correção do visitante a enviar";
  if (status === "sent" && lead.update_status === "failed") {
    progress = "Correção do visitante não enviada";
    error = lead.update_last_error ? `Último erro: ${lead.update_last_error}` : "";
  }
  return (
    <div className="status">
      <span className={`badge badge--${status}`}>{LABELS[status]}</span>
      {progress && <span className="status__detail">{progress}</span>}
      {error && (
        <span className="status__detail status__error" title={error}>
          {error}
        </span>
      )}
    </div>
  );
}

/** Who marked the lead sent and when: 'marcado por ana@… em 05/03/2026 14:30'. */
function MarkedBy({ lead }: { lead: Pick<Lead, "marked_by" | "sent_at"> }) {
  // "em" stays with its date when the line breaks after a long e-mail.
  const when = lead.sent_at ? ` em\u00a0${formatDate(lead.sent_at)}` : "";
  if (!lead.marked_by) return <>Marcado pela equipe{when}</>;
  return (
    <>
      marcado por <EmailAddress email={lead.marked_by} />
      {when}
    </>
  );
}
