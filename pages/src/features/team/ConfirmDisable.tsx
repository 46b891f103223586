import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { Account } from "./api";

type Props = { account: Account | null; onCancel: () => void; onConfirm: () => void };

/** Asks before an account is switched off: every session of it ends at once. */
export function ConfirmDisable({ account, onCancel, onConfirm }: Props) {
  return (
    <ConfirmDialog
      open={account !== null}
      title="Desativar conta?"
      confirmLabel="Desativar"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {account ? (
        <>
          <strong>{account.email}</strong> deixa de entrar no painel, e todas as sessões abertas dessa conta são
          encerradas agora. Você pode reativá-la depois.
        </>
      ) : null}
    </ConfirmDialog>
  );
}
