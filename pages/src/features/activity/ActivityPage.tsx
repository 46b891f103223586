import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { EmailAddress } from "../../components/EmailAddress";
import { useToast } from "../../components/toast";
import { sessionEnded } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { StaffLayout } from "../staff-shell/StaffLayout";
import { type Entry, fetchActivity, type ActivityPage as Page } from "./api";
import { actionNames, activityMessages } from "./messages";
import "./activity.css";
import { LoadFailed } from "../../components/LoadFailed";
import { useLatestRequest } from "../../lib/useLatestRequest";

/** /admin/atividade: the audit trail, newest first, a page at a time. Owners only. */
export default function ActivityPage() {
  return (
    <StaffLayout title={activityMessages.title} subtitle={activityMessages.subtitle} ownersOnly>
      <ActivityPanel />
    </StaffLayout>
  );
}

function ActivityPanel() {
  const { toast } = useToast();
  // The pages seen so far: where each starts (null for the newest page).
  const [trail, setTrail] = useState<(number | null)[]>([null]);
  /** The page on screen, with the trail it was loaded for. */
  const [shown, setShown] = useState<{ page: Page; trail: (number | null)[] } | null>(null);
  const onScreen = useRef(shown);
  onScreen.current = shown;
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const { start, isLatest } = useLatestRequest();

  const load = useCallback(
    async (to: (number | null)[]) => {
      const controller = start();
      setLoading(true);
      setFailed(false);
      try {
        setShown({ page: await fetchActivity(to.at(-1) ?? null, controller.signal), trail: to });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (!sessionEnded(error)) {
          toast(activityMessages.loadFailed);
          setFailed(true);
        }
        // Back to the page still on screen, so its number and buttons stay true.
        if (onScreen.current) setTrail(onScreen.current.trail);
      } finally {
        if (isLatest(controller)) setLoading(false);
      }
    },
    [toast, start, isLatest],
  );

  useEffect(() => {
    // Not the page already on screen (the trail put back after a failure).
    if (trail !== onScreen.current?.trail) void load(trail);
  }, [trail, load]);

  if (!shown) {
    return failed && !loading ? (
      <LoadFailed text={activityMessages.loadFailed.description} onRetry={() => void load(trail)} />
    ) : (
      <p className="list-status" role="status">
        {activityMessages.loading}
      </p>
    );
  }
  const { page } = shown;

  return (
    <section className="panel" aria-labelledby="activity-title">
      <div className="panel__head">
        <h2 id="activity-title">Registro de atividade</h2>
        <p className="panel__note">{activityMessages.leadNote}</p>
      </div>
      {page.entries.length === 0 ? (
        <p className="list-status">{activityMessages.empty}</p>
      ) : (
        <div className="table-wrap" aria-busy={loading}>
          <table className="data-table activity-table">
            <thead>
              <tr>
                <th scope="col">Quando</th>
                <th scope="col">Quem</th>
                <th scope="col">O quê</th>
                <th scope="col">Sobre</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* A page turns only from the page on screen: a second tap before the next one arrives
          finds the trail moved already, and does nothing. */}
      <nav className="pager" aria-label="Páginas da atividade">
        <p>
          Página {trail.length}
          {loading ? "…" : ""}
        </p>
        <div className="pager__buttons">
          <Button
            type="button"
            className="button button--ghost"
            inactive={trail.length <= 1}
            onClick={() => setTrail((t) => (t === shown.trail ? t.slice(0, -1) : t))}
          >
            {activityMessages.newer}
          </Button>
          <Button
            type="button"
            className="button button--ghost"
            inactive={page.next_before === null}
            onClick={() => setTrail((t) => (t === shown.trail ? [...t, page.next_before] : t))}
          >
            {activityMessages.older}
          </Button>
        </div>
      </nav>
    </section>
  );
}

function EntryRow({ entry }: { entry: Entry }) {
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
