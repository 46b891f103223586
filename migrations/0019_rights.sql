-- Migration 0019: rights that mean something.
--
-- 1. 'Marcar Enviado' (and its 'Desfazer') is a right an owner can take
--    from a colleague, like 'Exportar CSV' and 'Excluir'. Every account
--    already there keeps it.
-- 2. The activity keeps what an entry needs beyond who, what and when
--    (`detail`, JSON, never a lead's personal data): an export's filter and
--    row count, which right a permission change gave or took, how many
--    leads someone read in an hour against how many they worked. It names a
--    new action, 'bulk_read' (owners told that someone reads far more leads
--    than they work), so the trail is rebuilt for its CHECK, every row with
--    its id, the id counter where it was.
-- 3. 'Atividade' filters by person, action and period: an index for each,
--    in the order it is read (newest first, by time then id: `at` is now
--    ascending, which read backwards gives both; DESC left the id's ties to
--    a sort).

-- 1. The right to mark a lead sent.
ALTER TABLE staff_users ADD COLUMN can_mark_sent INTEGER NOT NULL DEFAULT 1
  CHECK (can_mark_sent IN (0, 1));

-- 2. The activity, with its detail and the new action.
CREATE TABLE sequence_kept AS SELECT name, seq FROM sqlite_sequence WHERE name = 'audit_log';

CREATE TABLE audit_log_rebuilt (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  at          INTEGER NOT NULL,
  staff_id    TEXT,
  staff_email TEXT NOT NULL,
  action      TEXT NOT NULL CHECK (action IN (
                'mark_sent', 'unmark_sent', 'delete', 'resend', 'export',
                'accept_change', 'refuse_change',
                'sign_in', 'sign_in_failed', 'confirm', 'password_reset', 'password_change',
                'disable', 'enable', 'end_sessions', 'make_owner', 'remove_owner',
                'approve', 'refuse', 'permissions', 'bulk_read')),
  lead_id     TEXT,
  account_id  TEXT,
  detail      TEXT CHECK (detail IS NULL OR json_valid(detail))
);
INSERT INTO audit_log_rebuilt (id, at, staff_id, staff_email, action, lead_id, account_id)
  SELECT id, at, staff_id, staff_email, action, lead_id, account_id FROM audit_log;
DROP TABLE audit_log;
ALTER TABLE audit_log_rebuilt RENAME TO audit_log;
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_lead ON audit_log (lead_id) WHERE lead_id IS NOT NULL;

UPDATE sqlite_sequence SET seq = (SELECT seq FROM sequence_kept k WHERE k.name = sqlite_sequence.name)
  WHERE name IN (SELECT name FROM sequence_kept);
DROP TABLE sequence_kept;

-- 3. 'Atividade' by person (and the leads a person worked in an hour), by action.
CREATE INDEX audit_log_staff ON audit_log (staff_id, at) WHERE staff_id IS NOT NULL;
CREATE INDEX audit_log_action ON audit_log (action, at);
