//! Spend in D1: an import is one batch, so a file is kept whole or not at
//! all; each line replaces what its day and line (source, campaign, ad) had,
//! and the import keeps what it brought so it can be undone.

use serde::{Deserialize, Serialize};

use super::parse::{Kind, SpendLine};
use crate::audit::live_session::may_act;
use crate::platform::db::{self, D1Database, query};

/// Lines bound as one JSON parameter: D1 takes a value of up to 2 MB.
const LINES_PER_STATEMENT: usize = 2_000;

/// Who makes an import: a person (by their session, which must still
/// act and hold the right when the batch runs) or the cron.
pub enum Importer<'a> {
    Staff {
        user_id: &'a str,
        email: &'a str,
        session_id: &'a str,
    },
    /// Meta's Marketing API, read by the cron.
    Cron,
}

/// Who the cron's imports are said to be by.
pub const CRON_IMPORTER: &str = "Meta (automático)";

/// `?4` session `?5` may still act at `?1` and may import spend.
macro_rules! may_import {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM staff_sessions ls JOIN staff_users lu ON lu.id = ls.user_id \
             WHERE ls.id = ?5 AND ",
            may_act!("ls", "lu", "?1"),
            " AND (lu.role = ",
            crate::agency::roles::role_sql!(Owner),
            " OR lu.can_import_spend = 1))"
        )
    };
}

/// The import itself: `?1` now, `?2` token, `?3` staff id, `?4` who, `?5`
/// the session (or '' for the cron: `?11` 1), `?6` kind, `?7` file name,
/// `?8` lines, `?9` first day, `?10` last day, `?12` total.
const IMPORT_SQL: &str = concat!(
    "INSERT INTO spend_imports (at, token, staff_id, staff_email, kind, file_name, lines, \
       first_day, last_day, cents) \
     SELECT ?1, ?2, ?3, ?4, ?6, ?7, ?8, ?9, ?10, ?12 WHERE ?11 = 1 OR ",
    may_import!()
);

/// The import's lines, from a JSON array of [`SpendLine`]s (`?2`), under
/// the import named `?1`.
const LINES_SQL: &str = "INSERT INTO spend_import_rows (import_id, day, source, campaign, content, \
       campaign_id, content_id, cents) \
     SELECT i.id, json_extract(j.value, '$.day'), json_extract(j.value, '$.source'), \
       json_extract(j.value, '$.campaign'), json_extract(j.value, '$.content'), \
       json_extract(j.value, '$.campaign_id'), json_extract(j.value, '$.content_id'), \
       json_extract(j.value, '$.cents') \
     FROM spend_imports i, json_each(?2) j WHERE i.token = ?1";

/// What the import changes, told before it does: lines new, lines whose
/// amount it replaces, lines it leaves as they were, and by how much it
/// grows the spend.
const WHAT_IT_ADDS_SQL: &str = "UPDATE spend_imports SET \
       added = (SELECT count(*) FROM spend_import_rows r WHERE r.import_id = spend_imports.id \
         AND NOT EXISTS (SELECT 1 FROM campaign_spend s WHERE s.day = r.day AND s.source = r.source \
           AND s.campaign = r.campaign AND s.content = r.content)), \
       changed = (SELECT count(*) FROM spend_import_rows r JOIN campaign_spend s ON s.day = r.day \
         AND s.source = r.source AND s.campaign = r.campaign AND s.content = r.content \
         WHERE r.import_id = spend_imports.id AND s.cents != r.cents), \
       unchanged = (SELECT count(*) FROM spend_import_rows r JOIN campaign_spend s ON s.day = r.day \
         AND s.source = r.source AND s.campaign = r.campaign AND s.content = r.content \
         WHERE r.import_id = spend_imports.id AND s.cents = r.cents), \
       added_cents = (SELECT coalesce(sum(r.cents - coalesce(s.cents, 0)), 0) \
         FROM spend_import_rows r LEFT JOIN campaign_spend s ON s.day = r.day \
         AND s.source = r.source AND s.campaign = r.campaign AND s.content = r.content \
         WHERE r.import_id = spend_imports.id) \
     WHERE token = ?1";

/// Each line of the import becomes its day and line's spend.
const APPLY_SQL: &str = "INSERT INTO campaign_spend (day, source, campaign, content, campaign_id, \
       content_id, cents, import_id) \
     SELECT r.day, r.source, r.campaign, r.content, r.campaign_id, r.content_id, r.cents, r.import_id \
     FROM spend_import_rows r JOIN spend_imports i ON i.id = r.import_id WHERE i.token = ?1 \
     ON CONFLICT (day, source, campaign, content) DO UPDATE SET cents = excluded.cents, \
       campaign_id = excluded.campaign_id, content_id = excluded.content_id, \
       import_id = excluded.import_id";

/// An import as 'Investimento' lists it.
macro_rules! import_columns {
    () => {
        "id, at, staff_email, kind, file_name, lines, first_day, last_day, cents, added, changed, \
         unchanged, added_cents, undone_at, undone_by"
    };
}

const MADE_SQL: &str = concat!(
    "SELECT ",
    import_columns!(),
    " FROM spend_imports WHERE token = ?1"
);

/// The newest imports first.
const LIST_SQL: &str = concat!(
    "SELECT ",
    import_columns!(),
    " FROM spend_imports ORDER BY at DESC, id DESC LIMIT ?1"
);

/// An import, as 'Investimento' shows it; times in ms.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct ImportRow {
    pub id: i64,
    pub at: i64,
    pub staff_email: String,
    pub kind: String,
    pub file_name: Option<String>,
    pub lines: i64,
    pub first_day: String,
    pub last_day: String,
    pub cents: i64,
    pub added: i64,
    pub changed: i64,
    pub unchanged: i64,
    pub added_cents: i64,
    pub undone_at: Option<i64>,
    pub undone_by: Option<String>,
}

