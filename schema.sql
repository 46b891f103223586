-- D1 (SQLite) schema of the lead site: the whole current schema, to read.
--
-- Databases are never made from this file: `migrations/` is the only way the
-- schema changes (`wrangler d1 migrations apply DB`), and a test keeps this
-- file equal to the result of applying every migration to an empty database
-- (tests/api/schema.test.ts). Change both together.
-- Timestamps are INTEGER milliseconds since the Unix epoch, UTC.

-- Leads left on the landing page. The first six columns and the last are
-- the specification's; the rest serve attribution, repeat submissions and the
-- delivery to the CRM.
CREATE TABLE leads (
  id                TEXT PRIMARY KEY,
  name              TEXT NOT NULL,
  email             TEXT NOT NULL,
  whatsapp          TEXT NOT NULL,
  origem            TEXT NOT NULL DEFAULT 'site',
  created_at        INTEGER NOT NULL,
  utm_source        TEXT,
  utm_medium        TEXT,
  utm_campaign      TEXT,
  utm_term          TEXT,
  utm_content       TEXT,
  gclid             TEXT,
  fbclid            TEXT,
  referrer          TEXT,
  page_url          TEXT,
  submission_count  INTEGER NOT NULL DEFAULT 1,
  last_submitted_at INTEGER NOT NULL,
  -- Delivery to the CRM: 'pending' (waiting or retrying), 'sent', 'failed'
  -- (retry window over; needs a person).
  delivery_status   TEXT NOT NULL DEFAULT 'pending'
                    CHECK (delivery_status IN ('pending', 'sent', 'failed')),
  delivery_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at   INTEGER,
  lease_until       INTEGER,
  last_error        TEXT,
  sent_at           INTEGER,
  sent_by           TEXT CHECK (sent_by IS NULL OR sent_by IN ('crm', 'staff')),
  jetimob_lead_id   TEXT,
  -- What the CRM was last sent: a lead whose details differ from these has
  -- a correction to deliver.
  sent_name         TEXT,
  sent_email        TEXT,
  sent_whatsapp     TEXT,
  -- The correction's delivery, by the same rules as the lead's own: 'pending'
  -- (waiting or retrying), 'failed' (a week of retries over), NULL (none).
  update_status     TEXT CHECK (update_status IS NULL OR update_status IN ('pending', 'failed')),
  update_requested_at INTEGER,
  update_next_attempt_at INTEGER,
  update_attempts   INTEGER NOT NULL DEFAULT 0,
  update_lease_until INTEGER,
  update_last_error TEXT,
  -- Where it came from, as the campaign report groups it (0015): the
  -- utm_source, else the referrer's family or host, else 'direto'; since
  -- 0024 under one name per source (worker/src/campaigns/sources.rs:
  -- 'Instagram' for 'ig', 'Google', 'Direto'), another site's host or an
  -- unknown utm_source as given; and the referrer's host when no utm_source
  -- named it.
  source            TEXT NOT NULL DEFAULT 'direto',
  referrer_host     TEXT,
  -- The specification's 'Enviado' (0017): read from the delivery status,
  -- written by nobody.
  jetimob_enviado   INTEGER GENERATED ALWAYS AS (delivery_status = 'sent') VIRTUAL,
  -- The click ids besides gclid and fbclid (0021): Google's from iOS apps
  -- (gbraid, wbraid), Microsoft Advertising's, TikTok's. The attribution's
  -- fields are one list, worker/src/attribution.rs.
  gbraid            TEXT,
  wbraid            TEXT,
  msclkid           TEXT,
  ttclid            TEXT,
  -- The WhatsApp number is a Brazilian landline ('fixo': a DDD and eight
  -- digits starting 2 to 5), read from the number (0022): the team calls it.
  landline          INTEGER
                    GENERATED ALWAYS AS (whatsapp GLOB '+55[1-9][0-9][2-5]???????'
                      AND NOT substr(whatsapp, 2) GLOB '*[^0-9]*') VIRTUAL,
  -- The optional questions answered after 'Sucesso!' (agency.json): a JSON
  -- object of question id → the option chosen; and when they last changed.
  answers           TEXT CHECK (answers IS NULL OR json_valid(answers)),
  answers_at        INTEGER,
  -- The first contact (0023): when a person of the staff ('Já falei') first
  -- spoke to the lead, and who (staff_users.id). `contact_tracked` is 0 for
  -- leads that arrived before the panel recorded contacts: nobody can tell
  -- whether they were called, so 'Não contatados' and the time to first
  -- contact leave them out.
  first_contact_at  INTEGER,
  first_contact_by  TEXT,
  contact_tracked   INTEGER NOT NULL DEFAULT 1
                    CHECK (contact_tracked IN (0, 1)),
  -- The visitor's answer to the ads' consent box (ADS_CONSENT=checkbox, 0025):
  -- 1 ticked, 0 not; NULL where no box was asked.
  ads_consent       INTEGER CHECK (ads_consent IS NULL OR ads_consent IN (0, 1))
);

