-- Migration 0017: 'Enviado' is read from the delivery status, never kept
-- beside it.
--
-- `jetimob_enviado` (the specification's column) was written next to
-- `delivery_status` by every statement that delivered or marked a lead, two
-- facts that could disagree. It becomes a generated column, `delivery_status
-- = 'sent'`: read as before (0 or 1, in every query, index and export), and
-- written by nobody. The CRM's delivery (worker/src/crm/) is the one writer
-- of `delivery_status`.
--
-- SQLite drops a column only once no index or trigger names it: those that
-- read it go first and come back reading the generated column, and the
-- campaign report's 'delivered' now follows `delivery_status`.

DROP INDEX leads_sent_newest;
DROP TRIGGER campaign_daily_insert;
DROP TRIGGER campaign_daily_delete;
DROP TRIGGER campaign_daily_delivered;

ALTER TABLE leads DROP COLUMN jetimob_enviado;
ALTER TABLE leads ADD COLUMN jetimob_enviado INTEGER
  GENERATED ALWAYS AS (delivery_status = 'sent') VIRTUAL;

CREATE INDEX leads_sent_newest ON leads (jetimob_enviado, created_at DESC, id DESC);

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

CREATE TRIGGER campaign_daily_delivered AFTER UPDATE OF delivery_status ON leads
  WHEN OLD.jetimob_enviado IS NOT NEW.jetimob_enviado
BEGIN
  UPDATE campaign_daily SET delivered = delivered + NEW.jetimob_enviado - OLD.jetimob_enviado
    WHERE day = date(NEW.created_at / 1000 - 10800, 'unixepoch') AND source = NEW.source
      AND campaign = coalesce(NEW.utm_campaign, '') AND content = coalesce(NEW.utm_content, '');
END;
