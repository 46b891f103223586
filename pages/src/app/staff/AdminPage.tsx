import { LeadsPanel } from "../../features/leads-admin/LeadsPanel";
import { StaffLayout } from "../../features/staff-shell/StaffLayout";
import "../../features/leads-admin/admin.css";

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