-- One lead per person: a repeat submission updates the existing row (its
-- name, e-mail and WhatsApp become the newest; its attribution stays the
-- first touch) and is kept in lead_submissions.
CREATE UNIQUE INDEX leads_email ON leads (email);
CREATE UNIQUE INDEX leads_whatsapp ON leads (whatsapp);
-- The panel lists newest first, overall and per delivery status.
CREATE INDEX leads_newest ON leads (created_at DESC, id DESC);
CREATE INDEX leads_status_newest ON leads (delivery_status, created_at DESC, id DESC);
CREATE INDEX leads_sent_newest ON leads (jetimob_enviado, created_at DESC, id DESC);
-- 'Falharam': the leads waiting for a person (the panel's filter states this
-- same condition, so the index serves it).
CREATE INDEX leads_attention_newest ON leads (created_at DESC, id DESC)
  WHERE delivery_status = 'failed' OR update_status = 'failed';
-- The delivery cron picks pending leads that are due, and due corrections.
CREATE INDEX leads_due ON leads (next_attempt_at)
  WHERE delivery_status = 'pending';
CREATE INDEX leads_update_due ON leads (update_next_attempt_at)
  WHERE update_status = 'pending';
-- The delivery watch: when the oldest correction still waiting for the CRM
-- (retried or given up) was asked for.
CREATE INDEX leads_corrections_waiting ON leads (update_requested_at)
  WHERE update_status IS NOT NULL;
-- The lead list filtered to a source, a campaign and an ad ('Campanhas').
CREATE INDEX leads_source_newest
  ON leads (source, utm_campaign, utm_content, created_at DESC, id DESC);
-- 'Não contatados' and 'Contatados por mim' (0023).
CREATE INDEX leads_uncontacted_newest ON leads (created_at DESC, id DESC)
  WHERE first_contact_at IS NULL AND contact_tracked = 1;
CREATE INDEX leads_contacted_by_newest ON leads (first_contact_by, created_at DESC, id DESC)
  WHERE first_contact_by IS NOT NULL;

-- Every time the form was sent: the details as typed (normalised) and the
-- visit's origin and attribution (the lead's last touch is its newest).
-- Deleted with its lead.
CREATE TABLE lead_submissions (
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
  -- A new lead, a repeat with nothing new, a correction of the lead's
  -- details, one whose e-mail and WhatsApp are two leads', a change sent
  -- without its browser's proof that waits for staff ('pending'), or one
  -- staff refused (0016; an accepted one is a 'correction').
  kind         TEXT NOT NULL DEFAULT 'new'
               CHECK (kind IN ('new', 'repeat', 'correction', 'conflict', 'pending', 'refused')),
  -- While a change waits for staff: a keyed hash of its sender's network
  -- (never the address), so a newer change from the same sender replaces it
  -- (0018). Cleared once the change is decided.
  sender       TEXT,
  -- A change set aside without staff (0018): 'replaced' by a newer one from
  -- the same sender, or over the 'limit' of changes a lead keeps waiting.
  auto_refused TEXT CHECK (auto_refused IS NULL OR auto_refused IN ('replaced', 'limit')),
  -- The click ids besides gclid and fbclid (0021), as on leads.
  gbraid       TEXT,
  wbraid       TEXT,
  msclkid      TEXT,
  ttclid       TEXT
);
CREATE INDEX lead_submissions_lead ON lead_submissions (lead_id, submitted_at);
-- What the new-lead notices and the webhook report.
CREATE INDEX lead_submissions_news ON lead_submissions (id) WHERE kind IN ('new', 'correction');
-- What the new-lead notices tell: new leads, corrections and changes waiting (0018).
CREATE INDEX lead_submissions_notices ON lead_submissions (id)
  WHERE kind IN ('new', 'correction', 'pending');
-- 'Alteração pendente': the leads with a change waiting for staff.
CREATE INDEX lead_submissions_pending ON lead_submissions (lead_id) WHERE kind = 'pending';

-- Two leads one submission tied together (its e-mail is one's, its WhatsApp
-- the other's): 'Possível duplicado'. Nothing is merged; each points at the other.
CREATE TABLE lead_links (
  lead_id    TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  other_id   TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (lead_id, other_id)
) WITHOUT ROWID;
-- Deleting a lead removes the links that name it as the other one.
CREATE INDEX lead_links_other ON lead_links (other_id);

-- Every attempt to deliver a lead ('lead') or its correction ('update') to
-- the CRM, with its result (the CRM's id, or the error).
CREATE TABLE crm_attempts (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  at      INTEGER NOT NULL,
  kind    TEXT NOT NULL CHECK (kind IN ('lead', 'update')),
  outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'failed')),
  detail  TEXT
);
CREATE INDEX crm_attempts_lead ON crm_attempts (lead_id, at);

