import { CampaignsPanel } from "../../features/campaigns/CampaignsPanel";
import { campaignMessages } from "../../features/campaigns/messages";
import { FirstContactBlock } from "../../features/first-contact/FirstContactBlock";
import { StaffLayout } from "../../features/staff-shell/StaffLayout";
import "../../features/campaigns/campaigns.css";

/** /admin/campanhas: which campaign and which ad bring leads. Every member of the staff sees it. */
export default function CampaignsPage() {
  return (
    <StaffLayout title={campaignMessages.title} subtitle={campaignMessages.subtitle}>
      <CampaignsPanel belowReport={(range) => <FirstContactBlock range={range} />} />
    </StaffLayout>
  );
}
