-- Migration 0024: what each lead costs. One name per source, what campaigns
-- spent, and the report's sums by week, so a period can be set beside the one
-- before it within the same rows.
--
-- 1. One name per source. A link's utm_source 'Instagram', 'instagram' and
--    'ig' are one source, 'Instagram' (worker/src/campaigns/sources.rs holds
--    the table; a test there keeps these rows equal to it). The leads, the
--    visit counters and the report's daily rows kept under another spelling
--    take the source's name; the daily rows that meet under one name are added
--    into one. A source the table does not know keeps its name.
-- 2. The right to import spend ('Importar investimento'), which owners give
--    in 'Equipe' like the other rights. Nobody has it until an owner gives it.
-- 3. Spend: what each import brought, line by line (spend_import_rows), and
--    what the report reads (campaign_spend): per Brasília day, source,
--    campaign and ad, the amount in cents of the newest import not undone
--    that named it. Undoing an import gives each of its lines back the
--    amount of the newest other import not undone, or none.
-- 4. Sums by week (Monday to Sunday) of the report's daily rows and of the
--    spend, and the visits and leads of each day by source (the chart), kept
--    by triggers on the daily rows: a 30-day report and the 30 days before it
--    read whole weeks from these and only the days at the edges from the
--    daily rows (docs/performance.md).

