-- Migration 0008: the delivery watch hears about corrections too. A visitor's
-- correction that has not reached Jetimob after 15 minutes (still retried, or
-- given up after a week) opens an incident, as an undelivered lead does: until
-- it arrives, the CRM holds the visitor's old details.
--
-- Every cron run asks when the oldest waiting correction was asked for. This
-- index answers that from its first entry, whatever the number of leads.
CREATE INDEX leads_corrections_waiting ON leads (update_requested_at)
  WHERE update_status IS NOT NULL;
