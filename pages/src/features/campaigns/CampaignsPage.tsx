import { StaffLayout } from "../staff-shell/StaffLayout";
import { CampaignsPanel } from "./CampaignsPanel";
import { campaignMessages } from "./messages";
import "./campaigns.css";

/** /admin/campanhas: which campaign and which ad bring leads. Every member of the staff sees it. */
export default function CampaignsPage() {
  return (
    <StaffLayout title={campaignMessages.title} subtitle={campaignMessages.subtitle}>
      <CampaignsPanel />
    </StaffLayout>
  );
}