-- Search by name, e-mail or WhatsApp digits without scanning the table: a
-- trigram index finds any substring of three characters or more, ignoring
-- case and accents ("joao" finds "João").
CREATE VIRTUAL TABLE leads_search USING fts5 (
  lead_id UNINDEXED,
  body,
  tokenize = 'trigram remove_diacritics 1'
);

-- Which lead each search row belongs to, by the row's rowid: `lead_id` is
-- not indexed in the full-text table, so deleting a lead finds its rows here.
CREATE TABLE leads_search_rows (
  search_rowid INTEGER PRIMARY KEY,
  lead_id      TEXT NOT NULL
);
CREATE INDEX leads_search_rows_lead ON leads_search_rows (lead_id);

CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (new.id, new.name || ' ' || new.email || ' ' || substr(new.whatsapp, 2));
  INSERT INTO leads_search_rows (search_rowid, lead_id) VALUES (last_insert_rowid(), new.id);
END;

CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
  DELETE FROM leads_search
    WHERE rowid IN (SELECT search_rowid FROM leads_search_rows WHERE lead_id = old.id);
  DELETE FROM leads_search_rows WHERE lead_id = old.id;
END;

-- New details are indexed beside the old ones: search finds a lead by its
-- earlier name, e-mail or number too.
CREATE TRIGGER leads_search_update AFTER UPDATE OF name, email, whatsapp ON leads
WHEN new.name IS NOT old.name OR new.email IS NOT old.email OR new.whatsapp IS NOT old.whatsapp
BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (new.id, new.name || ' ' || new.email || ' ' || substr(new.whatsapp, 2));
  INSERT INTO leads_search_rows (search_rowid, lead_id) VALUES (last_insert_rowid(), new.id);
END;

-- The search finds a lead by its campaign, ad and keyword too: one more row
-- of the index for a lead that has any, beside its details' rows.
CREATE TRIGGER leads_search_campaign AFTER INSERT ON leads
  WHEN coalesce(NEW.utm_campaign, NEW.utm_content, NEW.utm_term) IS NOT NULL
BEGIN
  INSERT INTO leads_search (lead_id, body)
  VALUES (NEW.id, trim(coalesce(NEW.utm_campaign, '') || ' ' || coalesce(NEW.utm_content, '') || ' '
    || coalesce(NEW.utm_term, '')));
  INSERT INTO leads_search_rows (search_rowid, lead_id) VALUES (last_insert_rowid(), NEW.id);
END;

-- Deleting a lead takes its WhatsApp out of the 'conflict' submissions its
-- linked leads keep (a form with their e-mail and its number), and their
-- submission counts with them (0014).
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

