-- Migration 0025: the ads learn from every lead, from the server.
--
-- 1. The visitor's answer to the ads' consent box (ADS_CONSENT=checkbox):
--    1 ticked, 0 not; NULL where no box was asked (or before this).
-- 2. `deliveries`: a lead's delivery to each destination besides Jetimob
--    (whose own stays in the lead's columns): the Meta Conversions API
--    first. A row is made with the lead, in its batch, for each destination
--    it is for; no row is 'não se aplica'. Its life is Jetimob's: claimed
--    with a lease before each attempt, retried with backoff, 'sent',
--    'failed' (refused for itself), or 'expired' (its window over: Meta
--    takes no event older than 7 days). Deleted with its lead: what waits
--    is cancelled.
-- 3. The campaign report counts the leads that reached Meta per day and
--    campaign (`campaign_daily.meta_sent`), kept by triggers as its other
--    counts are.
-- 4. Google Ads' conversions file reads the leads of the last 90 days with
--    a Google click: an index of those only.

ALTER TABLE leads ADD COLUMN ads_consent INTEGER CHECK (ads_consent IS NULL OR ads_consent IN (0, 1));

CREATE TABLE deliveries (
  lead_id         TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  destination     TEXT NOT NULL CHECK (destination IN ('meta')),
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
-- The cron's claim: what is due to a destination, oldest due first.
CREATE INDEX deliveries_due ON deliveries (destination, next_attempt_at) WHERE status = 'pending';

ALTER TABLE campaign_daily ADD COLUMN meta_sent INTEGER NOT NULL DEFAULT 0;

-- A delivery to Meta that becomes sent (or, 'Reenviar' after a mistake, stops
-- being) moves its lead's day and campaign.
CREATE TRIGGER campaign_daily_meta_sent AFTER UPDATE OF status ON deliveries
  WHEN NEW.destination = 'meta' AND (OLD.status = 'sent') IS NOT (NEW.status = 'sent')
BEGIN
  UPDATE campaign_daily SET meta_sent = meta_sent + (NEW.status = 'sent') - (OLD.status = 'sent')
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = NEW.lead_id);
END;

-- One written as sent (a backup restored) counts too.
CREATE TRIGGER campaign_daily_meta_restored AFTER INSERT ON deliveries
  WHEN NEW.destination = 'meta' AND NEW.status = 'sent'
BEGIN
  UPDATE campaign_daily SET meta_sent = meta_sent + 1
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = NEW.lead_id);
END;

-- A lead deleted takes its count with it, Meta's too (before its deliveries go with it).
DROP TRIGGER campaign_daily_delete;
CREATE TRIGGER campaign_daily_delete BEFORE DELETE ON leads BEGIN
  UPDATE campaign_daily SET leads = leads - 1, delivered = delivered - OLD.jetimob_enviado,
      duplicates = duplicates - EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.id),
      meta_sent = meta_sent - EXISTS (SELECT 1 FROM deliveries
        WHERE lead_id = OLD.id AND destination = 'meta' AND status = 'sent')
    WHERE day = date(OLD.created_at / 1000 - 10800, 'unixepoch') AND source = OLD.source
      AND campaign = coalesce(OLD.utm_campaign, '') AND content = coalesce(OLD.utm_content, '');
END;

CREATE INDEX leads_google_clicks ON leads (created_at)
  WHERE gclid IS NOT NULL OR gbraid IS NOT NULL OR wbraid IS NOT NULL;

-- The report's sums by week (0024) carry the leads that reached Meta too:
-- none has yet, so the column starts at 0 and the triggers that keep the
-- weeks with the days move it from now on.
ALTER TABLE campaign_weekly ADD COLUMN meta_sent INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER campaign_weekly_insert;
CREATE TRIGGER campaign_weekly_insert AFTER INSERT ON campaign_daily BEGIN
  INSERT INTO campaign_weekly (week, source, campaign, content, visits, leads, delivered, duplicates,
    meta_sent)
  VALUES (date(NEW.day, '-6 days', 'weekday 1'), NEW.source, NEW.campaign, NEW.content, NEW.visits,
    NEW.leads, NEW.delivered, NEW.duplicates, NEW.meta_sent)
  ON CONFLICT (week, source, campaign, content) DO UPDATE SET visits = visits + excluded.visits,
    leads = leads + excluded.leads, delivered = delivered + excluded.delivered,
    duplicates = duplicates + excluded.duplicates, meta_sent = meta_sent + excluded.meta_sent;
  INSERT INTO source_daily (day, source, visits, leads) VALUES (NEW.day, NEW.source, NEW.visits, NEW.leads)
  ON CONFLICT (day, source) DO UPDATE SET visits = visits + excluded.visits, leads = leads + excluded.leads;
END;

DROP TRIGGER campaign_weekly_update;
CREATE TRIGGER campaign_weekly_update AFTER UPDATE ON campaign_daily BEGIN
  UPDATE campaign_weekly SET visits = visits + NEW.visits - OLD.visits, leads = leads + NEW.leads - OLD.leads,
      delivered = delivered + NEW.delivered - OLD.delivered,
      duplicates = duplicates + NEW.duplicates - OLD.duplicates,
      meta_sent = meta_sent + NEW.meta_sent - OLD.meta_sent
    WHERE week = date(NEW.day, '-6 days', 'weekday 1') AND source = NEW.source
      AND campaign = NEW.campaign AND content = NEW.content;
  UPDATE source_daily SET visits = visits + NEW.visits - OLD.visits, leads = leads + NEW.leads - OLD.leads
    WHERE day = NEW.day AND source = NEW.source;
END;

DROP TRIGGER campaign_weekly_delete;
CREATE TRIGGER campaign_weekly_delete AFTER DELETE ON campaign_daily BEGIN
  UPDATE campaign_weekly SET visits = visits - OLD.visits, leads = leads - OLD.leads,
      delivered = delivered - OLD.delivered, duplicates = duplicates - OLD.duplicates,
      meta_sent = meta_sent - OLD.meta_sent
    WHERE week = date(OLD.day, '-6 days', 'weekday 1') AND source = OLD.source
      AND campaign = OLD.campaign AND content = OLD.content;
  UPDATE source_daily SET visits = visits - OLD.visits, leads = leads - OLD.leads
    WHERE day = OLD.day AND source = OLD.source;
END;
