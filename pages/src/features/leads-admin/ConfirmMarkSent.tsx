import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmailAddress } from "../../components/EmailAddress";
import type { Lead } from "./api";

type Props = { lead: Lead | null; onCancel: () => void; onConfirm: () => void };

/**
 * Asks before 'Marcar Enviado': it stops the worker sending the lead (or the
 * visitor's correction of it) to Jetimob, so it is right only once staff
 * entered it there by hand. A phone's main button otherwise takes one stray tap.
 */
export function ConfirmMarkSent({ lead, onCancel, onConfirm }: Props) {
  const correction = lead?.jetimob_enviado ?? false;
  return (
    <ConfirmDialog
      open={lead !== null}
      title="Marcar como enviado?"
      confirmLabel="Marcar como enviado"
      tone="primary"
      onCancel={onCancel}
      onConfirm={onConfirm}
      note={
        correction
          ? "Marque só se você já atualizou este lead no Jetimob à mão."
          : "Marque só se você já cadastrou este lead no Jetimob à mão."
      }
    >
      {lead ? (
        <>
          {correction ? "A correção do lead de " : "O lead de "}
          <strong>{lead.name}</strong> (<EmailAddress email={lead.email} />) deixará de ser{" "}
          {correction ? "enviada" : "enviado"} automaticamente ao Jetimob.
        </>
      ) : null}
    </ConfirmDialog>
  );
}