-- 1. One name per source.
CREATE TABLE source_aliases (alias TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO source_aliases (alias, name) VALUES
  ('instagram', 'Instagram'),
  ('ig', 'Instagram'),
  ('insta', 'Instagram'),
  ('facebook', 'Facebook'),
  ('fb', 'Facebook'),
  ('face', 'Facebook'),
  ('messenger', 'Messenger'),
  ('msg', 'Messenger'),
  ('fb_messenger', 'Messenger'),
  ('audience network', 'Audience Network'),
  ('an', 'Audience Network'),
  ('audience_network', 'Audience Network'),
  ('audiencenetwork', 'Audience Network'),
  ('threads', 'Threads'),
  ('meta', 'Meta'),
  ('meta ads', 'Meta'),
  ('meta_ads', 'Meta'),
  ('metaads', 'Meta'),
  ('google', 'Google'),
  ('adwords', 'Google'),
  ('gads', 'Google'),
  ('google ads', 'Google'),
  ('google_ads', 'Google'),
  ('google-ads', 'Google'),
  ('googleads', 'Google'),
  ('youtube', 'YouTube'),
  ('yt', 'YouTube'),
  ('tiktok', 'TikTok'),
  ('tt', 'TikTok'),
  ('tik tok', 'TikTok'),
  ('tiktok ads', 'TikTok'),
  ('linkedin', 'LinkedIn'),
  ('lnkd', 'LinkedIn'),
  ('x', 'X'),
  ('twitter', 'X'),
  ('bing', 'Bing'),
  ('microsoft', 'Bing'),
  ('microsoft ads', 'Bing'),
  ('msads', 'Bing'),
  ('whatsapp', 'WhatsApp'),
  ('wa', 'WhatsApp'),
  ('whats', 'WhatsApp'),
  ('zap', 'WhatsApp'),
  ('e-mail', 'E-mail'),
  ('email', 'E-mail'),
  ('newsletter', 'E-mail'),
  ('mail', 'E-mail'),
  ('yahoo', 'Yahoo'),
  ('duckduckgo', 'DuckDuckGo'),
  ('direto', 'Direto'),
  ('direct', 'Direto'),
  ('(direct)', 'Direto');

UPDATE leads SET source = (SELECT name FROM source_aliases WHERE alias = lower(leads.source))
  WHERE EXISTS (SELECT 1 FROM source_aliases WHERE alias = lower(leads.source) AND name != leads.source);

INSERT INTO campaign_daily (day, source, campaign, content, visits, leads, delivered, duplicates)
  SELECT d.day, a.name, d.campaign, d.content, d.visits, d.leads, d.delivered, d.duplicates
  FROM campaign_daily d JOIN source_aliases a ON a.alias = lower(d.source)
  WHERE d.source != a.name
  ON CONFLICT (day, source, campaign, content) DO UPDATE SET visits = visits + excluded.visits,
    leads = leads + excluded.leads, delivered = delivered + excluded.delivered,
    duplicates = duplicates + excluded.duplicates;
DELETE FROM campaign_daily WHERE EXISTS (SELECT 1 FROM source_aliases a
  WHERE a.alias = lower(campaign_daily.source) AND a.name != campaign_daily.source);

INSERT INTO visit_counts (day, source, campaign, content, n)
  SELECT v.day, a.name, v.campaign, v.content, v.n
  FROM visit_counts v JOIN source_aliases a ON a.alias = lower(v.source)
  WHERE v.source != a.name
  ON CONFLICT (day, source, campaign, content) DO UPDATE SET n = n + excluded.n;
DELETE FROM visit_counts WHERE EXISTS (SELECT 1 FROM source_aliases a
  WHERE a.alias = lower(visit_counts.source) AND a.name != visit_counts.source);

DROP TABLE source_aliases;

-- 2. The right to import spend.
ALTER TABLE staff_users ADD COLUMN can_import_spend INTEGER NOT NULL DEFAULT 0
  CHECK (can_import_spend IN (0, 1));

-- 3. Spend. An import: who made it (staff_id NULL: the cron, from Meta's
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

-- 4. Sums by week (`week`: its Monday) and the chart's rows, kept with the daily rows.
CREATE TABLE campaign_weekly (
  week       TEXT NOT NULL,
  source     TEXT NOT NULL,
  campaign   TEXT NOT NULL,
  content    TEXT NOT NULL,
  visits     INTEGER NOT NULL DEFAULT 0,
  leads      INTEGER NOT NULL DEFAULT 0,
  delivered  INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
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

INSERT INTO campaign_weekly (week, source, campaign, content, visits, leads, delivered, duplicates)
  SELECT date(day, '-6 days', 'weekday 1'), source, campaign, content, sum(visits), sum(leads),
    sum(delivered), sum(duplicates)
  FROM campaign_daily GROUP BY 1, 2, 3, 4;
INSERT INTO source_daily (day, source, visits, leads)
  SELECT day, source, sum(visits), sum(leads) FROM campaign_daily GROUP BY 1, 2;

-- The daily rows' key never changes: an update moves only their figures.
CREATE TRIGGER campaign_weekly_insert AFTER INSERT ON campaign_daily BEGIN
  INSERT INTO campaign_weekly (week, source, campaign, content, visits, leads, delivered, duplicates)
  VALUES (date(NEW.day, '-6 days', 'weekday 1'), NEW.source, NEW.campaign, NEW.content, NEW.visits,
    NEW.leads, NEW.delivered, NEW.duplicates)
  ON CONFLICT (week, source, campaign, content) DO UPDATE SET visits = visits + excluded.visits,
    leads = leads + excluded.leads, delivered = delivered + excluded.delivered,
    duplicates = duplicates + excluded.duplicates;
  INSERT INTO source_daily (day, source, visits, leads) VALUES (NEW.day, NEW.source, NEW.visits, NEW.leads)
  ON CONFLICT (day, source) DO UPDATE SET visits = visits + excluded.visits, leads = leads + excluded.leads;
END;

CREATE TRIGGER campaign_weekly_update AFTER UPDATE ON campaign_daily BEGIN
  UPDATE campaign_weekly SET visits = visits + NEW.visits - OLD.visits, leads = leads + NEW.leads - OLD.leads,
      delivered = delivered + NEW.delivered - OLD.delivered,
      duplicates = duplicates + NEW.duplicates - OLD.duplicates
    WHERE week = date(NEW.day, '-6 days', 'weekday 1') AND source = NEW.source
      AND campaign = NEW.campaign AND content = NEW.content;
  UPDATE source_daily SET visits = visits + NEW.visits - OLD.visits, leads = leads + NEW.leads - OLD.leads
    WHERE day = NEW.day AND source = NEW.source;
END;

CREATE TRIGGER campaign_weekly_delete AFTER DELETE ON campaign_daily BEGIN
  UPDATE campaign_weekly SET visits = visits - OLD.visits, leads = leads - OLD.leads,
      delivered = delivered - OLD.delivered, duplicates = duplicates - OLD.duplicates
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
