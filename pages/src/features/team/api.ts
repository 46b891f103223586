import { apiRequest } from "../../lib/api";
import type { Role } from "../../lib/vocabulary";

export type Account = {
  id: string;
  email: string;
  /** The mailbox the address reaches (`ana+x@` reaches `ana@`): one person's accounts share it. */
  mailbox: string;
  role: Role;
  confirmed: boolean;
  disabled: boolean;
  created_at: string | null;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  disabled_at: string | null;
  live_sessions: number;
  /** An owner let it in (or nobody needed to: STAFF_APPROVAL off); confirmed and not yet: 'Aguardando aprovação'. */
  approved: boolean;
  /** 'Exportar CSV', 'Excluir' and 'Marcar Enviado' a lead: always for owners, for a colleague what an owner left them. */
  can_export: boolean;
  can_delete: boolean;
  can_mark_sent: boolean;
  /** 'Importar investimento' in 'Campanhas': always for owners, for a colleague what an owner gave them. */
  can_import_spend: boolean;
  /** An incident alert the e-mail API refused to this address for a day, with none reaching it since. */
  alert_missed_at: string | null;
};

export type Team = { accounts: Account[]; you: string };

/** What an owner may give a colleague or take away (owners always may). */
export type Permission = "export" | "delete" | "mark-sent" | "import-spend";
export type PermissionAction = `${"allow" | "deny"}-${Permission}`;

/** What an owner can do to an account (the API's path segment). */
export type TeamAction =
  | "disable"
  | "enable"
  | "end-sessions"
  | "make-owner"
  | "remove-owner"
  | "approve"
  | "refuse"
  | PermissionAction;

export function fetchTeam(signal?: AbortSignal): Promise<Team> {
  return apiRequest<Team>("/api/staff", { staff: true, signal });
}

export async function actOn(account: Account, action: TeamAction): Promise<Account> {
  const answer = await apiRequest<{ account: Account }>(`/api/staff/${encodeURIComponent(account.id)}/${action}`, {
    method: "POST",
    body: {},
    staff: true,
  });
  return answer.account;
}
