import { Button } from "../../components/Button";
import { EmailAddress } from "../../components/EmailAddress";
import { formatCount, formatDate } from "../../lib/format";
import { actionsFor, situationOf } from "./accounts";
import type { Account, TeamAction } from "./api";
import { actionLabels, alertMissed, teamMessages } from "./messages";
import { PermissionSwitch } from "./PermissionSwitch";

type Props = { account: Account; isYou: boolean; busy: boolean; onAct: (action: TeamAction) => void };

/** One account of 'Equipe': a table row on a wide screen, a card on a phone. */
export function AccountRow({ account, isYou, busy, onAct }: Props) {
  const situation = situationOf(account);
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
      {/* What a colleague may do sits under the role: a column of its own would push 'Ações' out of sight. */}
      <td data-label={teamMessages.roleColumn} className="team-table__role">
        <span className={account.role === "owner" ? "role role--owner" : "role"}>
          {account.role === "owner" ? teamMessages.owner : teamMessages.staff}
        </span>
        {account.role === "owner" ? (
          <span className="team-table__note">{teamMessages.allPermissions}</span>
        ) : (
          <div className="team-table__switches">
            <PermissionSwitch account={account} permission="export" busy={busy} onFlip={onAct} />
            <PermissionSwitch account={account} permission="delete" busy={busy} onFlip={onAct} />
            <PermissionSwitch account={account} permission="mark-sent" busy={busy} onFlip={onAct} />
            <PermissionSwitch account={account} permission="import-spend" busy={busy} onFlip={onAct} />
          </div>
        )}
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
          {actionsFor(account, isYou).map((action) => (
            <Button
              key={action}
              type="button"
              className={`button button--small ${BUTTON_LOOK[action] ?? "button--ghost"}`}
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

/** 'Aprovar' is what a waiting account most likely needs; what switches an account off is red. */
const BUTTON_LOOK: Partial<Record<TeamAction, string>> = {
  approve: "button--primary",
  refuse: "button--danger",
  disable: "button--danger",
};
