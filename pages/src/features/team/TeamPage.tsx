import { NoticeDefault } from "../first-contact/NoticeDefault";
import { StaffLayout } from "../staff-shell/StaffLayout";
import { teamMessages } from "./messages";
import { TeamPanel } from "./TeamPanel";
import "./team.css";

/** /admin/equipe: every account and what an owner can do to it. Owners only. */
export default function TeamPage() {
  return (
    <StaffLayout title={teamMessages.title} subtitle={teamMessages.subtitle} ownersOnly>
      <NoticeDefault />
      <TeamPanel />
    </StaffLayout>
  );
}
