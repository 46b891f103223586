import { ActivityPanel } from "../../features/activity/ActivityPanel";
import { activityMessages } from "../../features/activity/messages";
import { StaffLayout } from "../../features/staff-shell/StaffLayout";
import "../../features/activity/activity.css";

/** /admin/atividade: the audit trail, newest first, a page at a time. Owners only. */
export default function ActivityPage() {
  return (
    <StaffLayout title={activityMessages.title} subtitle={activityMessages.subtitle} ownersOnly>
      <ActivityPanel />
    </StaffLayout>
  );
}
