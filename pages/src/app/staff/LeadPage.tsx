import { LeadStoryPanel } from "../../features/leads-admin/LeadStoryPanel";
import { storyMessages } from "../../features/leads-admin/messages";
import { StaffLayout } from "../../features/staff-shell/StaffLayout";
import "../../features/leads-admin/admin.css";
import "../../features/leads-admin/lead-page.css";

/** /admin/leads/{id}: one lead's whole story. */
export default function LeadPage() {
  return (
    <StaffLayout title={storyMessages.title} subtitle={storyMessages.subtitle}>
      <LeadStoryPanel />
    </StaffLayout>
  );
}
