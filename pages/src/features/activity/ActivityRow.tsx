import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import type { Entry } from "./api";
import { actionNames } from "./messages";

/** One entry of the trail: when, who, what, and the lead or account it is about. */
export function ActivityRow({ entry }: { entry: Entry }) {
  const failed = entry.action === "sign_in_failed";
  const subject = subjectOf(entry);
  return (
    <tr className={failed ? "activity-table__row--failed" : undefined}>
      <td data-label="Quando">
        <time dateTime={entry.at ?? undefined}>{formatDate(entry.at)}</time>
      </td>
      <td data-label="Quem" className="activity-table__who">
        <div>
          <EmailAddress email={entry.actor_email} />
        </div>
      </td>
      <td data-label="O quê" className="activity-table__what">
        {actionNames[entry.action] ?? entry.action}
      </td>
      <td
        data-label="Sobre"
        className={subject ? "activity-table__subject" : "activity-table__subject activity-table__subject--none"}
      >
        {subject ?? <span className="activity-table__none">—</span>}
      </td>
    </tr>
  );
}

/** The lead (its id only) or the account an entry is about, if it is about another one. */
function subjectOf(entry: Entry) {
  if (entry.lead_id) {
    return (
      <span>
        Lead <code>{entry.lead_id}</code>
      </span>
    );
  }
  if (entry.account_id && entry.account_email && entry.account_email !== entry.actor_email) {
    return <EmailAddress email={entry.account_email} />;
  }
  if (entry.account_id && !entry.account_email) {
    return (
      <span>
        Conta <code>{entry.account_id}</code>
      </span>
    );
  }
  return null;
}
