//! The panel's reads and writes on the leads table, and the audit trail.

use serde::Deserialize;

use crate::d1::{Count, D1Database, D1PreparedStatement, D1Result, Param, query, row};

use super::query::{CHANGES_SQL, COUNTS_SQL, Cursor, LEAD_COLUMNS, LeadQuery, PAGE_SIZE};

use crate::alerts::heartbeat::{self, Heartbeat};
use crate::alerts::incidents::{self, Incident};
use crate::auth::guard::Staff;
use crate::d1;
use crate::live_session::{live_row, session_is_live};
use crate::platform::HostResult;

row! {
    /// A lead as the panel and the export read it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct LeadRow {
        pub id: String,
        pub name: String,
        pub email: String,
        pub whatsapp: String,
        pub origem: String,
        pub jetimob_enviado: i64,
        pub delivery_status: String,
        pub delivery_attempts: i64,
        pub next_attempt_at: Option<i64>,
        pub last_error: Option<String>,
        pub sent_at: Option<i64>,
        pub sent_by: Option<String>,
        pub created_at: i64,
        pub submission_count: i64,
        pub last_submitted_at: i64,
        pub utm_source: Option<String>,
        pub utm_medium: Option<String>,
        pub utm_campaign: Option<String>,
        pub utm_term: Option<String>,
        pub utm_content: Option<String>,
        pub gclid: Option<String>,
        pub fbclid: Option<String>,
        pub referrer: Option<String>,
        /// Where it came from, as the campaign report groups it.
        pub source: String,
        /// The referrer's host, for a lead without utm_source.
        pub referrer_host: Option<String>,
        pub page_url: Option<String>,
        /// The correction's delivery: 'pending', 'failed' or none.
        pub update_status: Option<String>,
        pub update_last_error: Option<String>,
        /// Another lead a submission tied this one to.
        pub duplicate_of: Option<String>,
        /// The newest submission's time and attribution, as JSON ([`LastTouch`]).
        pub last_touch: Option<String>,
        /// Changes waiting for staff ('Alteração pendente').
        pub pending_changes: i64,
        /// Who marked it sent ('Marcar Enviado'), for a lead staff marked.
        pub marked_by: Option<String>,
    }
}

/// The newest submission of a lead: when, and where the visit came from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct LastTouch {
    pub at: i64,
    pub origem: String,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub gclid: Option<String>,
    pub fbclid: Option<String>,
}

impl LeadRow {
    pub fn last_touch(&self) -> Option<LastTouch> {
        serde_json::from_slice(self.last_touch.as_deref()?.as_bytes()).ok()
    }
}

/// Leads per delivery status, over all leads, the possible duplicates, and
/// the leads waiting for a person (delivery or correction given up).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub pending: i64,
    pub sent: i64,
    pub failed: i64,
    pub duplicates: i64,
    pub attention: i64,
    /// Leads with a change waiting for staff.
    pub pending_changes: i64,
}

impl Counts {
    pub fn total(&self) -> i64 {
        self.pending + self.sent + self.failed
    }
}

row! {
    struct Counter {
        name: String,
        n: i64,
    }
}

/// What the list's answer depends on besides its page: whether any lead
/// changed, and what the incident banner says.
pub struct ListState {
    /// The change counter (migration 0012): it moves whenever a lead does.
    /// `None` if its row is missing: then nothing can be told unchanged.
    pub changes: Option<i64>,
    pub incident: Option<Incident>,
    /// The cron's last delivery watch: the banner when it stopped.
    pub heartbeat: Heartbeat,
    /// What D1 read for it, for `make bench`.
    pub rows_read: usize,
}

/// What one panel load reads.
pub struct ListPage {
    pub leads: Vec<LeadRow>,
    pub counts: Counts,
    /// How many leads the search (or the duplicates filter with a search) matches.
    pub matches: Option<i64>,
    /// The state the page was read in (one batch, so they agree).
    pub state: ListState,
}

/// The statements [`ListState`] is read from, in its order.
fn state_statements(db: &D1Database) -> [D1PreparedStatement; 3] {
    [
        db.prepare(CHANGES_SQL),
        db.prepare(incidents::OPEN_SQL),
        db.prepare(heartbeat::READ_SQL),
    ]
}

