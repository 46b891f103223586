-- Migration 0014: deleting a lead takes its WhatsApp out of the other
-- leads' stories too.
--
-- A form with one lead's e-mail and another lead's WhatsApp is kept on the
-- e-mail's lead as a 'conflict' submission (it changed nothing), and the two
-- are linked ('Possível duplicado'). Deleting the WhatsApp's lead, as a
-- visitor asking to be forgotten would have staff do, left their number in
-- that submission. Before the lead goes (its links still there), the
-- conflicts on its linked leads that carry one of its numbers go, and those
-- leads' submission counts with them.
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
