import { useEffect } from "react";
import { LoadFailed } from "../../components/LoadFailed";
import { routeParam } from "../../lib/routeMatch";
import { useRouter } from "../../lib/router";
import { useLoad } from "../../lib/useLoad";
import { fetchLeadStory, type LeadStory } from "./api";
import { BackToList } from "./BackToList";
import { LeadActionDialogs } from "./LeadActionDialogs";
import { LeadAnswers } from "./LeadAnswers";
import { LeadAttempts } from "./LeadAttempts";
import { LeadCard } from "./LeadCard";
import { LeadDeliveries } from "./LeadDeliveries";
import { LeadStaffActions } from "./LeadStaffActions";
import { LeadSubmissions } from "./LeadSubmissions";
import { storyMessages } from "./messages";
import { PendingChanges } from "./PendingChanges";
import { RefusedHelp } from "./RefusedHelp";
import { useLeadActions } from "./useLeadActions";
import { lastListAddress } from "./useListParams";

/** One lead's whole story (/admin/leads/{id}): the lead, its deliveries, submissions, attempts and what staff did. */
export function LeadStoryPanel() {
  const { path, navigate } = useRouter();
  const id = routeParam("/admin/leads/:id", path) ?? "";
  // A lead gone (404) says so, even found by a reload after an action.
  const {
    data: story,
    loading,
    failed,
    refusal,
    load,
    retry,
    reload,
  } = useLoad<string, LeadStory>({
    fetch: (lead, signal) => fetchLeadStory(lead, signal),
    failure: storyMessages.loadFailed,
    refusals: [404],
  });

  useEffect(() => {
    void load(id);
  }, [id, load]);

  // A deleted lead's page has nothing left to show: back to the list it came from.
  const actions = useLeadActions({ reload, deleted: () => navigate(lastListAddress()) });

  if (refusal) {
    return (
      <section className="panel">
        <p className="list-status">{storyMessages.missing}</p>
        <BackToList />
      </section>
    );
  }
  if (failed) {
    return (
      <section className="panel">
        <LoadFailed text={storyMessages.loadFailed.description} onRetry={retry} />
        <BackToList />
      </section>
    );
  }
  // Another lead's page (a possible duplicate's link) shows none of the last one's while it loads.
  if (!story || loading) {
    return (
      <p className="list-status" role="status">
        {storyMessages.loading}
      </p>
    );
  }

  return (
    <div className="lead-page">
      <BackToList />
      <LeadCard story={story} actions={actions} />
      <RefusedHelp lead={story.lead} crmConfigured={story.crm_configured} corrected={() => void reload()} />
      <PendingChanges lead={story.lead} changes={story.waiting_changes} decided={() => void reload()} />
      <LeadAnswers lead={story.lead} delivery={story.deliveries.find((d) => d.destination === "jetimob_answers")} />
      <LeadSubmissions story={story} />
      <LeadAttempts story={story} />
      <LeadDeliveries story={story} changed={() => void reload()} />
      <LeadStaffActions story={story} />
      <LeadActionDialogs actions={actions} />
    </div>
  );
}
