-- Migration 0004: nobody misses a lead.
--
-- New-lead notices by e-mail (owners by default, each person chooses), alerts
-- to the owners when leads stop reaching Jetimob, and the same events for an
-- optional webhook.

-- 'Receber aviso de novos leads'; the submissions already told this person
-- about (an id of lead_submissions); a claim that keeps two cron runs from
-- writing to the same person at once.
ALTER TABLE staff_users ADD COLUMN lead_notices INTEGER NOT NULL DEFAULT 0 CHECK (lead_notices IN (0, 1));
ALTER TABLE staff_users ADD COLUMN notices_sent_through INTEGER;
ALTER TABLE staff_users ADD COLUMN notices_lease_until INTEGER;
-- Owners have them on, from the leads after this upgrade.
UPDATE staff_users SET lead_notices = 1,
  notices_sent_through = (SELECT coalesce(max(id), 0) FROM lead_submissions)
  WHERE role = 'owner';

-- What a submission was: a new lead, a repeat with nothing new, a correction
-- of the lead's details, or one whose e-mail and WhatsApp are two leads'.
ALTER TABLE lead_submissions ADD COLUMN kind TEXT NOT NULL DEFAULT 'new'
  CHECK (kind IN ('new', 'repeat', 'correction', 'conflict'));
-- The earlier releases kept only a lead's first submission: each is 'new'.
CREATE INDEX IF NOT EXISTS lead_submissions_news ON lead_submissions (id)
  WHERE kind IN ('new', 'correction');

-- Delivery trouble: at most one open at a time. `reasons`: a comma-separated
-- list of 'keys_refused', 'backlog', 'off'. Each alert is claimed (its
-- column set) before it is sent, so overlapping cron runs send it once.
CREATE TABLE IF NOT EXISTS delivery_incidents (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at         INTEGER NOT NULL,
  reasons            TEXT NOT NULL,
  waiting            INTEGER NOT NULL DEFAULT 0,
  alerted_at         INTEGER,
  resolved_at        INTEGER,
  recovery_alerted_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS delivery_incidents_open ON delivery_incidents ((resolved_at IS NULL))
  WHERE resolved_at IS NULL;

-- Events for the optional webhook (ALERT_WEBHOOK_URL), delivered like leads:
-- claimed with a lease, retried with backoff, then left failed. A lead event
-- names its submission; an incident event carries its own JSON.
CREATE TABLE IF NOT EXISTS webhook_events (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  event           TEXT NOT NULL CHECK (event IN ('lead.created', 'lead.updated', 'delivery.incident', 'delivery.recovered')),
  submission_id   INTEGER UNIQUE REFERENCES lead_submissions (id) ON DELETE CASCADE,
  payload         TEXT,
  created_at      INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_error      TEXT
);
CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending';

-- Small bits of state the cron keeps: the last submission turned into webhook events.
CREATE TABLE IF NOT EXISTS cron_state (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
