-- Migration 0015: which campaign works. Visits counted per day and where
-- they came from, each lead's source, visits and leads counted side by side
-- per day and campaign, and campaign names found by the search.
--
-- The campaign report sets visits beside leads for a period: it reads one
-- row per Brasília day (UTC−3, no daylight saving since 2019) and campaign
-- (campaign_daily), so a 30-day report reads a few thousand rows at most
-- whatever the number of leads and visits. Empty text stands for a missing
-- UTM field in the counters' keys (NULLs would never collide in a key).

-- Visits to the site from outside, counted by the worker after it answered
-- the page: counts only, never an address, a browser or an identifier.
-- `source` is the utm_source, else where the visitor came from (see
-- `attribution.rs`): a family of sites ('instagram', 'google', 'whatsapp'),
-- another site's host, or 'direto'; `referrer_host` the referrer's host for
-- a visit without utm_source. Past a day's limit of distinct keys, visits
-- are counted under source '(outras)'. The report reads campaign_daily,
-- which the same batch adds each visit to; this keeps the medium, the
-- keyword and the referrer's host.
CREATE TABLE visit_counts (
  day           TEXT NOT NULL,
  source        TEXT NOT NULL,
  medium        TEXT NOT NULL,
  campaign      TEXT NOT NULL,
  content       TEXT NOT NULL,
  term          TEXT NOT NULL,
  referrer_host TEXT NOT NULL,
  n             INTEGER NOT NULL,
  PRIMARY KEY (day, source, medium, campaign, content, term, referrer_host)
) WITHOUT ROWID;

-- Each lead's source, by the same rule as a visit's, written with the lead.
-- Leads from before: their utm_source; else their referrer's host (their
-- origem was that host) or its family; else a click id's network; else
-- 'direto'. The families are attribution.rs's.
ALTER TABLE leads ADD COLUMN source TEXT NOT NULL DEFAULT 'direto';
ALTER TABLE leads ADD COLUMN referrer_host TEXT;

UPDATE leads SET referrer_host = origem
  WHERE utm_source IS NULL AND referrer IS NOT NULL AND origem != 'site';

UPDATE leads SET source = CASE
    WHEN utm_source IS NOT NULL THEN utm_source
    WHEN gclid IS NOT NULL THEN 'google'
    WHEN referrer_host IS NOT NULL THEN CASE
      WHEN referrer_host IN ('instagram.com', 'com.instagram.android', 'ig.me')
        OR referrer_host LIKE '%.instagram.com' THEN 'instagram'
      WHEN referrer_host IN ('facebook.com', 'fb.com', 'fb.me', 'm.me', 'messenger.com',
          'com.facebook.katana', 'com.facebook.orca', 'com.facebook.lite')
        OR referrer_host LIKE '%.facebook.com' OR referrer_host LIKE '%.messenger.com' THEN 'facebook'
      WHEN referrer_host IN ('whatsapp.com', 'whatsapp.net', 'wa.me', 'com.whatsapp', 'com.whatsapp.w4b')
        OR referrer_host LIKE '%.whatsapp.com' OR referrer_host LIKE '%.whatsapp.net' THEN 'whatsapp'
      WHEN referrer_host IN ('google.com', 'google.com.br', 'googleadservices.com', 'googlesyndication.com',
          'com.google.android.googlequicksearchbox', 'com.google.android.gm')
        OR referrer_host LIKE '%.google.com' OR referrer_host LIKE '%.google.com.br'
        OR referrer_host LIKE '%.googleadservices.com' OR referrer_host LIKE '%.googlesyndication.com' THEN 'google'
      WHEN referrer_host IN ('youtube.com', 'youtu.be', 'com.google.android.youtube')
        OR referrer_host LIKE '%.youtube.com' THEN 'youtube'
      WHEN referrer_host IN ('tiktok.com', 'com.zhiliaoapp.musically', 'com.ss.android.ugc.trill')
        OR referrer_host LIKE '%.tiktok.com' THEN 'tiktok'
      WHEN referrer_host IN ('linkedin.com', 'lnkd.in', 'com.linkedin.android')
        OR referrer_host LIKE '%.linkedin.com' THEN 'linkedin'
      WHEN referrer_host IN ('x.com', 'twitter.com', 't.co', 'com.twitter.android')
        OR referrer_host LIKE '%.x.com' OR referrer_host LIKE '%.twitter.com' THEN 'x'
      WHEN referrer_host = 'bing.com' OR referrer_host LIKE '%.bing.com' THEN 'bing'
      WHEN referrer_host IN ('yahoo.com', 'yahoo.com.br')
        OR referrer_host LIKE '%.yahoo.com' OR referrer_host LIKE '%.yahoo.com.br' THEN 'yahoo'
      WHEN referrer_host = 'duckduckgo.com' OR referrer_host LIKE '%.duckduckgo.com' THEN 'duckduckgo'
      ELSE referrer_host
    END
    WHEN fbclid IS NOT NULL THEN 'facebook'
    ELSE 'direto'
  END;

-- The lead list filtered to a source, a campaign and an ad, newest first.
CREATE INDEX leads_source_newest
  ON leads (source, utm_campaign, utm_content, created_at DESC, id DESC);

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
  PRIMARY KEY (day, source, campaign, content)
) WITHOUT ROWID;
-- A lead list narrowed to a campaign counts its leads here.
CREATE INDEX campaign_daily_campaign ON campaign_daily (source, campaign, content, day);

INSERT INTO campaign_daily (day, source, campaign, content, leads, delivered, duplicates)
  SELECT date(created_at / 1000 - 10800, 'unixepoch'), source, coalesce(utm_campaign, ''),
    coalesce(utm_content, ''), count(*), sum(jetimob_enviado),
    sum(EXISTS (SELECT 1 FROM lead_links k WHERE k.lead_id = leads.id))
  FROM leads GROUP BY 1, 2, 3, 4;

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
      duplicates = duplicates - EXISTS (SELECT 1 FROM lead_links WHERE lead_id = OLD.id)
    WHERE day = date(OLD.created_at / 1000 - 10800, 'unixepoch') AND source = OLD.source
      AND campaign = coalesce(OLD.utm_campaign, '') AND content = coalesce(OLD.utm_content, '');
END;

CREATE TRIGGER campaign_daily_delivered AFTER UPDATE OF jetimob_enviado ON leads
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

INSERT INTO leads_search (lead_id, body)
  SELECT id, trim(coalesce(utm_campaign, '') || ' ' || coalesce(utm_content, '') || ' '
    || coalesce(utm_term, ''))
  FROM leads WHERE coalesce(utm_campaign, utm_content, utm_term) IS NOT NULL ORDER BY id;
INSERT INTO leads_search_rows (search_rowid, lead_id)
  SELECT rowid, lead_id FROM leads_search
  WHERE rowid NOT IN (SELECT search_rowid FROM leads_search_rows);
