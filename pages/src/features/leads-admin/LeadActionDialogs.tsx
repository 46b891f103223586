import { ConfirmDelete } from "./ConfirmDelete";
import { ConfirmMarkSent } from "./ConfirmMarkSent";
import type { useLeadActions } from "./useLeadActions";

/** The questions 'Marcar Enviado' and 'Excluir' ask first, wherever a lead's actions are offered. */
export function LeadActionDialogs({ actions }: { actions: ReturnType<typeof useLeadActions> }) {
  return (
    <>
      <ConfirmMarkSent
        lead={actions.toMark}
        onCancel={actions.onCancelMarkSent}
        onConfirm={actions.onConfirmMarkSent}
      />
      <ConfirmDelete lead={actions.toDelete} onCancel={actions.onCancelDelete} onConfirm={actions.onConfirmDelete} />
    </>
  );
}
