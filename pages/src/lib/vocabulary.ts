/** The API's names that every feature shares, one union per vocabulary; the worker's enums
 * (`auth::staff::Role`, `audit_log::Action`) answer exactly these (a worker test reads this file). */

/** A staff account's role: 'Responsável' or a colleague. */
export type Role = "owner" | "staff";

/** Every action the audit trail records ('Atividade', a lead's staff actions). */
export type AuditAction =
  | "sign_in"
  | "sign_in_failed"
  | "confirm"
  | "password_reset"
  | "password_change"
  | "disable"
  | "enable"
  | "end_sessions"
  | "make_owner"
  | "remove_owner"
  | "approve"
  | "refuse"
  | "permissions"
  | "export"
  | "bulk_read"
  | "mark_sent"
  | "unmark_sent"
  | "resend"
  | "accept_change"
  | "refuse_change"
  | "delete"
  | "contact"
  | "uncontact"
  | "correct_whatsapp"
  | "settings";
