import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { LoadFailed } from "../../components/LoadFailed";
import { useLoad } from "../../lib/useLoad";
import { ActivityFilters } from "./ActivityFilters";
import { ActivityRow } from "./ActivityRow";
import { type ActivityFilter, type ActivityPage, fetchActivity, type Person } from "./api";
import { activityMessages } from "./messages";
import { useActivityFilter } from "./useActivityFilter";

/** The pages seen so far under one filter: where each starts (null for the newest page). */
type Trail = { filter: ActivityFilter; starts: (string | null)[] };

/** The trail's filters, its table, with 'Mais recentes' and 'Mais antigas'. */
export function ActivityPanel() {
  const [filter, setFilter] = useActivityFilter();
  const [trail, setTrail] = useState<Trail>({ filter, starts: [null] });
  // A filter changed (a pick, Back): its newest page.
  if (trail.filter !== filter) setTrail({ filter, starts: [null] });
  // The page on screen, with the trail it was loaded for: a failed page turn leaves it there.
  const {
    data: shown,
    loading,
    failed,
    load,
    retry,
  } = useLoad<Trail, { page: ActivityPage; trail: Trail }>({
    fetch: async (to, signal) => ({
      page: await fetchActivity(to.filter, to.starts.at(-1) ?? null, signal),
      trail: to,
    }),
    failure: activityMessages.loadFailed,
    keep: true,
    // Back to the page still on screen, so its number and buttons stay true.
    onFailure: () => {
      if (onScreen.current) setTrail(onScreen.current.trail);
    },
  });
  const onScreen = useRef(shown);
  onScreen.current = shown;
  /** The people to filter by, as the last answer listed them. */
  const people = useRef<Person[]>([]);
  if (shown) people.current = shown.page.people;

  useEffect(() => {
    // Not the page already on screen (the trail put back after a failure).
    if (trail !== onScreen.current?.trail) void load(trail);
  }, [trail, load]);

  if (!shown) {
    return failed ? (
      <LoadFailed text={activityMessages.loadFailed.description} onRetry={retry} />
    ) : (
      <p className="list-status" role="status">
        {activityMessages.loading}
      </p>
    );
  }
  const { page } = shown;
  const filtered = Object.values(shown.trail.filter).some(Boolean);

  return (
    <section className="panel" aria-labelledby="activity-title">
      <div className="panel__head">
        <h2 id="activity-title">Registro de atividade</h2>
        <p className="panel__note">{activityMessages.leadNote}</p>
      </div>
      <ActivityFilters filter={filter} people={people.current} onChange={setFilter} />
      {page.entries.length === 0 ? (
        <p className="list-status">{filtered ? activityMessages.emptyFiltered : activityMessages.empty}</p>
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
                <ActivityRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {/* A page turns only from the page on screen: a second tap before the next one arrives
          finds the trail moved already, and does nothing. */}
      <nav className="pager" aria-label="Páginas da atividade">
        <p>
          Página {shown.trail.starts.length}
          {loading ? "…" : ""}
        </p>
        <div className="pager__buttons">
          <Button
            type="button"
            className="button button--ghost"
            inactive={shown.trail.starts.length <= 1}
            onClick={() => setTrail((t) => (t === shown.trail ? { ...t, starts: t.starts.slice(0, -1) } : t))}
          >
            {activityMessages.newer}
          </Button>
          <Button
            type="button"
            className="button button--ghost"
            inactive={page.next_before === null}
            onClick={() => setTrail((t) => (t === shown.trail ? { ...t, starts: [...t.starts, page.next_before] } : t))}
          >
            {activityMessages.older}
          </Button>
        </div>
      </nav>
    </section>
  );
}
