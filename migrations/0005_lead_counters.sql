-- Migration 0005: the panel's counters kept as the leads change, so a panel
-- load reads a handful of rows instead of counting every lead.
--
-- One row per delivery status ('pending', 'sent', 'failed') and one for the
-- leads marked 'Possível duplicado' (those with a row in lead_links), each
-- kept right by the triggers below whatever changes a lead: the lead
-- endpoint, the delivery engine, the panel's actions, a deletion.

CREATE TABLE IF NOT EXISTS lead_counters (
  name TEXT PRIMARY KEY CHECK (name IN ('pending', 'sent', 'failed', 'duplicates')),
  n    INTEGER NOT NULL
) WITHOUT ROWID;

INSERT OR REPLACE INTO lead_counters (name, n)
  SELECT s.name, (SELECT count(*) FROM leads WHERE delivery_status = s.name)
  FROM (SELECT 'pending' AS name UNION ALL SELECT 'sent' UNION ALL SELECT 'failed') AS s;
INSERT OR REPLACE INTO lead_counters (name, n)
  VALUES ('duplicates', (SELECT count(DISTINCT lead_id) FROM lead_links));

CREATE TRIGGER IF NOT EXISTS lead_counters_insert AFTER INSERT ON leads
BEGIN
  UPDATE lead_counters SET n = n + 1 WHERE name = NEW.delivery_status;
END;

CREATE TRIGGER IF NOT EXISTS lead_counters_delete AFTER DELETE ON leads
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = OLD.delivery_status;
END;

CREATE TRIGGER IF NOT EXISTS lead_counters_status AFTER UPDATE OF delivery_status ON leads
  WHEN OLD.delivery_status IS NOT NEW.delivery_status
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = OLD.delivery_status;
  UPDATE lead_counters SET n = n + 1 WHERE name = NEW.delivery_status;
END;

-- A lead counts once however many leads it is tied to.
CREATE TRIGGER IF NOT EXISTS lead_counters_link AFTER INSERT ON lead_links
  WHEN (SELECT count(*) FROM lead_links WHERE lead_id = NEW.lead_id) = 1
BEGIN
  UPDATE lead_counters SET n = n + 1 WHERE name = 'duplicates';
END;

CREATE TRIGGER IF NOT EXISTS lead_counters_unlink AFTER DELETE ON lead_links
  WHEN NOT EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.lead_id)
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = 'duplicates';
END;
