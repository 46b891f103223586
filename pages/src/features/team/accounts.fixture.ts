import type { Account } from "./api";

/** An account as `GET /api/staff` answers it, for tests: a confirmed, approved colleague unless `extra` says otherwise. */
export function testAccount(id: string, email: string, extra: Partial<Account> = {}): Account {
  return {
    id,
    email,
    mailbox: email.replace(/\+[^@]*@/, "@"),
    role: "staff",
    confirmed: true,
    disabled: false,
    created_at: null,
    confirmed_at: null,
    last_sign_in_at: null,
    disabled_at: null,
    live_sessions: 0,
    alert_missed_at: null,
    approved: true,
    can_export: true,
    can_delete: true,
    can_mark_sent: true,
    can_import_spend: false,
    ...extra,
  };
}