/// [`ListState`] from the results of [`state_statements`], from `at` on.
fn state_from(results: &[D1Result], at: usize) -> HostResult<ListState> {
    Ok(ListState {
        changes: d1::first_row::<Count>(results, at)?.map(|c| c.n),
        incident: d1::first_row::<Incident>(results, at + 1)?,
        heartbeat: d1::first_row::<Heartbeat>(results, at + 2)?.unwrap_or_default(),
        rows_read: d1::cost(results).read,
    })
}

/// Whether any lead changed and what the banner says, without the page: a
/// few rows whatever the number of leads, for a reload that may be told
/// nothing changed.
pub async fn list_state(db: &D1Database) -> HostResult<ListState> {
    let results = db.batch(state_statements(db).into()).await?;
    state_from(&results, 0)
}

/// A page of the list, the counters, how many leads a search matches (when
/// there is one) and the [`ListState`], in one batch. The page is read from
/// where 'Próxima'/'Anterior' says it starts when it says so (an index
/// seek), else by its number.
pub async fn page_and_counts(db: &D1Database, q: &LeadQuery) -> HostResult<ListPage> {
    let term = q.search.bound();
    let page = match &q.cursor {
        Some(Cursor::After(at, id)) => {
            narrowed(db, &q.after_sql(), &[&term, at, id, &PAGE_SIZE], q)
        }
        Some(Cursor::Before(at, id)) => {
            narrowed(db, &q.before_sql(), &[&term, at, id, &PAGE_SIZE], q)
        }
        None => narrowed(db, &q.page_sql(), &[&term, &PAGE_SIZE, &q.offset()], q),
    };
    let mut statements = vec![page, db.prepare(COUNTS_SQL)];
    statements.extend(state_statements(db));
    if q.counted_daily() {
        let values = q.narrowing.daily_values();
        let params: Vec<&dyn Param> = values.iter().map(|v| v as &dyn Param).collect();
        statements.push(d1::bind(db, &q.narrowing.daily_count_sql(), &params));
    } else if term.is_some() || q.is_narrowed() {
        statements.push(narrowed(db, &q.count_sql(), &[&term], q));
    }
    let results = db.batch(statements).await?;
    let mut leads = d1::rows::<LeadRow>(&results, 0)?;
    if matches!(q.cursor, Some(Cursor::Before(..))) {
        leads.reverse();
    }
    let mut counts = Counts::default();
    for c in d1::rows::<Counter>(&results, 1)? {
        match c.name.as_str() {
            "sent" => counts.sent = c.n,
            "failed" => counts.failed = c.n,
            "pending" => counts.pending = c.n,
            "duplicates" => counts.duplicates = c.n,
            "pending_changes" => counts.pending_changes = c.n,
            "attention" => counts.attention = c.n,
            _ => {}
        }
    }
    let matches = d1::first_row::<Count>(&results, 5)?.map(|c| c.n);
    Ok(ListPage {
        leads,
        counts,
        matches,
        state: state_from(&results, 2)?,
    })
}

/// The newest `limit` leads of the filter: an export's first page, read
/// right after the request's own session check.
pub async fn first_page(db: &D1Database, q: &LeadQuery, limit: i64) -> HostResult<Vec<LeadRow>> {
    page_after_query(db, q, None, limit).all().await?.rows()
}

/// What an export page after the first read: the page, if `staff`'s session
/// may still read it (`Ok(None)` once it was ended or its account switched
/// off at `now`), asked in one batch.
pub async fn page_after_while_live(
    db: &D1Database,
    staff: &Staff,
    q: &LeadQuery,
    after: (i64, &str),
    limit: i64,
    now: i64,
) -> HostResult<Option<Vec<LeadRow>>> {
    let results = db
        .batch(vec![
            session_live(db, staff, now),
            page_after_query(db, q, Some(after), limit),
        ])
        .await?;
    if !d1::returned_row(&results, 0) {
        return Ok(None);
    }
    d1::rows(&results, 1).map(Some)
}

/// Up to `limit` leads after the one at (`created_at`, `id`), newest first;
/// from the newest when `after` is `None`.
fn page_after_query(
    db: &D1Database,
    q: &LeadQuery,
    after: Option<(i64, &str)>,
    limit: i64,
) -> D1PreparedStatement {
    // Later than any lead (and still a safe JavaScript number, as D1 needs).
    const FAR_FUTURE_MS: i64 = 253_402_300_800_000;
    let (created_at, id) = after.unwrap_or((FAR_FUTURE_MS, ""));
    narrowed(
        db,
        &q.after_sql(),
        &[&q.search.bound(), &created_at, &id, &limit],
        q,
    )
}

