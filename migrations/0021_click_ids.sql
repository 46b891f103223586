-- Migration 0021: the click ids the ad platforms add to a page's address
-- besides gclid and fbclid, kept with each lead's first touch and each
-- submission, as every other field of the attribution
-- (worker/src/attribution.rs, `attribution_fields!`):
--   gbraid, wbraid  Google Ads clicks from apps on iOS (instead of gclid)
--   msclkid         Microsoft Advertising
--   ttclid          TikTok
-- A lead or submission stored before has none: NULL.

ALTER TABLE leads ADD COLUMN gbraid TEXT;
ALTER TABLE leads ADD COLUMN wbraid TEXT;
ALTER TABLE leads ADD COLUMN msclkid TEXT;
ALTER TABLE leads ADD COLUMN ttclid TEXT;

ALTER TABLE lead_submissions ADD COLUMN gbraid TEXT;
ALTER TABLE lead_submissions ADD COLUMN wbraid TEXT;
ALTER TABLE lead_submissions ADD COLUMN msclkid TEXT;
ALTER TABLE lead_submissions ADD COLUMN ttclid TEXT;
