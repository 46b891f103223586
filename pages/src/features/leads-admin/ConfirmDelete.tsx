import { useEffect, useRef } from "react";
import type { Lead } from "./api";

type Props = { lead: Lead | null; onCancel: () => void; onConfirm: () => void };

/** Asks before a lead is deleted: deleting cannot be undone. A native modal dialog keeps focus inside. */
export function ConfirmDelete({ lead, onCancel, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (lead && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!lead && element.open) {
      element.close();
    }
  }, [lead]);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="delete-title"
      aria-describedby="delete-text"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="delete-title">Excluir lead?</h2>
      <p id="delete-text">
        {lead ? (
          <>
            O lead de <strong>{lead.name}</strong> ({lead.email}) será removido de forma permanente.
          </>
        ) : null}
      </p>
      <div className="dialog__actions">
        <button ref={cancel} type="button" className="button button--ghost" onClick={onCancel}>
          Cancelar
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          Excluir
        </button>
      </div>
    </dialog>
  );
}
