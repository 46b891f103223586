-- Migration 0009: the webhook hears what the e-mails cannot say.
--
-- An incident's webhook event used to be recorded only once its alert e-mail
-- had gone: with the e-mail API refusing, the webhook was silent too, just
-- when it was the one way left to tell the team. The event is now recorded
-- when the alert is claimed, whatever becomes of the e-mail, and `once_key`
-- (unique) keeps it to one event per incident while the e-mail is retried.
-- The e-mail API refusing becomes an event of its own: 'mail.failing', then
-- 'mail.recovered'.
--
-- SQLite cannot change a CHECK in place, so webhook_events is made again:
-- every row kept, with its id, state and retries.
CREATE TABLE webhook_events_0009 (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  event           TEXT NOT NULL CHECK (event IN ('lead.created', 'lead.updated', 'delivery.incident',
                                                 'delivery.recovered', 'mail.failing', 'mail.recovered')),
  submission_id   INTEGER UNIQUE REFERENCES lead_submissions (id) ON DELETE CASCADE,
  payload         TEXT,
  created_at      INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_error      TEXT,
  once_key        TEXT UNIQUE
);
INSERT INTO webhook_events_0009 (id, event, submission_id, payload, created_at, status, attempts,
                                 next_attempt_at, lease_until, last_error)
  SELECT id, event, submission_id, payload, created_at, status, attempts,
         next_attempt_at, lease_until, last_error
  FROM webhook_events;
DROP TABLE webhook_events;
ALTER TABLE webhook_events_0009 RENAME TO webhook_events;
CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending';

-- What the owners' alert named (the incident's reasons when it was claimed),
-- so the recovery speaks of the same trouble though the reasons changed since.
-- An incident alerted before this migration gets its reasons as they are now,
-- the closest record of what its alert said.
ALTER TABLE delivery_incidents ADD COLUMN alerted_reasons TEXT;
UPDATE delivery_incidents SET alerted_reasons = reasons WHERE alerted_at IS NOT NULL;
