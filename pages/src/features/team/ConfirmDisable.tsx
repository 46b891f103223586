import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmailAddress } from "../../components/EmailAddress";
import type { Account } from "./api";

type Props = { account: Account | null; others: Account[]; onCancel: () => void; onConfirm: () => void };

/**
 * Asks before an account is switched off: every session of it ends at once,
 * and the person's other addresses (`ana+x@` beside `ana@`) go with it.
 */
export function ConfirmDisable({ account, others, onCancel, onConfirm }: Props) {
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
          <strong>
            <EmailAddress email={account.email} />
          </strong>{" "}
          deixa de entrar no painel, e todas as sessões abertas dessa conta são encerradas agora. Você pode reativá-la
          depois.
          {others.length > 0 && (
            <span>
              {" "}
              {others.length === 1 ? "A outra conta" : "As outras contas"} do mesmo e-mail também{" "}
              {others.length === 1 ? "é desativada" : "são desativadas"}:{" "}
              {others.map((o, i) => (
                <span key={o.id}>
                  {i > 0 && ", "}
                  <strong>
                    <EmailAddress email={o.email} />
                  </strong>
                </span>
              ))}
              .
            </span>
          )}
        </>
      ) : null}
    </ConfirmDialog>
  );
}
