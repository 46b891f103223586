import { type ReactNode, type RefObject, useEffect, useId, useRef } from "react";

/**
 * A native modal `<dialog>` shown while `open`: it keeps focus inside,
 * Escape calls `onCancel`, and `focus` (or the dialog itself) gets focus.
 */
export function useModalDialog(
  open: boolean,
  focus?: RefObject<HTMLElement | null>,
): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      (focus?.current?.querySelector("input") ?? focus?.current)?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, focus]);
  return dialog;
}

type Props = {
  open: boolean;
  title: string;
  children: ReactNode;
  /** What else the person should know before confirming, in a paragraph of its own. */
  note?: ReactNode;
  confirmLabel: string;
  /** What confirming does: takes something away (red, the default) or goes ahead with the page's main action. */
  tone?: "danger" | "primary";
  onCancel: () => void;
  onConfirm: () => void;
};

/** Asks before something that cannot be taken back lightly; 'Cancelar' has the focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  note,
  confirmLabel,
  tone = "danger",
  onCancel,
  onConfirm,
}: Props) {
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog(open, cancel);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={note ? `${id}-text ${id}-note` : `${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{children}</p>
      {note ? (
        <p id={`${id}-note`} className="dialog__note">
          {note}
        </p>
      ) : null}
      <div className="dialog__actions">
        <button ref={cancel} type="button" className="button button--ghost" onClick={onCancel}>
          Cancelar
        </button>
        <button type="button" className={`button button--${tone}`} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