-- Staff accounts. The password hash string carries its own algorithm,
-- iteration count and salt. Until the e-mail is confirmed the account has no
-- password of its own: each sign-up's password waits on its link.
CREATE TABLE staff_users (
  id              TEXT PRIMARY KEY,
  email           TEXT NOT NULL UNIQUE,
  password_hash   TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  confirmed_at    INTEGER,
  -- 'owner' ('Responsável': manages the team and sees the activity) or 'staff'.
  role            TEXT NOT NULL DEFAULT 'staff' CHECK (role IN ('owner', 'staff')),
  -- Set by an owner's 'Desativar': no sign-in, no session, no reset, no sign-up.
  disabled_at     INTEGER,
  last_sign_in_at INTEGER,
  -- 'Receber aviso de novos leads' (owners by default), the last submission
  -- (lead_submissions.id) this person was told about, and the cron's claim.
  lead_notices    INTEGER NOT NULL DEFAULT 0 CHECK (lead_notices IN (0, 1)),
  notices_sent_through INTEGER,
  notices_lease_until  INTEGER,
  -- When an owner approved the account (its confirmation, while
  -- STAFF_APPROVAL is off); NULL: 'Aguardando aprovação' (0016).
  approved_at     INTEGER,
  -- Whether the colleague may 'Exportar CSV' and 'Excluir' leads (an owner's choice).
  can_export      INTEGER NOT NULL DEFAULT 1 CHECK (can_export IN (0, 1)),
  can_delete      INTEGER NOT NULL DEFAULT 1 CHECK (can_delete IN (0, 1)),
  -- Whether the colleague may 'Marcar Enviado' (and 'Desfazer') (0019).
  can_mark_sent   INTEGER NOT NULL DEFAULT 1 CHECK (can_mark_sent IN (0, 1)),
  -- Whether the colleague may import campaigns' spend (0024; owners always may).
  can_import_spend INTEGER NOT NULL DEFAULT 0 CHECK (can_import_spend IN (0, 1))
);

-- One-time e-mail confirmation links; only the token's hash is kept, with
-- the password of the sign-up that sent it (whoever opens the link must type
-- that password to confirm). Removed a month after the link expires.
CREATE TABLE email_confirmations (
  token_hash    TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  used_at       INTEGER,
  password_hash TEXT
);
CREATE INDEX email_confirmations_user ON email_confirmations (user_id);
CREATE INDEX email_confirmations_expiry ON email_confirmations (expires_at);

-- One-time links to choose a new password (valid 1 hour); only the token's hash is kept.
-- Removed a month after the link expires.
CREATE TABLE password_resets (
  token_hash TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);
CREATE INDEX password_resets_user ON password_resets (user_id);
CREATE INDEX password_resets_expiry ON password_resets (expires_at);

-- A signed-in device. Access tokens name their session; every admin call
-- checks that it is still live. A session ends 30 days after its sign-in
-- (expires_at), however often it is used, and is removed with its refresh
-- tokens a month after that.
CREATE TABLE staff_sessions (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  revoked_at   INTEGER
);
CREATE INDEX staff_sessions_user ON staff_sessions (user_id);
CREATE INDEX staff_sessions_live ON staff_sessions (user_id, expires_at) WHERE revoked_at IS NULL;
CREATE INDEX staff_sessions_expiry ON staff_sessions (expires_at);

-- Every refresh token its session issued (hashed). A token is used once;
-- presenting one that was already rotated revokes its whole session.
CREATE TABLE refresh_tokens (
  token_hash     TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL REFERENCES staff_sessions (id) ON DELETE CASCADE,
  created_at     INTEGER NOT NULL,
  rotated_at     INTEGER,
  -- The token that replaced this one; only the request that rotated it may
  -- issue that successor.
  successor_hash TEXT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Fixed-window counters for per-IP and per-e-mail limits, removed a day after
-- their window opened.
CREATE TABLE rate_limits (
  key          TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL
);
CREATE INDEX rate_limits_window ON rate_limits (window_start);

-- What staff did: who, what, when, to which lead or account. The lead's id
-- only, never its personal data, so the trail survives the lead's deletion
-- without keeping it. `staff_id` is NULL for a failed sign-in to an address
-- with no account (`staff_email` is the address tried). `detail` (JSON) is
-- what an entry needs besides: an export's filter and rows, the right a
-- permission change gave or took, a bulk read's leads read and worked.
CREATE TABLE audit_log (
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
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_lead ON audit_log (lead_id) WHERE lead_id IS NOT NULL;
-- 'Atividade' by person (and what a person worked in an hour) and by action.
CREATE INDEX audit_log_staff ON audit_log (staff_id, at) WHERE staff_id IS NOT NULL;
CREATE INDEX audit_log_action ON audit_log (action, at);

-- Delivery trouble ('Leads não estão chegando ao Jetimob'): at most one open
-- at a time. `reasons`: a comma-separated list of 'keys_refused' (Jetimob
-- refused our keys), 'backlog' (the oldest lead still retried waited over 15
-- minutes), 'given_up' (a lead given up after its week of retries waits for a
-- person), 'corrections' (so did the oldest visitor's correction), 'off' (no
-- keys while leads wait), 'form_blocked' (the form refused visitors: its bot
-- check could not be made), 'webhook_failing', 'meta_refused' (Meta refused
-- our token or pixel since it last took an event, 0025). Each alert is claimed (its
-- column set) before it is sent, so overlapping cron runs send it once.
CREATE TABLE delivery_incidents (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at         INTEGER NOT NULL,
  reasons            TEXT NOT NULL,
  waiting            INTEGER NOT NULL DEFAULT 0,
  alerted_at         INTEGER,
  resolved_at        INTEGER,
  recovery_alerted_at INTEGER,
  -- What the alerts named (the reasons when each was claimed), for the
  -- recovery; a cause that ended since is written '~name' (its return is
  -- alerted again).
  alerted_reasons    TEXT
);
CREATE UNIQUE INDEX delivery_incidents_open ON delivery_incidents ((resolved_at IS NULL))
  WHERE resolved_at IS NULL;
-- An alert is claimed only if none went in the last hour: that look reads
-- the incidents alerted in that hour, not every incident ever opened.
CREATE INDEX delivery_incidents_alerted ON delivery_incidents (alerted_at)
  WHERE alerted_at IS NOT NULL;
-- Each cron run's look for a recovery e-mail to claim reads only these.
CREATE INDEX delivery_incidents_recovery_due ON delivery_incidents (id)
  WHERE resolved_at IS NOT NULL AND alerted_at IS NOT NULL AND recovery_alerted_at IS NULL;

-- Each owner's copy of an incident's e-mails ('alert', 'joined:<causes>' for
-- a cause that joined it after its alert, 'recovery'), written when the
-- e-mail is claimed and sent on its own: retried with backoff for a day if
-- the e-mail API refuses it, then left failed; not sent to someone no longer
-- an owner, nor (an alert) once its incident ended.
CREATE TABLE alert_mails (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  incident_id     INTEGER NOT NULL REFERENCES delivery_incidents (id) ON DELETE CASCADE,
  kind            TEXT NOT NULL,
  email           TEXT NOT NULL,
  subject         TEXT NOT NULL,
  text            TEXT NOT NULL,
  html            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_error      TEXT,
  sent_at         INTEGER,
  UNIQUE (incident_id, kind, email)
);
CREATE INDEX alert_mails_due ON alert_mails (next_attempt_at) WHERE status = 'pending';

-- Events for the optional webhook (ALERT_WEBHOOK_URL), delivered like leads:
-- claimed with a lease, retried with backoff, then left failed. A lead event
-- names its submission; an incident or e-mail event carries its own JSON, and
-- its `once_key` ('incident:<id>', 'recovered:<id>', 'mail.failing:<…>', …)
-- keeps it to one event however many cron runs record it.
CREATE TABLE webhook_events (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  event           TEXT NOT NULL CHECK (event IN ('lead.created', 'lead.updated', 'delivery.incident',
                                                 'delivery.recovered', 'mail.failing', 'mail.recovered')),
  submission_id   INTEGER UNIQUE REFERENCES lead_submissions (id) ON DELETE CASCADE,
  payload         TEXT,
  created_at      INTEGER NOT NULL,
  status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  lease_until     INTEGER,
  last_error      TEXT,
  once_key        TEXT UNIQUE
);
CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending';
-- A run's claim, in its order: events of no lead first, then the longest due
-- (0013). The delivery watch's 'refused three times since when', from its
-- first entry.
CREATE INDEX webhook_events_claim ON webhook_events (submission_id IS NOT NULL, next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_events_refused ON webhook_events (created_at)
  WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3;

-- Small bits of state the cron keeps or reads ('webhook_cursor': the last
-- submission turned into webhook events; 'turnstile_failed_at': when the lead
-- form last refused a visitor because the bot check could not be made;
-- 'mail_sent_at', 'mail_failed_at': the e-mail API's last answers;
-- 'mail_failure_told_at': the refusal the webhook was told of;
-- 'delivery_watched_at': the cron's last delivery watch).
CREATE TABLE cron_state (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;

-- The panel's counters: leads per delivery status, the leads marked
-- 'Possível duplicado', and the leads waiting for a person ('attention': the
-- CRM never took them, or refused their correction, in a week of retries).
-- Kept right by the triggers below, so a panel load reads these rows instead
-- of counting every lead.
CREATE TABLE lead_counters (
  name TEXT PRIMARY KEY CHECK (name IN ('pending', 'sent', 'failed', 'duplicates', 'attention')),
  n    INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TRIGGER lead_counters_insert AFTER INSERT ON leads
BEGIN
  UPDATE lead_counters SET n = n + 1 WHERE name = NEW.delivery_status;
END;

CREATE TRIGGER lead_counters_delete AFTER DELETE ON leads
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = OLD.delivery_status;
END;

CREATE TRIGGER lead_counters_status AFTER UPDATE OF delivery_status ON leads
  WHEN OLD.delivery_status IS NOT NEW.delivery_status
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = OLD.delivery_status;
  UPDATE lead_counters SET n = n + 1 WHERE name = NEW.delivery_status;
END;

-- A lead counts once however many leads it is tied to.
CREATE TRIGGER lead_counters_link AFTER INSERT ON lead_links
  WHEN (SELECT count(*) FROM lead_links WHERE lead_id = NEW.lead_id) = 1
BEGIN
  UPDATE lead_counters SET n = n + 1 WHERE name = 'duplicates';
END;

CREATE TRIGGER lead_counters_unlink AFTER DELETE ON lead_links
  WHEN NOT EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.lead_id)
BEGIN
  UPDATE lead_counters SET n = n - 1 WHERE name = 'duplicates';
END;

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

-- What the panel's list shows moves this counter: a lead inserted, changed
-- or deleted, a submission, a tie between leads. The list's answer is tagged
-- with it (ETag), so a reload while it has not moved is answered 304 after
-- reading one row of it, the open incident and the cron's last watch.
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

-- Accepting or refusing a change moves what the list shows (0016).
CREATE TRIGGER lead_changes_submission_kind AFTER UPDATE OF kind ON lead_submissions BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_link AFTER INSERT ON lead_links BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

CREATE TRIGGER lead_changes_unlink AFTER DELETE ON lead_links BEGIN
  UPDATE lead_changes SET n = n + 1 WHERE id = 1;
END;

-- Visits to the site from outside, counted by the worker after it answered
-- the page: counts only, never an address, a browser or an identifier.
-- Keyed as the report shows them (0020): `source` is the utm_source, else
-- where the visitor came from (see `attribution.rs`): a family of sites
-- ('instagram', 'google', 'whatsapp'), another site's host, or 'direto';
-- `campaign` and `content` the utm_campaign and utm_content ('' for none).
-- A visit that may not make a new key (its network's or the day's room for
-- new ones spent, docs/campaigns.md) is counted under source '(outras)'. The
-- report reads campaign_daily, which the same batch adds each visit to.
CREATE TABLE visit_counts (
  day      TEXT NOT NULL,
  source   TEXT NOT NULL,
  campaign TEXT NOT NULL,
  content  TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (day, source, campaign, content)
) WITHOUT ROWID;

-- A line seen on an earlier day keeps its visits on a day whose room for new
-- lines is spent: found by its key, the days before.
CREATE INDEX visit_counts_line ON visit_counts (source, campaign, content, day);

-- What each network did today: the visits it had counted and the new lines it
-- made, so one network cannot blind the report nor inflate a line. `network` is
-- an HMAC (under JWT_SECRET) of the day and the network (an IPv4 /24, an IPv6
-- /48), never the address; the cron removes a day's rows once it is over.
CREATE TABLE visit_networks (
  day      TEXT NOT NULL,
  network  TEXT NOT NULL,
  visits   INTEGER NOT NULL,
  new_keys INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, network)
) WITHOUT ROWID;

-- Visits not counted on a day: their network had already had its day's visits
-- counted. The report says so beside the day's '(outras)'.
CREATE TABLE visits_uncounted (
  day TEXT PRIMARY KEY,
  n   INTEGER NOT NULL
) WITHOUT ROWID;

-- Visits and leads per Brasília day and campaign (source, campaign, ad):
-- the report's one read. A lead counts on the day it arrived under its first
-- touch, which never changes, with whether Jetimob has it and whether it is
-- a 'Possível duplicado'; the triggers below keep those right whatever
-- changes a lead, as lead_counters is kept. Visits are added by the worker.
CREATE TABLE campaign_daily (
  day        TEXT NOT NULL,
  source     TEXT NOT NULL,
  campaign   TEXT NOT NULL,
  content    TEXT NOT NULL,
  visits     INTEGER NOT NULL DEFAULT 0,
  leads      INTEGER NOT NULL DEFAULT 0,
  delivered  INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  -- Of its leads, those that reached Meta's Conversions API (0025).
  meta_sent  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source, campaign, content)
) WITHOUT ROWID;
-- A lead list narrowed to a campaign counts its leads here.
CREATE INDEX campaign_daily_campaign ON campaign_daily (source, campaign, content, day);

CREATE TRIGGER campaign_daily_insert AFTER INSERT ON leads BEGIN
  INSERT INTO campaign_daily (day, source, campaign, content, leads, delivered)
  VALUES (date(NEW.created_at / 1000 - 10800, 'unixepoch'), NEW.source,
    coalesce(NEW.utm_campaign, ''), coalesce(NEW.utm_content, ''), 1, NEW.jetimob_enviado)
  ON CONFLICT (day, source, campaign, content)
    DO UPDATE SET leads = leads + 1, delivered = delivered + excluded.delivered;
END;

-- Before the row goes, while its ties to other leads are still there.
CREATE TRIGGER campaign_daily_delete BEFORE DELETE ON leads BEGIN
  UPDATE campaign_daily SET leads = leads - 1, delivered = delivered - OLD.jetimob_enviado,
      duplicates = duplicates - EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.id),
      meta_sent = meta_sent - EXISTS (SELECT 1 FROM deliveries
        WHERE lead_id = OLD.id AND destination = 'meta' AND status = 'sent')
    WHERE day = date(OLD.created_at / 1000 - 10800, 'unixepoch') AND source = OLD.source
      AND campaign = coalesce(OLD.utm_campaign, '') AND content = coalesce(OLD.utm_content, '');
END;

CREATE TRIGGER campaign_daily_delivered AFTER UPDATE OF delivery_status ON leads
  WHEN OLD.jetimob_enviado IS NOT NEW.jetimob_enviado
BEGIN
  UPDATE campaign_daily SET delivered = delivered + NEW.jetimob_enviado - OLD.jetimob_enviado
    WHERE day = date(NEW.created_at / 1000 - 10800, 'unixepoch') AND source = NEW.source
      AND campaign = coalesce(NEW.utm_campaign, '') AND content = coalesce(NEW.utm_content, '');
END;

-- A lead counts once however many leads it is tied to. A lead's own ties
-- go with it (counted above); its other lead's count moves here.
CREATE TRIGGER campaign_daily_link AFTER INSERT ON lead_links
  WHEN (SELECT count(*) FROM lead_links WHERE lead_id = NEW.lead_id) = 1
BEGIN
  UPDATE campaign_daily SET duplicates = duplicates + 1
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = NEW.lead_id);
END;

CREATE TRIGGER campaign_daily_unlink AFTER DELETE ON lead_links
  WHEN NOT EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.lead_id)
BEGIN
  UPDATE campaign_daily SET duplicates = duplicates - 1
    WHERE (day, source, campaign, content) = (
      SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
        coalesce(utm_content, '')
      FROM leads WHERE id = OLD.lead_id);
END;

-- The leads waiting for their first contact ('Não contatados', 0023): kept by
-- the triggers below, as lead_counters is, so a panel load reads one row.
CREATE TABLE contact_counters (
  name TEXT PRIMARY KEY CHECK (name IN ('uncontacted')),
  n    INTEGER NOT NULL
) WITHOUT ROWID;

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

-- The owners' choices for the panel (0023): the target for the time to first
-- contact, in minutes ('contact_target_minutes', 5 until changed), and
-- whether new colleagues start with the new-lead notices on
-- ('colleague_notices', 1: on).
CREATE TABLE panel_settings (
  name  TEXT PRIMARY KEY CHECK (name IN ('contact_target_minutes', 'colleague_notices')),
  value INTEGER NOT NULL
) WITHOUT ROWID;

-- What each lead costs (0024): spend by import and by day and line, and the
-- report's sums by week and the chart's rows, kept by triggers.
-- An import: who made it (staff_id NULL: the cron, from Meta's
-- API), from what ('planilha', 'meta', 'google': a file; 'meta_api'), its
-- lines and days, its total, and what it changed when it was made: lines new,
-- lines whose amount it replaced, lines it left as they were, and by how much
-- the spend grew (negative: shrank). `token` names it within the batch that
-- makes it.
CREATE TABLE spend_imports (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  token       TEXT NOT NULL UNIQUE,
  at          INTEGER NOT NULL,
  staff_id    TEXT,
  staff_email TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('planilha', 'meta', 'google', 'meta_api')),
  file_name   TEXT,
  lines       INTEGER NOT NULL,
  first_day   TEXT NOT NULL,
  last_day    TEXT NOT NULL,
  cents       INTEGER NOT NULL,
  added       INTEGER NOT NULL DEFAULT 0,
  changed     INTEGER NOT NULL DEFAULT 0,
  unchanged   INTEGER NOT NULL DEFAULT 0,
  added_cents INTEGER NOT NULL DEFAULT 0,
  undone_at   INTEGER,
  undone_by   TEXT
);
CREATE INDEX spend_imports_newest ON spend_imports (at);

