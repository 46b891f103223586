import { StaffLayout } from "../staff-shell/StaffLayout";
import { ActivityPanel } from "./ActivityPanel";
import { activityMessages } from "./messages";
import "./activity.css";

/** /admin/atividade: the audit trail, newest first, a page at a time. Owners only. */
export default function ActivityPage() {
  return (
    <StaffLayout title={activityMessages.title} subtitle={activityMessages.subtitle} ownersOnly>
      <ActivityPanel />
    </StaffLayout>
  );
}
