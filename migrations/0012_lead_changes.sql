-- Migration 0012: an open panel's reload reads a handful of rows while no
-- lead changed.
--
-- The panel reloads its list every 30 seconds while it is in view, and each
-- reload read the page again: about 100 rows, and every match of a search
-- ('silva': 19,265 rows at 100,000 leads), though nothing had changed. This
-- counter moves whenever anything the list shows may have changed: a lead
-- (inserted, changed by the form, the delivery engine or staff, deleted),
-- its submissions (its last touch) and its ties to other leads ('Possível
-- duplicado'). The list's answer is tagged with it (ETag), and a reload
-- that sends the tag back while it has not moved is answered 304 after
-- reading the counter, the open incident and the cron's last watch.
CREATE TABLE lead_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
INSERT INTO lead_changes (id, n) VALUES (1, 0);

CREATE TRIGGER lead_changes_insert AFTER INSERT ON leads BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_update AFTER UPDATE ON leads BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_delete AFTER DELETE ON leads BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_submission AFTER INSERT ON lead_submissions BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_link AFTER INSERT ON lead_links BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_unlink AFTER DELETE ON lead_links BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;