-- Each line of an import: a day, a source (one name; 'Meta' for the whole
-- platform), a campaign and an ad ('' for none) by name, their ids when the
-- file gave them (a link may carry the id instead of the name), the amount.
CREATE TABLE spend_import_rows (
  import_id   INTEGER NOT NULL,
  day         TEXT NOT NULL,
  source      TEXT NOT NULL,
  campaign    TEXT NOT NULL,
  content     TEXT NOT NULL,
  campaign_id TEXT NOT NULL DEFAULT '',
  content_id  TEXT NOT NULL DEFAULT '',
  cents       INTEGER NOT NULL CHECK (cents >= 0),
  PRIMARY KEY (import_id, day, source, campaign, content)
) WITHOUT ROWID;
CREATE INDEX spend_import_rows_line ON spend_import_rows (day, source, campaign, content, import_id);

-- The spend the report reads: one row per day and line, from the newest
-- import not undone that named it.
CREATE TABLE campaign_spend (
  day         TEXT NOT NULL,
  source      TEXT NOT NULL,
  campaign    TEXT NOT NULL,
  content     TEXT NOT NULL,
  campaign_id TEXT NOT NULL DEFAULT '',
  content_id  TEXT NOT NULL DEFAULT '',
  cents       INTEGER NOT NULL,
  import_id   INTEGER NOT NULL,
  PRIMARY KEY (day, source, campaign, content)
) WITHOUT ROWID;
CREATE INDEX campaign_spend_import ON campaign_spend (import_id);

