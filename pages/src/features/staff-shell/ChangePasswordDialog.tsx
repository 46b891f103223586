import { type FormEvent, useId, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { useModalDialog } from "../../components/ConfirmDialog";
import { newPasswordProblem } from "../../components/newPassword";
import { NewPasswordFields, PasswordField } from "../../components/PasswordField";
import { serverMessage } from "../../lib/api";
import { changePassword } from "../../lib/session";
import { type ToastInput, useToast } from "../../lib/toast";
import { shellMessages } from "./messages";

/**
 * 'Alterar senha': the current password, the new one twice. The other
 * sessions of the account end. What goes wrong is said inside the dialog: a
 * modal dialog makes the rest of the page inert, toasts included, so a toast
 * would sit under the backdrop, unheard by screen readers and out of reach.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { toast } = useToast();
  const id = useId();
  const first = useRef<HTMLDivElement>(null);
  const dialog = useModalDialog(open, first);
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ToastInput | null>(null);

  /** An edit clears what went wrong, so the same problem met again is said (and heard) again. */
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setProblem(null);
  };

  const close = () => {
    setCurrent("");
    setNext("");
    setConfirmation("");
    setProblem(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const mismatch = newPasswordProblem(next, confirmation);
    setProblem(mismatch);
    if (mismatch) return;
    setBusy(true);
    try {
      await changePassword(current, next);
      toast(shellMessages.passwordChanged);
      close();
    } catch (error) {
      setProblem({ title: shellMessages.changeFailedTitle, description: serverMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <form onSubmit={submit}>
        <h2 id={`${id}-title`}>Alterar senha</h2>
        <p className="dialog__text">As outras sessões abertas da sua conta serão encerradas; esta continua.</p>
        <div ref={first}>
          <PasswordField
            id={`${id}-current`}
            label="Senha atual"
            autoComplete="current-password"
            value={current}
            onChange={edit(setCurrent)}
          />
        </div>
        <NewPasswordFields
          id={id}
          label="Nova senha"
          password={next}
          confirmation={confirmation}
          onPassword={edit(setNext)}
          onConfirmation={edit(setConfirmation)}
        />
        <p className="dialog__problem" role="alert">
          {problem && (problem.description ?? problem.title)}
        </p>
        <div className="dialog__actions">
          <button type="button" className="button button--ghost" onClick={close}>
            Cancelar
          </button>
          <Button type="submit" className="button button--primary" inactive={busy}>
            {busy ? "Alterando..." : "Alterar senha"}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
