import { NoticeDefault } from "../../features/first-contact/NoticeDefault";
import { StaffLayout } from "../../features/staff-shell/StaffLayout";
import { teamMessages } from "../../features/team/messages";
import { TeamPanel } from "../../features/team/TeamPanel";
import "../../features/team/team.css";

/** /admin/equipe: every account and what an owner can do to it. Owners only. */
export default function TeamPage() {
  return (
    <StaffLayout title={teamMessages.title} subtitle={teamMessages.subtitle} ownersOnly>
      <NoticeDefault />
      <TeamPanel />
    </StaffLayout>
  );
}