-- Sums by week (`week`: its Monday) and the chart's rows, kept with the daily rows.
CREATE TABLE campaign_weekly (
  week       TEXT NOT NULL,
  source     TEXT NOT NULL,
  campaign   TEXT NOT NULL,
  content    TEXT NOT NULL,
  visits     INTEGER NOT NULL DEFAULT 0,
  leads      INTEGER NOT NULL DEFAULT 0,
  delivered  INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  meta_sent  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (week, source, campaign, content)
) WITHOUT ROWID;

CREATE TABLE source_daily (
  day    TEXT NOT NULL,
  source TEXT NOT NULL,
  visits INTEGER NOT NULL DEFAULT 0,
  leads  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source)
) WITHOUT ROWID;

-- `n`: the days with spend in the week (a line with spend of R$ 0,00 has spend).
CREATE TABLE spend_weekly (
  week        TEXT NOT NULL,
  source      TEXT NOT NULL,
  campaign    TEXT NOT NULL,
  content     TEXT NOT NULL,
  campaign_id TEXT NOT NULL DEFAULT '',
  content_id  TEXT NOT NULL DEFAULT '',
  cents       INTEGER NOT NULL DEFAULT 0,
  n           INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (week, source, campaign, content)
) WITHOUT ROWID;

-- The daily rows' key never changes: an update moves only their figures.
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

