import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { Lead } from "./api";

type Props = { lead: Lead | null; onCancel: () => void; onConfirm: () => void };

/** Asks before a lead is deleted: deleting cannot be undone. */
export function ConfirmDelete({ lead, onCancel, onConfirm }: Props) {
  return (
    <ConfirmDialog
      open={lead !== null}
      title="Excluir lead?"
      confirmLabel="Excluir"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {lead ? (
        <>
          O lead de <strong>{lead.name}</strong> ({lead.email}) será removido de forma permanente.
        </>
      ) : null}
    </ConfirmDialog>
  );
}
