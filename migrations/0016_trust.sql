-- Migration 0016: a lead base nobody can quietly rewrite, and a staff list
-- its owners decide.
--
-- 1. A form that changes a known lead's details without the proof its
--    browser keeps is kept aside: a 'pending' submission, until staff
--    accept it (it becomes the lead's 'correction') or refuse it
--    ('refused'). lead_submissions' kinds are a CHECK, so the table is
--    rebuilt: every row keeps its id, and the webhook events tied to a
--    submission (ON DELETE CASCADE from it, which dropping the old table
--    would fire) are put back as they were.
-- 2. Staff accounts: when an owner approved them ('Aguardando aprovação'
--    until then, with STAFF_APPROVAL on), and whether they may export and
--    delete leads. Every account already there is approved, with both.
-- 3. The activity names the new actions: the trail is rebuilt for its
--    CHECK, every row with its id.

-- 1. lead_submissions, with its new kinds.
CREATE TABLE webhook_events_kept AS SELECT * FROM webhook_events;
CREATE TABLE sequence_kept AS SELECT name, seq FROM sqlite_sequence
  WHERE name IN ('lead_submissions', 'audit_log');

-- This trigger reads lead_submissions: it goes while the table is rebuilt.
DROP TRIGGER leads_delete_conflicts;

CREATE TABLE lead_submissions_rebuilt (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  lead_id      TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  submitted_at INTEGER NOT NULL,
  name         TEXT NOT NULL,
  email        TEXT NOT NULL,
  whatsapp     TEXT NOT NULL,
  origem       TEXT NOT NULL,
  utm_source   TEXT,
  utm_medium   TEXT,
  utm_campaign TEXT,
  utm_term     TEXT,
  utm_content  TEXT,
  gclid        TEXT,
  fbclid       TEXT,
  referrer     TEXT,
  page_url     TEXT,
  kind         TEXT NOT NULL DEFAULT 'new'
               CHECK (kind IN ('new', 'repeat', 'correction', 'conflict', 'pending', 'refused'))
);
INSERT INTO lead_submissions_rebuilt SELECT * FROM lead_submissions;
DROP TABLE lead_submissions;
ALTER TABLE lead_submissions_rebuilt RENAME TO lead_submissions;

INSERT INTO webhook_events SELECT * FROM webhook_events_kept
  WHERE id NOT IN (SELECT id FROM webhook_events);
DROP TABLE webhook_events_kept;

CREATE INDEX lead_submissions_lead ON lead_submissions (lead_id, submitted_at);
CREATE INDEX lead_submissions_news ON lead_submissions (id) WHERE kind IN ('new', 'correction');
-- 'Alteração pendente': the leads with a change waiting for staff.
CREATE INDEX lead_submissions_pending ON lead_submissions (lead_id) WHERE kind = 'pending';

CREATE TRIGGER lead_changes_submission AFTER INSERT ON lead_submissions BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

-- Accepting or refusing a change moves what the list shows.
CREATE TRIGGER lead_changes_submission_kind AFTER UPDATE OF kind ON lead_submissions BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER leads_delete_conflicts BEFORE DELETE ON leads BEGIN
  UPDATE leads SET submission_count = submission_count - (
      SELECT count(*) FROM lead_submissions s
      WHERE s.lead_id = leads.id AND s.kind = 'conflict'
        AND s.whatsapp IN (SELECT whatsapp FROM lead_submissions WHERE lead_id = old.id))
    WHERE id IN (SELECT other_id FROM lead_links WHERE lead_id = old.id);
  DELETE FROM lead_submissions
    WHERE kind = 'conflict'
      AND lead_id IN (SELECT other_id FROM lead_links WHERE lead_id = old.id)
      AND whatsapp IN (SELECT whatsapp FROM lead_submissions WHERE lead_id = old.id);
END;

-- 2. Staff accounts: approval and permissions.
ALTER TABLE staff_users ADD COLUMN approved_at INTEGER;
ALTER TABLE staff_users ADD COLUMN can_export INTEGER NOT NULL DEFAULT 1 CHECK (can_export IN (0, 1));
ALTER TABLE staff_users ADD COLUMN can_delete INTEGER NOT NULL DEFAULT 1 CHECK (can_delete IN (0, 1));
UPDATE staff_users SET approved_at = confirmed_at WHERE confirmed_at IS NOT NULL;

-- 3. The activity, with the new actions.
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
                'approve', 'refuse', 'permissions')),
  lead_id     TEXT,
  account_id  TEXT
);
INSERT INTO audit_log_rebuilt SELECT * FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_rebuilt RENAME TO audit_log;
CREATE INDEX audit_log_at ON audit_log (at DESC);
CREATE INDEX audit_log_lead ON audit_log (lead_id) WHERE lead_id IS NOT NULL;

-- Each id counter where it was (past pruned rows), not at the rows copied.
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sequence_kept k WHERE k.name = sqlite_sequence.name)
  WHERE name IN (SELECT name FROM sequence_kept);
DROP TABLE sequence_kept;
