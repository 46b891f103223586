-- Migration 0026: the visitor's answers reach Jetimob.
--
-- The optional questions after 'Sucesso!' (0022) are kept on the lead; now
-- they are also delivered to Jetimob, as an update of the lead it has, by
-- the same mechanism as Meta's events: a row of `deliveries` for the
-- destination 'jetimob_answers', made due whenever an answer changes (its
-- `event_at` is when), sent once Jetimob has the lead, retried with backoff
-- for a week, never twice. SQLite cannot change a CHECK in place, so the
-- table is made again with the new destination, its rows, index and
-- triggers as they were; the lead trigger that reads it is set aside meanwhile.

DROP TRIGGER campaign_daily_delete;

CREATE TABLE deliveries_rebuilt (
  lead_id         TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  destination     TEXT NOT NULL CHECK (destination IN ('meta', 'jetimob_answers')),
  status          TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'sent', 'failed', 'expired')),
  event_at        INTEGER NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_attempt_at INTEGER,
  last_error      TEXT,
  sent_at         INTEGER,
  PRIMARY KEY (lead_id, destination)
) WITHOUT ROWID;
INSERT INTO deliveries_rebuilt (lead_id, destination, status, event_at, attempts, next_attempt_at,
    lease_until, last_attempt_at, last_error, sent_at)
  SELECT lead_id, destination, status, event_at, attempts, next_attempt_at, lease_until,
    last_attempt_at, last_error, sent_at
  FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_rebuilt RENAME TO deliveries;
CREATE INDEX deliveries_due ON deliveries (destination, next_attempt_at) WHERE status = 'pending';

CREATE TRIGGER campaign_daily_meta_sent AFTER UPDATE OF status ON deliveries
  WHEN NEW.destination = 'meta' AND (OLD.status = 'sent') IS NOT (NEW.status = 'sent')
BEGIN
  UPDATE campaign_daily SET meta_sent = meta_sent + (NEW.status = 'sent') - (OLD.status = 'sent')
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = NEW.lead_id);
END;

CREATE TRIGGER campaign_daily_meta_restored AFTER INSERT ON deliveries
  WHEN NEW.destination = 'meta' AND NEW.status = 'sent'
BEGIN
  UPDATE campaign_daily SET meta_sent = meta_sent + 1
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = NEW.lead_id);
END;

CREATE TRIGGER campaign_daily_delete BEFORE DELETE ON leads BEGIN
  UPDATE campaign_daily SET leads = leads - 1, delivered = delivered - OLD.jetimob_enviado,
      duplicates = duplicates - EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.id),
      meta_sent = meta_sent - EXISTS (SELECT 1 FROM deliveries
        WHERE lead_id = OLD.id AND destination = 'meta' AND status = 'sent')
    WHERE day = date(OLD.created_at / 1000 - 10800, 'unixepoch') AND source = OLD.source
      AND campaign = coalesce(OLD.utm_campaign, '') AND content = coalesce(OLD.utm_content, '');
END;

-- Answers given in the last week, before this: due now (Jetimob's week of
-- retries counts from each answer, as for those to come).
INSERT INTO deliveries (lead_id, destination, event_at, next_attempt_at)
  SELECT id, 'jetimob_answers', answers_at, answers_at FROM leads
  WHERE answers_at IS NOT NULL
    AND answers_at >= (CAST(strftime('%s', 'now') AS INTEGER) - 7 * 86400) * 1000;
