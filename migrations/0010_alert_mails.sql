-- Migration 0010: each owner's copy of an incident's e-mails is sent, and
-- retried, on its own; and the cron's two looks at the incidents read an
-- index, not every incident ever opened.
--
-- An incident's alert (and its recovery, and the alert of a cause that
-- joined it) went to every owner in one go. An owner the e-mail API refused
-- that minute (a 5xx, a mailbox over its quota) never got it, because
-- sending it again to everyone each minute would have flooded the others.
-- Each copy is now a row, written when the e-mail is claimed: sent at once,
-- retried with backoff for a day if refused, then left failed. A copy for
-- someone who is no longer an owner is not sent; nor is an alert whose
-- incident ended before it went, nor then that incident's recovery to them.
CREATE TABLE alert_mails (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  incident_id     INTEGER NOT NULL REFERENCES delivery_incidents (id) ON DELETE CASCADE,
  -- Which of the incident's e-mails: 'alert', 'joined:<its causes>', 'recovery'.
  kind            TEXT NOT NULL,
  email           TEXT NOT NULL,
  subject         TEXT NOT NULL,
  text            TEXT NOT NULL,
  html            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_error      TEXT,
  sent_at         INTEGER,
  UNIQUE (incident_id, kind, email)
);
-- Every cron run asks for the copies due: only the pending ones are read.
CREATE INDEX alert_mails_due ON alert_mails (next_attempt_at) WHERE status = 'pending';

-- An alert is claimed only if none went in the last hour: that look reads
-- the incidents alerted in that hour, not every incident ever opened.
CREATE INDEX delivery_incidents_alerted ON delivery_incidents (alerted_at)
  WHERE alerted_at IS NOT NULL;

-- Every cron run asks for a recovery e-mail to claim. Without this it read
-- every incident ever opened (one row each) each minute; now only those
-- whose recovery is due.
CREATE INDEX delivery_incidents_recovery_due ON delivery_incidents (id)
  WHERE resolved_at IS NOT NULL AND alerted_at IS NOT NULL AND recovery_alerted_at IS NULL;