/// `sql` with `fixed` bound first, then the values of `q`'s narrowing.
fn narrowed(
    db: &D1Database,
    sql: &str,
    fixed: &[&dyn Param],
    q: &LeadQuery,
) -> D1PreparedStatement {
    let values = q.narrowing.values();
    let mut params = fixed.to_vec();
    params.extend(values.iter().map(|v| v as &dyn Param));
    d1::bind(db, sql, &params)
}

/// What staff did, for the audit trail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    MarkSent,
    /// 'Desfazer' right after 'Marcar Enviado'.
    UnmarkSent,
    Delete,
    Resend,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::MarkSent => "mark_sent",
            Action::UnmarkSent => "unmark_sent",
            Action::Delete => "delete",
            Action::Resend => "resend",
        }
    }

    /// The state a lead must be in for the action to change it; the audit
    /// entry and the change are written under the same condition, in one batch.
    fn applies_to(self) -> &'static str {
        match self {
            Action::MarkSent => crate::crm::store::mark_sent_applies!(),
            // As [`audit`] binds them: `?1` now, `?2` the staff member's id.
            Action::UnmarkSent => crate::crm::store::unmark_sent_applies!("?1", "?2"),
            Action::Delete => "1",
            Action::Resend => crate::crm::store::retry_applies!(),
        }
    }
}

/// Records who did what to which lead (its id only), if the action applies
/// and the staff member's session may still act: the same conditions as the
/// change it records, in the same batch.
pub fn audit(
    db: &D1Database,
    staff: &Staff,
    action: Action,
    lead_id: &str,
    now: i64,
) -> D1PreparedStatement {
    let sql = format!(
        "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
         SELECT ?1, ?2, ?3, ?4, id FROM leads WHERE id = ?5 AND {} AND {}",
        action.applies_to(),
        session_is_live!("?6", "?1")
    );
    query!(
        db,
        &sql,
        now,
        staff.user_id,
        staff.email,
        action.name(),
        lead_id,
        staff.session_id
    )
}

const SESSION_LIVE_SQL: &str = live_row!("?1", "?2");
const DELETE_SQL: &str = concat!(
    "DELETE FROM leads WHERE id = ?1 AND ",
    session_is_live!("?2", "?3"),
    " RETURNING id"
);
const STATUS_SQL: &str = "SELECT delivery_status FROM leads WHERE id = ?1";

row! {
    /// A lead's delivery status: 'pending', 'sent' or 'failed'.
    pub struct StatusRow {
        pub delivery_status: String,
    }
}

pub fn session_live(db: &D1Database, staff: &Staff, now: i64) -> D1PreparedStatement {
    query!(db, SESSION_LIVE_SQL, staff.session_id, now)
}

pub fn delete(db: &D1Database, staff: &Staff, lead_id: &str, now: i64) -> D1PreparedStatement {
    query!(db, DELETE_SQL, lead_id, staff.session_id, now)
}

/// The lead's delivery status, `None` if there is no such lead.
pub async fn status(db: &D1Database, lead_id: &str) -> HostResult<Option<String>> {
    query!(db, STATUS_SQL, lead_id)
        .first::<StatusRow>()
        .await
        .map(|row| row.map(|r| r.delivery_status))
}

fn find_sql() -> String {
    format!("SELECT {LEAD_COLUMNS} FROM leads WHERE id = ?1")
}

pub async fn find(db: &D1Database, lead_id: &str) -> HostResult<Option<LeadRow>> {
    query!(db, &find_sql(), lead_id).first().await
}

row! {
    /// One time the visitor sent the form.
    #[derive(Debug, Clone)]
    pub struct SubmissionRow {
        pub id: i64,
        pub submitted_at: i64,
        pub name: String,
        pub email: String,
        pub whatsapp: String,
        pub origem: String,
        pub utm_source: Option<String>,
        pub utm_medium: Option<String>,
        pub utm_campaign: Option<String>,
        pub utm_term: Option<String>,
        pub utm_content: Option<String>,
        pub gclid: Option<String>,
        pub fbclid: Option<String>,
        pub referrer: Option<String>,
        pub page_url: Option<String>,
        /// 'new', 'repeat', 'correction', 'conflict', 'pending' or 'refused'.
        pub kind: String,
    }
}