/// What an import is made of.
pub struct NewImport<'a> {
    pub kind: Kind,
    pub file_name: Option<&'a str>,
    pub lines: &'a [SpendLine],
}

/// Keeps `import` whole, in one batch: `None` if the person's session may no
/// longer act or import.
pub async fn import(
    db: &D1Database,
    importer: &Importer<'_>,
    import: &NewImport<'_>,
    token: &str,
    now: i64,
) -> worker::Result<Option<ImportRow>> {
    let first = import.lines.iter().map(|l| l.day.as_str()).min();
    let last = import.lines.iter().map(|l| l.day.as_str()).max();
    let total: i64 = import.lines.iter().map(|l| l.cents).sum();
    let (staff_id, email, session, cron) = match importer {
        Importer::Staff {
            user_id,
            email,
            session_id,
        } => (Some(*user_id), *email, *session_id, 0),
        Importer::Cron => (None, CRON_IMPORTER, "", 1),
    };
    let mut batch = db::Batch::new();
    batch.add(query!(
        db,
        IMPORT_SQL,
        now,
        token,
        staff_id,
        email,
        session,
        import.kind.name(),
        import.file_name,
        import.lines.len() as i64,
        first.unwrap_or_default(),
        last.unwrap_or_default(),
        cron,
        total
    ));
    for chunk in import.lines.chunks(LINES_PER_STATEMENT) {
        let json = serde_json::to_string(chunk)?;
        batch.add(query!(db, LINES_SQL, token, json));
    }
    batch.add(query!(db, WHAT_IT_ADDS_SQL, token));
    batch.add(query!(db, APPLY_SQL, token));
    let made = batch.push(query!(db, MADE_SQL, token));
    batch.run(db).await?.first(made)
}

/// The newest `limit` imports.
pub async fn list(db: &D1Database, limit: i64) -> worker::Result<Vec<ImportRow>> {
    db::rows_of(&query!(db, LIST_SQL, limit)).await
}

/// The undo: `?1` the import, `?2` now, `?3` who, `?4` the session.
const UNDO_SQL: &str = concat!(
    "UPDATE spend_imports SET undone_at = ?2, undone_by = ?3 WHERE id = ?1 AND undone_at IS NULL \
     AND EXISTS (SELECT 1 FROM staff_sessions ls JOIN staff_users lu ON lu.id = ls.user_id \
       WHERE ls.id = ?4 AND ",
    may_act!("ls", "lu", "?2"),
    " AND (lu.role = ",
    crate::agency::roles::role_sql!(Owner),
    " OR lu.can_import_spend = 1))"
);

/// The lines the undone import held go...
const RELEASE_SQL: &str = "DELETE FROM campaign_spend WHERE import_id = ?1 \
     AND EXISTS (SELECT 1 FROM spend_imports WHERE id = ?1 AND undone_at IS NOT NULL)";

/// ...and get back the amount of the newest other import not undone that
/// named them, if any (a line a later import holds keeps its amount).
const RESTORE_SQL: &str = "INSERT INTO campaign_spend (day, source, campaign, content, campaign_id, \
       content_id, cents, import_id) \
     SELECT r.day, r.source, r.campaign, r.content, r.campaign_id, r.content_id, r.cents, r.import_id \
     FROM spend_import_rows u JOIN spend_import_rows r ON r.day = u.day AND r.source = u.source \
       AND r.campaign = u.campaign AND r.content = u.content \
     WHERE u.import_id = ?1 AND r.import_id = (SELECT max(o.import_id) FROM spend_import_rows o \
       JOIN spend_imports i ON i.id = o.import_id \
       WHERE o.day = u.day AND o.source = u.source AND o.campaign = u.campaign \
         AND o.content = u.content AND i.undone_at IS NULL) \
     ON CONFLICT (day, source, campaign, content) DO NOTHING";

const FIND_SQL: &str = concat!(
    "SELECT ",
    import_columns!(),
    " FROM spend_imports WHERE id = ?1"
);

/// What undoing an import did.
pub enum Undone {
    Done(Box<ImportRow>),
    /// It was undone before.
    Already,
    NotFound,
    /// The session may no longer act or import.
    Refused,
}

/// Undoes import `id`, in one batch.
pub async fn undo(
    db: &D1Database,
    id: i64,
    email: &str,
    session_id: &str,
    now: i64,
) -> worker::Result<Undone> {
    let mut batch = db::Batch::new();
    let undone = batch.add(query!(db, UNDO_SQL, id, now, email, session_id));
    batch.add(query!(db, RELEASE_SQL, id));
    batch.add(query!(db, RESTORE_SQL, id));
    let found = batch.push::<ImportRow>(query!(db, FIND_SQL, id));
    let results = batch.run(db).await?;
    let applied = results.changes(undone) == 1;
    let found = results.first(found)?;
    Ok(match (found, applied) {
        (None, _) => Undone::NotFound,
        (Some(row), true) => Undone::Done(Box::new(row)),
        (Some(row), false) if row.undone_at.is_some() => Undone::Already,
        (Some(_), false) => Undone::Refused,
    })
}

/// The spend held now for the days `first`..=`last`: the cron's import
/// reads it first, to import only what changed.
const HELD_SQL: &str = "SELECT day, source, campaign, content, campaign_id, content_id, cents \
     FROM campaign_spend WHERE day BETWEEN ?1 AND ?2";

pub async fn held(db: &D1Database, first: &str, last: &str) -> worker::Result<Vec<SpendLine>> {
    db::rows_of(&query!(db, HELD_SQL, first, last)).await
}
