-- Migration 0023: speed to lead.
--
-- 1. A lead's first contact: who of the staff spoke to the person first
--    ('Já falei') and when. Recorded once; the panel lists the leads nobody
--    contacted yet ('Não contatados') and those one person contacted
--    ('Contatados por mim'), each through an index of its own. Leads that
--    arrived before the panel recorded contacts have none to show, and
--    nobody can tell now whether they were called: they are marked
--    `contact_tracked = 0`, so 'Não contatados' and the time to first
--    contact speak only of leads that came since.
-- 2. How many leads wait for their first contact: a counter kept by
--    triggers, as lead_counters is (a CHECK names that table's counters,
--    and a rebuilt table cannot be renamed under the triggers that name
--    it, so it gets a table of its own).
-- 3. The owners' choices for the panel: the target for the time to first
--    contact (5 minutes until they change it) and whether new colleagues
--    start with the new-lead notices on (on).
-- 4. The activity names the new actions ('Já falei' and its 'Desfazer', a
--    WhatsApp number corrected by staff, a choice of the owners): the trail
--    is rebuilt for its CHECK, every row with its id, the id counter where
--    it was.

-- 1. The first contact.
ALTER TABLE leads ADD COLUMN first_contact_at INTEGER;
ALTER TABLE leads ADD COLUMN first_contact_by TEXT;
ALTER TABLE leads ADD COLUMN contact_tracked INTEGER NOT NULL DEFAULT 1
  CHECK (contact_tracked IN (0, 1));
UPDATE leads SET contact_tracked = 0;

CREATE INDEX leads_uncontacted_newest ON leads (created_at DESC, id DESC)
  WHERE first_contact_at IS NULL AND contact_tracked = 1;
CREATE INDEX leads_contacted_by_newest ON leads (first_contact_by, created_at DESC, id DESC)
  WHERE first_contact_by IS NOT NULL;

-- 2. The leads waiting for their first contact.
CREATE TABLE contact_counters (
  name TEXT PRIMARY KEY CHECK (name IN ('uncontacted')),
  n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO contact_counters (name, n)
  SELECT 'uncontacted', count(*) FROM leads WHERE first_contact_at IS NULL AND contact_tracked = 1;

CREATE TRIGGER contact_counters_insert AFTER INSERT ON leads
  WHEN NEW.first_contact_at IS NULL AND NEW.contact_tracked = 1
BEGIN
  UPDATE contact_counters SET n = n + 1 WHERE name = 'uncontacted';
END;

CREATE TRIGGER contact_counters_delete AFTER DELETE ON leads
  WHEN OLD.first_contact_at IS NULL AND OLD.contact_tracked = 1
BEGIN
  UPDATE contact_counters SET n = n - 1 WHERE name = 'uncontacted';
END;

CREATE TRIGGER contact_counters_change AFTER UPDATE OF first_contact_at, contact_tracked ON leads
  WHEN (OLD.first_contact_at IS NULL AND OLD.contact_tracked = 1)
    IS NOT (NEW.first_contact_at IS NULL AND NEW.contact_tracked = 1)
BEGIN
  UPDATE contact_counters
    SET n = n + (NEW.first_contact_at IS NULL AND NEW.contact_tracked = 1)
              - (OLD.first_contact_at IS NULL AND OLD.contact_tracked = 1)
    WHERE name = 'uncontacted';
END;

-- 3. The owners' choices.
CREATE TABLE panel_settings (
  name  TEXT PRIMARY KEY CHECK (name IN ('contact_target_minutes', 'colleague_notices')),
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO panel_settings (name, value) VALUES ('contact_target_minutes', 5), ('colleague_notices', 1);

-- 4. The activity, with the new actions.
CREATE TABLE sequence_kept AS SELECT name, seq FROM sqlite_sequence WHERE name = 'audit_log';

CREATE TABLE audit_log_rebuilt (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  staff_id    TEXT,
  staff_email TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN (
                'mark_sent', 'unmark_sent', 'delete', 'resend', 'export',
                'accept_change', 'refuse_change',
                'sign_in', 'sign_in_failed', 'confirm', 'password_reset', 'password_change',
                'disable', 'enable', 'end_sessions', 'make_owner', 'remove_owner',
                'approve', 'refuse', 'permissions', 'bulk_read',
                'contact', 'uncontact', 'correct_whatsapp', 'settings')),
  lead_id     TEXT,
  account_id  TEXT,
  detail      TEXT CHECK (detail IS NULL OR json_valid(detail))
);
INSERT INTO audit_log_rebuilt (id, at, staff_id, staff_email, action, lead_id, account_id, detail)
  SELECT id, at, staff_id, staff_email, action, lead_id, account_id, detail FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_rebuilt RENAME TO audit_log;
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_lead ON audit_log (lead_id) WHERE lead_id IS NOT NULL;
CREATE INDEX audit_log_staff ON audit_log (staff_id, at) WHERE staff_id IS NOT NULL;
CREATE INDEX audit_log_action ON audit_log (action, at);

UPDATE sqlite_sequence SET seq = (SELECT seq FROM sequence_kept k WHERE k.name = sqlite_sequence.name)
  WHERE name IN (SELECT name FROM sequence_kept);
DROP TABLE sequence_kept;
