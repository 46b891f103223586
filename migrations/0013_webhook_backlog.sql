-- Migration 0013: after the webhook's receiver was down, each cron run reads
-- the events it sends, not every event waiting.
--
-- A run claims up to six due events at a time, those of no lead first (an
-- incident, e-mail failing), then the longest due. With only the index on
-- next_attempt_at, SQLite read every due event and sorted them for each
-- claim: a day's outage on launch week leaves thousands waiting, read five
-- times a minute until they drained. This index is in the claim's order, so
-- a claim reads its six. The second one answers the delivery watch's
-- question (since when has the webhook refused an event three times, the
-- first try and the retries 1 and 5 minutes later?) from its first entry,
-- instead of reading every refused event each minute.
CREATE INDEX webhook_events_claim ON webhook_events (submission_id IS NOT NULL, next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_events_refused ON webhook_events (created_at)
  WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3;
