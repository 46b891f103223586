import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { EmailAddress } from "../../components/EmailAddress";
import { useToast } from "../../components/toast";
import { ApiError, sessionEnded } from "../../lib/api";
import { formatCount, formatDate } from "../../lib/format";
import { StaffLayout } from "../staff-shell/StaffLayout";
import { otherAddresses } from "./accounts";
import { type Account, actOn, fetchTeam, type Team, type TeamAction } from "./api";
import { asksFirst, ConfirmAction, type Pending } from "./ConfirmAction";
import { ConfirmDisable } from "./ConfirmDisable";
import { actionLabels, alertMissed, teamMessages } from "./messages";
import "./team.css";
import { LoadFailed } from "../../components/LoadFailed";
import { useFocusRescue } from "../../lib/useFocusRescue";
import { useLatestRequest } from "../../lib/useLatestRequest";

/** /admin/equipe: every account and what an owner can do to it. Owners only. */
export default function TeamPage() {
  return (
    <StaffLayout title={teamMessages.title} subtitle={teamMessages.subtitle} ownersOnly>
      <TeamPanel />
    </StaffLayout>
  );
}

function TeamPanel() {
  const { toast } = useToast();
  const [team, setTeam] = useState<Team | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [toDisable, setToDisable] = useState<Account | null>(null);
  const [toConfirm, setToConfirm] = useState<Pending | null>(null);
  const [failed, setFailed] = useState(false);
  const { start } = useLatestRequest();
  const panel = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // An action done ('Desativar' becomes 'Reativar'): focus goes to the account's first action.
  useFocusRescue(panel, { items: "tbody tr", target: ".row-actions button", fallback: () => heading.current });

  const load = useCallback(async () => {
    const controller = start();
    setFailed(false);
    try {
      setTeam(await fetchTeam(controller.signal));
    } catch (error) {
      if (controller.signal.aborted) return;
      if (!sessionEnded(error)) {
        toast(teamMessages.loadFailed);
        setFailed(true);
      }
    }
  }, [toast, start]);

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
      <LoadFailed text={teamMessages.loadFailed.description} onRetry={() => void load()} />
    ) : (
      <p className="list-status" role="status">
        {teamMessages.loading}
      </p>
    );
  }

  return (
    <section className="panel" aria-labelledby="team-title" ref={panel}>
      <div className="panel__head">
        <h2 id="team-title" ref={heading} tabIndex={-1}>
          Contas com acesso
        </h2>
        <p className="panel__note">{teamMessages.rolesNote}</p>
      </div>
      <div className="table-wrap">
        <table className="data-table team-table">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Papel</th>
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

function AccountRow(props: { account: Account; isYou: boolean; busy: boolean; onAct: (action: TeamAction) => void }) {
  const { account, isYou, busy, onAct } = props;
  const situation = account.disabled
    ? { label: teamMessages.disabled, tone: "failed" }
    : account.confirmed
      ? { label: teamMessages.confirmed, tone: "sent" }
      : { label: teamMessages.pending, tone: "pending" };
  const actions: TeamAction[] = [];
  if (account.disabled) actions.push("enable");
  else {
    if (account.live_sessions > 0) actions.push("end-sessions");
    if (account.confirmed) actions.push(account.role === "owner" ? "remove-owner" : "make-owner");
    if (!isYou) actions.push("disable");
  }
  return (
    <tr className={account.disabled ? "team-table__row--off" : undefined}>
      <td data-label="E-mail" className="team-table__email">
        <div>
          <EmailAddress email={account.email} />
          {isYou && <span className="team-table__note">({teamMessages.you})</span>}
          {account.alert_missed_at && (
            <span className="team-table__alert">{alertMissed(formatDate(account.alert_missed_at))}</span>
          )}
        </div>
      </td>
      <td data-label="Papel">
        <span className={account.role === "owner" ? "role role--owner" : "role"}>
          {account.role === "owner" ? teamMessages.owner : teamMessages.staff}
        </span>
      </td>
      <td data-label="Situação">
        <span className={`badge badge--${situation.tone}`}>{situation.label}</span>
      </td>
      <td data-label="Criada em">
        <time dateTime={account.created_at ?? undefined}>{formatDate(account.created_at)}</time>
      </td>
      <td data-label="Último acesso">
        {account.last_sign_in_at ? (
          <time dateTime={account.last_sign_in_at}>{formatDate(account.last_sign_in_at)}</time>
        ) : (
          <span className="team-table__note">{teamMessages.never}</span>
        )}
      </td>
      <td data-label="Sessões ativas">{formatCount(account.live_sessions)}</td>
      <td data-label="Ações">
        <div className="row-actions">
          {actions.map((action) => (
            <Button
              key={action}
              type="button"
              className={
                action === "disable" ? "button button--small button--danger" : "button button--small button--ghost"
              }
              inactive={busy}
              onClick={() => onAct(action)}
            >
              {actionLabels[action].button}
            </Button>
          ))}
        </div>
      </td>
    </tr>
  );
}
