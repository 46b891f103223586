-- Migration 0022: what a lead says of itself beyond its three fields.
--
-- `landline`: the WhatsApp number is a Brazilian landline (a DDD and eight
-- digits starting 2 to 5; a mobile has nine, starting with 9), so the team
-- calls it rather than writing on WhatsApp. Read from the number, as
-- `jetimob_enviado` is read from the delivery status (0017): every way a
-- number is written (a new lead, the visitor's correction, a change staff
-- accept) marks it, and the mark cannot disagree with the number. The tests
-- of worker/src/whatsapp.rs hold this pattern to the number's parse (two
-- patterns: D1 refuses one past 50 characters).
--
-- `answers`: the optional questions of agency.json the visitor answered
-- after 'Sucesso!', a JSON object of question id → the option chosen, as it
-- read (NULL: none answered); `answers_at`, when they last changed, for the
-- delivery that will tell the CRM.

ALTER TABLE leads ADD COLUMN landline INTEGER
  GENERATED ALWAYS AS (
    whatsapp GLOB '+55[1-9][0-9][2-5]???????'
    AND NOT substr(whatsapp, 2) GLOB '*[^0-9]*') VIRTUAL;
ALTER TABLE leads ADD COLUMN answers TEXT CHECK (answers IS NULL OR json_valid(answers));
ALTER TABLE leads ADD COLUMN answers_at INTEGER;
