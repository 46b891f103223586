-- Migration 0002: staff access that holds for months.
--
-- Owners ('Responsável') and staff, accounts an owner can switch off, the
-- last sign-in; a confirmation link that carries the password of the sign-up
-- that sent it; one-time password-reset links; sessions with an absolute end;
-- an audit trail of sign-ins, account changes and exports as well as lead actions.

-- Who may manage the team: 'owner' or 'staff'. The earliest confirmed
-- account of an existing database becomes the owner.
ALTER TABLE staff_users ADD COLUMN role TEXT NOT NULL DEFAULT 'staff' CHECK (role IN ('owner', 'staff'));
-- Set by an owner's 'Desativar': no sign-in, no session, no reset, no sign-up.
ALTER TABLE staff_users ADD COLUMN disabled_at INTEGER;
ALTER TABLE staff_users ADD COLUMN last_sign_in_at INTEGER;

UPDATE staff_users SET role = 'owner'
WHERE id = (SELECT id FROM staff_users WHERE confirmed_at IS NOT NULL ORDER BY confirmed_at, created_at, id LIMIT 1);

-- The password chosen in the sign-up that sent this link; whoever opens the
-- link must type it to confirm. NULL on links of the previous release, whose
-- sign-up password is the account's own.
ALTER TABLE email_confirmations ADD COLUMN password_hash TEXT;

-- One-time links to choose a new password; only the token's hash is kept.
CREATE TABLE IF NOT EXISTS password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX IF NOT EXISTS password_resets_user ON password_resets (user_id);

-- A session now ends 30 days after its sign-in, however often it is used.
UPDATE staff_sessions SET expires_at = min(expires_at, created_at + 2592000000);
-- The team page counts each account's live sessions.
CREATE INDEX IF NOT EXISTS staff_sessions_live ON staff_sessions (user_id, expires_at) WHERE revoked_at IS NULL;

-- The audit trail covers staff accounts too: the actor may be unknown (a
-- failed sign-in for an address with no account), the subject may be an
-- account instead of a lead. SQLite cannot change a CHECK in place, so the
-- table is rebuilt with every row and id kept.
CREATE TABLE audit_log_new (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  staff_id    TEXT,
  staff_email TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN (
                'mark_sent', 'delete', 'resend', 'export',
                'sign_in', 'sign_in_failed', 'confirm', 'password_reset', 'password_change',
                'disable', 'enable', 'end_sessions', 'make_owner', 'remove_owner')),
  lead_id     TEXT,
  account_id  TEXT
);
INSERT INTO audit_log_new (id, at, staff_id, staff_email, action, lead_id)
  SELECT id, at, staff_id, staff_email, action, lead_id FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_new RENAME TO audit_log;
CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at DESC);
