import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EmailAddress } from "../../components/EmailAddress";
import type { Account, TeamAction } from "./api";
import { actionLabels } from "./messages";

/** An action asked about before it is done, on whose account. */
export type Pending = { account: Account; action: TeamAction; isYou: boolean };

/**
 * Whether `action` on this account asks first: ending your own sessions
 * signs you out here too, giving up your own role takes 'Equipe' and
 * 'Atividade' away at once, making someone an owner hands them the team, and
 * 'Recusar' switches an account off. 'Desativar' has its own dialog (ConfirmDisable).
 */
export function asksFirst(action: TeamAction, isYou: boolean): boolean {
  return (
    (isYou && (action === "end-sessions" || action === "remove-owner")) ||
    action === "make-owner" ||
    action === "refuse"
  );
}

type Props = { pending: Pending | null; onCancel: () => void; onConfirm: () => void };

export function ConfirmAction({ pending, onCancel, onConfirm }: Props) {
  const { title, text } = pending ? words(pending) : { title: "", text: null };
  return (
    <ConfirmDialog
      open={pending !== null}
      title={title}
      confirmLabel={pending ? actionLabels[pending.action].button : ""}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {text}
    </ConfirmDialog>
  );
}

function words({ account, action, isYou }: Pending) {
  if (action === "end-sessions" && isYou) {
    return {
      title: "Sair de todos os dispositivos?",
      text: "Todas as suas sessões são encerradas, inclusive esta: você precisará entrar de novo.",
    };
  }
  if (action === "remove-owner" && isYou) {
    return {
      title: "Deixar de ser responsável?",
      text: "Você deixa de gerenciar a equipe e de ver a atividade agora. Outro responsável pode devolver o papel.",
    };
  }
  if (action === "refuse") {
    return {
      title: "Recusar acesso?",
      text: (
        <>
          <strong>
            <EmailAddress email={account.email} />
          </strong>{" "}
          não entra no painel: a conta é desativada, e as sessões abertas dela são encerradas agora. Se a reativar
          depois, ela volta a aguardar aprovação.
        </>
      ),
    };
  }
  return {
    title: "Tornar responsável?",
    text: (
      <>
        <strong>
          <EmailAddress email={account.email} />
        </strong>{" "}
        passa a gerenciar a equipe (desativar contas, encerrar sessões, mudar papéis) e a ver a atividade do painel.
      </>
    ),
  };
}
