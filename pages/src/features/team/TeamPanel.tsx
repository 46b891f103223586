import { useEffect, useRef, useState } from "react";
import { LoadFailed } from "../../components/LoadFailed";
import { ApiError } from "../../lib/api";
import { useToast } from "../../lib/toast";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useLoad } from "../../lib/useLoad";
import { AccountRow } from "./AccountRow";
import { isWaiting, otherAddresses } from "./accounts";
import { type Account, actOn, fetchTeam, type Team, type TeamAction } from "./api";
import { asksFirst, ConfirmAction, type Pending } from "./ConfirmAction";
import { ConfirmDisable } from "./ConfirmDisable";
import { actionLabels, teamMessages, waitingNote } from "./messages";

/** Every account and what an owner can do to it: who gets in, their role, what a colleague may do. */
export function TeamPanel() {
  const { toast } = useToast();
  // The team stays on screen when reading it again after an action fails.
  const {
    data: team,
    failed,
    load,
    retry,
  } = useLoad<void, Team>({
    fetch: (_, signal) => fetchTeam(signal),
    failure: teamMessages.loadFailed,
    keep: true,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [toDisable, setToDisable] = useState<Account | null>(null);
  const [toConfirm, setToConfirm] = useState<Pending | null>(null);
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // An action done ('Desativar' becomes 'Reativar'): focus goes to the account's first action.
  useFocusRescue(panel, { items: "tbody tr", target: ".row-actions button", fallback: () => heading.current });

  useEffect(() => {
    void load();
  }, [load]);

  const act = async (account: Account, action: TeamAction) => {
    setBusy(account.id);
    try {
      await actOn(account, action);
      toast({ title: actionLabels[action].done, description: account.email });
    } catch (error) {
      toast({
        title: teamMessages.actionFailedTitle,
        description: error instanceof ApiError ? error.message : undefined,
        variant: "destructive",
      });
    } finally {
      setBusy(null);
      await load();
    }
  };

  if (!team) {
    return failed ? (
      <LoadFailed text={teamMessages.loadFailed.description} onRetry={retry} />
    ) : (
      <p className="list-status" role="status">
        {teamMessages.loading}
      </p>
    );
  }

  const waiting = team.accounts.filter(isWaiting).length;
  return (
    <section className="panel" aria-labelledby="team-title" ref={panel}>
      <div className="panel__head">
        <h2 id="team-title" ref={heading} tabIndex={-1}>
          Contas com acesso
        </h2>
        <p className="panel__note">{teamMessages.rolesNote}</p>
      </div>
      {waiting > 0 && (
        <p className="notice" role="note">
          {waitingNote(waiting)}
        </p>
      )}
      <div className="table-wrap">
        <table className="data-table team-table">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">{teamMessages.roleColumn}</th>
              <th scope="col">Situação</th>
              <th scope="col">Criada em</th>
              <th scope="col">Último acesso</th>
              <th scope="col">Sessões ativas</th>
              <th scope="col">Ações</th>
            </tr>
          </thead>
          <tbody>
            {team.accounts.map((account) => (
              <AccountRow
                key={account.id}
                account={account}
                isYou={account.id === team.you}
                busy={busy === account.id}
                onAct={(action) => {
                  const isYou = account.id === team.you;
                  if (action === "disable") setToDisable(account);
                  else if (asksFirst(action, isYou)) setToConfirm({ account, action, isYou });
                  else void act(account, action);
                }}
              />
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmAction
        pending={toConfirm}
        onCancel={() => setToConfirm(null)}
        onConfirm={() => {
          const pending = toConfirm;
          setToConfirm(null);
          if (pending) void act(pending.account, pending.action);
        }}
      />
      <ConfirmDisable
        account={toDisable}
        others={toDisable ? otherAddresses(team.accounts, toDisable, team.you) : []}
        onCancel={() => setToDisable(null)}
        onConfirm={() => {
          const account = toDisable;
          setToDisable(null);
          if (account) void act(account, "disable");
        }}
      />
    </section>
  );
}
