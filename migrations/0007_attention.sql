-- Migration 0007: 'Precisam de atenção' counts, and 'Falharam' lists, every
-- lead that waits for a person: one the CRM never took in a week of retries
-- (delivery_status 'failed'), and one the CRM has whose correction it refused
-- for a week (update_status 'failed'), which until now only its row showed.
--
-- A fifth counter, 'attention', kept by triggers like the others (migration
-- 0005). lead_counters checks its names, so it is made again with the new
-- name allowed and its rows copied; the triggers that keep it refer to it by
-- name and hold across. D1 applies a migration as one transaction: no lead is
-- written between the drop and the copy.

CREATE TABLE lead_counters_0007 (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO lead_counters_0007 (name, n) SELECT name, n FROM lead_counters;
DROP TABLE lead_counters;

CREATE TABLE lead_counters (
  name TEXT PRIMARY KEY CHECK (name IN ('pending', 'sent', 'failed', 'duplicates', 'attention')),
  n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO lead_counters (name, n) SELECT name, n FROM lead_counters_0007;
DROP TABLE lead_counters_0007;

INSERT INTO lead_counters (name, n)
  VALUES ('attention', (SELECT count(*) FROM leads
                        WHERE delivery_status = 'failed' OR update_status = 'failed'));

-- A lead counts once, whether its delivery, its correction or both were given up.
CREATE TRIGGER lead_counters_attention_insert AFTER INSERT ON leads
  WHEN NEW.delivery_status = 'failed' OR NEW.update_status IS 'failed'
BEGIN
  UPDATE lead_counters SET n = n + 1 WHERE name = 'attention';
END;

CREATE TRIGGER lead_counters_attention_delete AFTER DELETE ON leads
  WHEN OLD.delivery_status = 'failed' OR OLD.update_status IS 'failed'
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = 'attention';
END;

CREATE TRIGGER lead_counters_attention_change AFTER UPDATE OF delivery_status, update_status ON leads
  WHEN (OLD.delivery_status = 'failed' OR OLD.update_status IS 'failed')
    IS NOT (NEW.delivery_status = 'failed' OR NEW.update_status IS 'failed')
BEGIN
  UPDATE lead_counters
    SET n = n + (NEW.delivery_status = 'failed' OR NEW.update_status IS 'failed')
              - (OLD.delivery_status = 'failed' OR OLD.update_status IS 'failed')
    WHERE name = 'attention';
END;

-- 'Falharam', newest first, read by an index seek however many leads there
-- are (the panel's filter states this same condition).
CREATE INDEX leads_attention_newest ON leads (created_at DESC, id DESC)
  WHERE delivery_status = 'failed' OR update_status = 'failed';
