-- Migration 0020: a campaign report nobody can blind. Visits are counted under
-- what the report shows, and one network can make only a few new lines a day.
--
-- Until now a visit's key also held its medium, its keyword and its referrer's
-- host, none of which the report shows, and a day took 500 keys: one address
-- sending ~500 made-up keywords filled the day, and every campaign started
-- later that day was counted under '(outras)'. Now a visit counts under its
-- day, source, campaign and ad; a lead still keeps its own medium, keyword and
-- referrer (the lead's page, the CSV). Which visit may make a new key is
-- worker/src/campaigns/visits.rs's (docs/campaigns.md).

-- The counters, keyed as the report reads them. Each old day's keys that differ
-- only in medium, keyword or referrer's host are added into one: the report,
-- which reads campaign_daily (unchanged here), says the same of every old day.
CREATE TABLE visit_counts_by_line (
  day      TEXT NOT NULL,
  source   TEXT NOT NULL,
  campaign TEXT NOT NULL,
  content  TEXT NOT NULL,
  n        INTEGER NOT NULL,
  PRIMARY KEY (day, source, campaign, content)
) WITHOUT ROWID;

INSERT INTO visit_counts_by_line (day, source, campaign, content, n)
  SELECT day, source, campaign, content, sum(n) FROM visit_counts GROUP BY 1, 2, 3, 4;

DROP TABLE visit_counts;
ALTER TABLE visit_counts_by_line RENAME TO visit_counts;

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
