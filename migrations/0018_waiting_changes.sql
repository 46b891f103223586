-- Migration 0018: changes waiting for staff stay few and visible.
--
-- 1. A change kept aside ('pending', 'Alteração pendente') remembers who
--    sent it while it waits: `sender`, a keyed hash of the sender's network
--    (never the address), cleared once the change is decided. A newer change
--    to the same lead from the same sender replaces the older, and a lead
--    holds at most a handful waiting (leads::store); what is set aside so is
--    kept in the lead's story as refused, with why (`auto_refused`:
--    'replaced' by a newer one from the same sender, or over the 'limit').
-- 2. The new-lead notices tell of waiting changes too: their look-up reads
--    an index that holds them.

ALTER TABLE lead_submissions ADD COLUMN sender TEXT;
ALTER TABLE lead_submissions ADD COLUMN auto_refused TEXT
  CHECK (auto_refused IS NULL OR auto_refused IN ('replaced', 'limit'));

CREATE INDEX lead_submissions_notices ON lead_submissions (id)
  WHERE kind IN ('new', 'correction', 'pending');
