import { EmailAddress } from "../../components/EmailAddress";
import { formatDate } from "../../lib/format";
import { Link } from "../../lib/Link";
import { leadPath } from "../../lib/leadLinks";
import type { Entry } from "./api";
import { describeFilter } from "./format";
import { actionNames, activityMessages, bulkRead, exportOutcome, permissionChange, settingChange } from "./messages";

/** One entry of the trail: when, who, what (with what it kept), and the lead or account it is about. */
export function ActivityRow({ entry }: { entry: Entry }) {
  const failed = entry.action === "sign_in_failed";
  const warn = failed || entry.action === "bulk_read" || isCut(entry);
  const subject = subjectOf(entry);
  const details = detailsOf(entry);
  return (
    <tr className={warn ? "activity-table__row--failed" : undefined}>
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
        {details.map((line) => (
          <span key={line} className="activity-table__detail">
            {line}
          </span>
        ))}
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

/** An export that stopped before its end. */
function isCut(entry: Entry): boolean {
  const state = entry.detail?.state;
  return entry.action === "export" && state !== undefined && state !== "complete" && state !== "running";
}

/** What the entry kept besides who, what and when, a line each. */
function detailsOf(entry: Entry): string[] {
  const detail = entry.detail;
  if (!detail) return [];
  const lines: (string | null)[] = [];
  if (entry.action === "export") {
    lines.push(`Filtro: ${describeFilter(detail.filter)}`, exportOutcome(detail.rows, detail.state));
  } else if (entry.action === "permissions") {
    lines.push(permissionChange(detail.right, detail.allowed));
  } else if (entry.action === "bulk_read") {
    lines.push(bulkRead(detail.read, detail.worked));
  } else if (entry.action === "settings") {
    lines.push(settingChange(detail.name, detail.value));
  }
  return lines.filter((l): l is string => l !== null);
}

/** The lead (its name now, a link to its page; or that it is gone) or the account an entry is about. */
function subjectOf(entry: Entry) {
  if (entry.lead_id) {
    return entry.lead_name !== null ? (
      <Link to={leadPath(entry.lead_id)}>{entry.lead_name}</Link>
    ) : (
      <span className="activity-table__none">{activityMessages.leadGone}</span>
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
