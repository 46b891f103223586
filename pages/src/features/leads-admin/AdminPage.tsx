import { StaffLayout } from "../staff-shell/StaffLayout";
import { LeadsPanel } from "./LeadsPanel";
import "./admin.css";

/** /admin: the protected panel. Without a live session it sends the visitor to /auth. */
export default function AdminPage() {
  return (
    <StaffLayout
      title="Painel Administrativo"
      subtitle="Gerencie os leads do pré-lançamento e acompanhe o envio ao CRM Jetimob."
    >
      <LeadsPanel />
    </StaffLayout>
  );
}
