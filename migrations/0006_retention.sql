-- Migration 0006: indexes for the cron's clean-up (worker/src/retention.rs),
-- which each minute removes sessions, confirmation links and reset links a
-- month after they stopped working. With these, a run that finds nothing to
-- remove reads next to nothing instead of every row of each table.

CREATE INDEX IF NOT EXISTS staff_sessions_expiry ON staff_sessions (expires_at);
CREATE INDEX IF NOT EXISTS email_confirmations_expiry ON email_confirmations (expires_at);
CREATE INDEX IF NOT EXISTS password_resets_expiry ON password_resets (expires_at);
