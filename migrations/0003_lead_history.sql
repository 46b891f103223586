-- Migration 0003: leads stay true.
--
-- Every submission is kept; a lead shows its newest contact details, keeps
-- its first touch and records its last; a correction of a lead already in
-- the CRM is delivered to it; two leads a submission ties together without
-- being the same person are marked as possible duplicates; every delivery
-- attempt is logged for the lead's story.

-- Every time the form was sent: the details as typed (normalised) and the
-- visit's origin and attribution. Deleted with its lead.
CREATE TABLE IF NOT EXISTS lead_submissions (
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
  page_url     TEXT
);
CREATE INDEX IF NOT EXISTS lead_submissions_lead ON lead_submissions (lead_id, submitted_at);

-- The leads of this release had one submission on record each: their first
-- (the lead's own fields). Later repeats were only counted, never kept.
INSERT INTO lead_submissions (lead_id, submitted_at, name, email, whatsapp, origem, utm_source,
    utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, referrer, page_url)
  SELECT id, created_at, name, email, whatsapp, origem, utm_source, utm_medium, utm_campaign,
    utm_term, utm_content, gclid, fbclid, referrer, page_url
  FROM leads ORDER BY created_at, id;

-- Two leads one submission tied together (its e-mail is one's, its WhatsApp
-- the other's): nothing is merged; each points at the other.
CREATE TABLE IF NOT EXISTS lead_links (
  lead_id    TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  other_id   TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (lead_id, other_id)
) WITHOUT ROWID;

-- What the CRM was last sent for the lead, and a correction waiting to be
-- delivered: the same engine as a new lead (claim with a lease, backoff,
-- a week of retries, then a person).
ALTER TABLE leads ADD COLUMN sent_name TEXT;
ALTER TABLE leads ADD COLUMN sent_email TEXT;
ALTER TABLE leads ADD COLUMN sent_whatsapp TEXT;
ALTER TABLE leads ADD COLUMN update_status TEXT CHECK (update_status IS NULL OR update_status IN ('pending', 'failed'));
ALTER TABLE leads ADD COLUMN update_requested_at INTEGER;
ALTER TABLE leads ADD COLUMN update_next_attempt_at INTEGER;
ALTER TABLE leads ADD COLUMN update_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE leads ADD COLUMN update_lease_until INTEGER;
ALTER TABLE leads ADD COLUMN update_last_error TEXT;

-- A lead already in the CRM was sent with the details it has now.
UPDATE leads SET sent_name = name, sent_email = email, sent_whatsapp = whatsapp
WHERE delivery_status = 'sent';

CREATE INDEX IF NOT EXISTS leads_update_due ON leads (update_next_attempt_at)
  WHERE update_status = 'pending';

-- Every attempt to deliver a lead or its correction, with its result.
CREATE TABLE IF NOT EXISTS crm_attempts (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  at      INTEGER NOT NULL,
  kind    TEXT NOT NULL CHECK (kind IN ('lead', 'update')),
  outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed')),
  detail  TEXT
);
CREATE INDEX IF NOT EXISTS crm_attempts_lead ON crm_attempts (lead_id, at);

-- A lead's story lists the staff actions on it.
CREATE INDEX IF NOT EXISTS audit_log_lead ON audit_log (lead_id) WHERE lead_id IS NOT NULL;

-- Search finds a lead by its earlier details too: new details are indexed
-- beside the old ones.
CREATE TRIGGER IF NOT EXISTS leads_search_update AFTER UPDATE OF name, email, whatsapp ON leads
WHEN new.name IS NOT old.name OR new.email IS NOT old.email OR new.whatsapp IS NOT old.whatsapp
BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (new.id, new.name || ' ' || new.email || ' ' || substr(new.whatsapp, 2));
END;