row! {
    /// One attempt to deliver the lead ('lead') or a correction ('update').
    #[derive(Debug, Clone)]
    pub struct AttemptRow {
        pub id: i64,
        pub at: i64,
        pub kind: String,
        pub outcome: String,
        pub detail: Option<String>,
    }
}

row! {
    /// What staff did to the lead.
    #[derive(Debug, Clone)]
    pub struct ActionRow {
        pub id: i64,
        pub at: i64,
        pub staff_email: String,
        pub action: String,
    }
}

row! {
    /// Another lead a submission tied this one to.
    #[derive(Debug, Clone)]
    pub struct LinkedRow {
        pub id: String,
        pub name: String,
        pub email: String,
        pub whatsapp: String,
    }
}

/// A lead's story: its first submission and its newest ones, its newest
/// delivery attempts and staff actions, and how many of each there are.
pub struct Story {
    pub lead: LeadRow,
    pub submissions: Vec<SubmissionRow>,
    pub attempts: Vec<AttemptRow>,
    pub actions: Vec<ActionRow>,
    pub linked: Vec<LinkedRow>,
    pub totals: StoryTotals,
}

row! {
    /// How many submissions, attempts and staff actions the lead has in all.
    #[derive(Debug, Clone, Copy, Default)]
    pub struct StoryTotals {
        pub submissions: i64,
        pub attempts: i64,
        pub actions: i64,
    }
}

/// The most of each a lead's page shows (the newest; for the submissions,
/// the first one too, which holds the lead's first touch). A lead sent the
/// form hundreds of times, or retried for months, still answers in one
/// small read, well within what one D1 answer may hold.
pub const STORY_NEWEST: i64 = 50;

const SUBMISSIONS_SQL: &str = "SELECT id, submitted_at, name, email, whatsapp, origem, utm_source, \
       utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, referrer, page_url, kind \
     FROM lead_submissions WHERE lead_id = ?1 \
       AND (id = (SELECT id FROM lead_submissions WHERE lead_id = ?1 ORDER BY submitted_at, id LIMIT 1) \
         OR id IN (SELECT id FROM lead_submissions WHERE lead_id = ?1 \
                   ORDER BY submitted_at DESC, id DESC LIMIT ?2)) \
     ORDER BY submitted_at, id";
const ATTEMPTS_SQL: &str = "SELECT * FROM (SELECT id, at, kind, outcome, detail FROM crm_attempts \
       WHERE lead_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2) ORDER BY at, id";
const ACTIONS_SQL: &str = "SELECT * FROM (SELECT id, at, staff_email, action FROM audit_log \
       WHERE lead_id = ?1 ORDER BY id DESC LIMIT ?2) ORDER BY id";
const TOTALS_SQL: &str = "SELECT \
       (SELECT count(*) FROM lead_submissions WHERE lead_id = ?1) AS submissions, \
       (SELECT count(*) FROM crm_attempts WHERE lead_id = ?1) AS attempts, \
       (SELECT count(*) FROM audit_log WHERE lead_id = ?1) AS actions";
const LINKED_SQL: &str = "SELECT l.id, l.name, l.email, l.whatsapp FROM lead_links k \
     JOIN leads l ON l.id = k.other_id WHERE k.lead_id = ?1 ORDER BY k.created_at";

/// The lead, its submissions, delivery attempts and staff actions (see
/// [`STORY_NEWEST`]) and the leads tied to it: one round trip. `None` if
/// there is no such lead.
pub async fn story(db: &D1Database, lead_id: &str) -> HostResult<Option<Story>> {
    let results = db
        .batch(vec![
            query!(db, &find_sql(), lead_id),
            query!(db, SUBMISSIONS_SQL, lead_id, STORY_NEWEST),
            query!(db, ATTEMPTS_SQL, lead_id, STORY_NEWEST),
            query!(db, ACTIONS_SQL, lead_id, STORY_NEWEST),
            query!(db, LINKED_SQL, lead_id),
            query!(db, TOTALS_SQL, lead_id),
        ])
        .await?;
    let Some(lead) = d1::rows::<LeadRow>(&results, 0)?.into_iter().next() else {
        return Ok(None);
    };
    Ok(Some(Story {
        lead,
        submissions: d1::rows(&results, 1)?,
        attempts: d1::rows(&results, 2)?,
        actions: d1::rows(&results, 3)?,
        linked: d1::rows(&results, 4)?,
        totals: d1::rows::<StoryTotals>(&results, 5)?
            .into_iter()
            .next()
            .unwrap_or_default(),
    }))
}