CREATE TRIGGER campaign_weekly_delete AFTER DELETE ON campaign_daily BEGIN
  UPDATE campaign_weekly SET visits = visits - OLD.visits, leads = leads - OLD.leads,
      delivered = delivered - OLD.delivered, duplicates = duplicates - OLD.duplicates,
      meta_sent = meta_sent - OLD.meta_sent
    WHERE week = date(OLD.day, '-6 days', 'weekday 1') AND source = OLD.source
      AND campaign = OLD.campaign AND content = OLD.content;
  UPDATE source_daily SET visits = visits - OLD.visits, leads = leads - OLD.leads
    WHERE day = OLD.day AND source = OLD.source;
END;

CREATE TRIGGER spend_weekly_insert AFTER INSERT ON campaign_spend BEGIN
  INSERT INTO spend_weekly (week, source, campaign, content, campaign_id, content_id, cents, n)
  VALUES (date(NEW.day, '-6 days', 'weekday 1'), NEW.source, NEW.campaign, NEW.content,
    NEW.campaign_id, NEW.content_id, NEW.cents, 1)
  ON CONFLICT (week, source, campaign, content) DO UPDATE SET cents = cents + excluded.cents, n = n + 1,
    campaign_id = max(campaign_id, excluded.campaign_id), content_id = max(content_id, excluded.content_id);
