-- Migration 0011: deleting a lead reads its own search rows, not the whole
-- search index.
--
-- `leads_search.lead_id` is an UNINDEXED column of the full-text table, so
-- the delete trigger's `DELETE FROM leads_search WHERE lead_id = old.id`
-- read every row of the index: 100,000 rows for one 'Excluir' at 100,000
-- leads. Which lead each search row belongs to is now kept beside it, by
-- its rowid, in a table indexed by lead, filled here from the index and
-- then by the triggers; the delete removes the rows it names. And
-- `lead_links` gets the index its ON DELETE CASCADE on `other_id` needs.
CREATE TABLE leads_search_rows (
  search_rowid INTEGER PRIMARY KEY,
  lead_id      TEXT NOT NULL
);
INSERT INTO leads_search_rows (search_rowid, lead_id) SELECT rowid, lead_id FROM leads_search;
CREATE INDEX leads_search_rows_lead ON leads_search_rows (lead_id);

DROP TRIGGER leads_search_insert;
CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (new.id, new.name || ' ' || new.email || ' ' || substr(new.whatsapp, 2));
  INSERT INTO leads_search_rows (search_rowid, lead_id) VALUES (last_insert_rowid(), new.id);
END;

DROP TRIGGER leads_search_update;
CREATE TRIGGER leads_search_update AFTER UPDATE OF name, email, whatsapp ON leads
WHEN new.name IS NOT old.name OR new.email IS NOT old.email OR new.whatsapp IS NOT old.whatsapp
BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (new.id, new.name || ' ' || new.email || ' ' || substr(new.whatsapp, 2));
  INSERT INTO leads_search_rows (search_rowid, lead_id) VALUES (last_insert_rowid(), new.id);
END;

DROP TRIGGER leads_search_delete;
CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
  DELETE FROM leads_search
    WHERE rowid IN (SELECT search_rowid FROM leads_search_rows WHERE lead_id = old.id);
  DELETE FROM leads_search_rows WHERE lead_id = old.id;
END;

CREATE INDEX lead_links_other ON lead_links (other_id);