END;

CREATE TRIGGER spend_weekly_update AFTER UPDATE ON campaign_spend BEGIN
  UPDATE spend_weekly SET cents = cents + NEW.cents - OLD.cents,
      campaign_id = max(campaign_id, NEW.campaign_id), content_id = max(content_id, NEW.content_id)
    WHERE week = date(NEW.day, '-6 days', 'weekday 1') AND source = NEW.source
      AND campaign = NEW.campaign AND content = NEW.content;
END;

CREATE TRIGGER spend_weekly_delete AFTER DELETE ON campaign_spend BEGIN
  UPDATE spend_weekly SET cents = cents - OLD.cents, n = n - 1
    WHERE week = date(OLD.day, '-6 days', 'weekday 1') AND source = OLD.source
      AND campaign = OLD.campaign AND content = OLD.content;
END;

-- A lead's delivery to each destination besides Jetimob (whose own is in the
-- lead's columns), made with the lead for each destination it is for (0025;
-- worker/src/delivery/): the Meta Conversions API; and the visitor's answers
-- to Jetimob (0026), made due whenever an answer changes, sent once Jetimob
-- has the lead. No row: 'não se aplica'.
-- Claimed with a lease before each attempt, retried with backoff, 'sent',
-- 'failed' (refused for itself) or 'expired' (its window over: Meta takes no
-- event older than 7 days; Jetimob gets a week of retries). `event_at` is the
-- lead's time, its event's; for answers, when they last changed.
CREATE TABLE deliveries (
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
-- The cron's claim: what is due to a destination, oldest due first.
CREATE INDEX deliveries_due ON deliveries (destination, next_attempt_at) WHERE status = 'pending';

-- A delivery to Meta that becomes sent (or stops being) moves its lead's day
-- and campaign; one written as sent (a backup restored) counts too.
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

-- Google Ads' conversions file: the leads of the last 90 days with a Google click (0025).
CREATE INDEX leads_google_clicks ON leads (created_at)
  WHERE gclid IS NOT NULL OR gbraid IS NOT NULL OR wbraid IS NOT NULL;
