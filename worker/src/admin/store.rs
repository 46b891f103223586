//! The panel's reads and writes on the leads table, and the audit trail.
//!
//! The rows are read from D1 and written to the panel by the same structs:
//! a column and its member share a name, and the few members the panel
//! reads otherwise (times in ISO 8601, flags as booleans) say so at the field.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

use super::query::{
    CHANGES_SQL, CONTACT_COUNTS_SQL, COUNTS_SQL, Cursor, LEAD_COLUMNS, LeadQuery, PAGE_SIZE,
};
use crate::agency::roles::role_sql;
use crate::alerts::heartbeat::{self, Heartbeat};
use crate::alerts::incidents::{self, Incident};
use crate::attribution::Attribution;
pub use crate::audit::Action;
use crate::audit::live_session::{live_row, may_act, session_is_live};
use crate::auth::guard::Staff;
use crate::crm::status::{Correction, Delivery};
use crate::delivery;
use crate::delivery::store::State as DeliveryState;
use crate::formats::dates;
use crate::platform::db::{
    self, Batch, Count, D1Database, D1PreparedStatement, Handle, Param, Results, query,
};

/// A lead as the panel and the export read it. To the panel its times are
/// ISO 8601 (UTC); `update_status` is the correction the CRM still has to
/// learn ('pending', 'failed' or null), `duplicate_of` another lead a
/// submission tied this one to ('Possível duplicado').
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub struct LeadRow {
    pub id: String,
    pub name: String,
    pub email: String,
    pub whatsapp: String,
    pub origem: String,
    #[serde(serialize_with = "flag")]
    pub jetimob_enviado: i64,
    pub delivery_status: Delivery,
    pub delivery_attempts: i64,
    #[serde(serialize_with = "maybe_iso_time")]
    pub next_attempt_at: Option<i64>,
    pub last_error: Option<String>,
    #[serde(serialize_with = "maybe_iso_time")]
    pub sent_at: Option<i64>,
    pub sent_by: Option<String>,
    #[serde(serialize_with = "iso_time")]
    pub created_at: i64,
    pub submission_count: i64,
    #[serde(serialize_with = "iso_time")]
    pub last_submitted_at: i64,
    /// Its first touch: the UTM fields, click ids, referrer and page.
    #[serde(flatten)]
    pub attribution: Attribution,
    /// Where it came from, as the campaign report groups it.
    pub source: String,
    /// The referrer's host, for a lead without utm_source.
    pub referrer_host: Option<String>,
    /// The correction's delivery: 'pending', 'failed' or none.
    pub update_status: Option<Correction>,
    pub update_last_error: Option<String>,
    /// Another lead a submission tied this one to.
    pub duplicate_of: Option<String>,
    /// The newest submission's time and attribution, read from the JSON
    /// text SQLite writes for it; none if it has none (or it cannot be read).
    #[serde(default, deserialize_with = "json_text")]
    pub last_touch: Option<LastTouch>,
    /// Changes waiting for staff ('Alteração pendente').
    pub pending_changes: i64,
    /// Who marked it sent ('Marcar Enviado'), for a lead staff marked.
    pub marked_by: Option<String>,
    /// Its WhatsApp number is a landline ('fixo', read from the number: 0022).
    #[serde(default, deserialize_with = "flag_in")]
    pub landline: bool,
    /// The questions of agency.json answered after 'Sucesso!': id → the option chosen.
    #[serde(default, deserialize_with = "json_or_text")]
    pub answers: Option<BTreeMap<String, String>>,
    /// When an answer last changed.
    #[serde(default, serialize_with = "maybe_iso_time")]
    pub answers_at: Option<i64>,
    /// The lead's code in Jetimob, once Jetimob took it and said it.
    #[serde(default)]
    pub jetimob_lead_id: Option<String>,
    /// When a person of the staff first spoke to the lead ('Já falei'), and
    /// who: their id and e-mail.
    #[serde(default, serialize_with = "maybe_iso_time")]
    pub first_contact_at: Option<i64>,
    #[serde(default)]
    pub contacted_by_id: Option<String>,
    #[serde(default)]
    pub contacted_by: Option<String>,
    /// It arrived once the panel recorded first contacts (0023): without one,
    /// it waits for its first contact.
    #[serde(default, deserialize_with = "flag_in")]
    pub contact_tracked: bool,
}

/// An SQLite flag (`1` or `0`), or the boolean the panel reads.
fn flag_in<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Number(i64),
        Bool(bool),
    }
    Ok(match Option::<Flag>::deserialize(deserializer)? {
        Some(Flag::Number(n)) => n == 1,
        Some(Flag::Bool(b)) => b,
        None => false,
    })
}

/// A JSON column as SQLite answers it (text), or the value the panel reads;
/// `None` for NULL or what does not read as `T`.
fn json_or_text<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(match value {
        Some(serde_json::Value::String(text)) => serde_json::from_str(&text).ok(),
        Some(value) => serde_json::from_value(value).ok(),
        None => None,
    })
}

/// The newest submission of a lead: when, and where the visit came from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct LastTouch {
    #[serde(serialize_with = "iso_time")]
    pub at: i64,
    pub origem: String,
    #[serde(flatten)]
    pub attribution: Attribution,
}

/// A time in ms as the panel reads it: ISO 8601 in UTC, `null` if out of range.
fn iso_time<S: Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    dates::iso(*ms).serialize(serializer)
}

/// [`iso_time`] of a time that may be missing (`null`).
pub(super) fn maybe_iso_time<S: Serializer>(
    ms: &Option<i64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    ms.and_then(dates::iso).serialize(serializer)
}

/// An SQLite flag (`1` or `0`) as a boolean.
fn flag<S: Serializer>(n: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    (*n == 1).serialize(serializer)
}

/// A column of JSON text (SQLite's `json_object`) as the value it holds;
/// `None` for NULL, or for text that does not read as `T`.
fn json_text<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    Ok(text.and_then(|text| serde_json::from_str(&text).ok()))
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
    /// Leads in the CRM with nothing refused: sent, and no correction given up.
    pub delivered: i64,
    /// 'Não contatados' and 'Contatados por mim' (by the person asking).
    pub uncontacted: i64,
    pub mine: i64,
}

impl Counts {
    pub fn total(&self) -> i64 {
        self.pending + self.sent + self.failed
    }
}

#[derive(Deserialize)]
struct Counter {
    name: String,
    n: i64,
}

/// The contact chips' counts over every lead ([`CONTACT_COUNTS_SQL`]).
#[derive(Deserialize)]
struct ContactCounts {
    uncontacted: i64,
    mine: i64,
}

/// The counters over a narrowed or contact-filtered list ([`LeadQuery::tally_sql`]).
#[derive(Deserialize)]
struct Tally {
    pending: i64,
    sent: i64,
    failed: i64,
    attention: i64,
    duplicates: i64,
    pending_changes: i64,
    sent_clean: i64,
    uncontacted: i64,
    mine: i64,
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
    /// Leads waiting for a person ('Precisam de atenção') over every lead.
    pub refused: i64,
    /// The state the page was read in (one batch, so they agree).
    pub state: ListState,
}

/// The statements [`ListState`] is read from, pushed by [`StateReads::push`].
struct StateReads {
    changes: Handle<Count>,
    incident: Handle<Incident>,
    heartbeat: Handle<Heartbeat>,
}

impl StateReads {
    fn push(batch: &mut Batch, db: &D1Database) -> Self {
        Self {
            changes: batch.push(db.prepare(CHANGES_SQL)),
            incident: batch.push(db.prepare(incidents::OPEN_SQL)),
            heartbeat: batch.push(db.prepare(heartbeat::READ_SQL)),
        }
    }

    /// [`ListState`] from the batch's results.
    fn read(&self, results: &Results) -> worker::Result<ListState> {
        Ok(ListState {
            changes: results.first(self.changes)?.map(|c| c.n),
            incident: results.first(self.incident)?,
            heartbeat: results.first(self.heartbeat)?.unwrap_or_default(),
            rows_read: results.cost().read,
        })
    }
}

/// Whether any lead changed and what the banner says, without the page: a
/// few rows whatever the number of leads, for a reload that may be told
/// nothing changed.
pub async fn list_state(db: &D1Database) -> worker::Result<ListState> {
    let mut batch = Batch::new();
    let state = StateReads::push(&mut batch, db);
    state.read(&batch.run(db).await?)
}

/// A page of the list, the counters, how many leads a search matches (when
/// there is one) and the [`ListState`], in one batch. The page is read from
/// where 'Próxima'/'Anterior' says it starts when it says so (an index
/// seek), else by its number. The counters are the triggers' (one row
/// each) unless the list is narrowed to a period or campaign or filtered by
/// contact: then they count those leads ([`LeadQuery::tally_sql`]).
/// `staff_id`: the person asking ('Contatados por mim').
pub async fn page_and_counts(
    db: &D1Database,
    q: &LeadQuery,
    staff_id: &str,
) -> worker::Result<ListPage> {
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
    let mut batch = Batch::new();
    let page = batch.push::<LeadRow>(page);
    let counters = batch.push::<Counter>(db.prepare(COUNTS_SQL));
    let state = StateReads::push(&mut batch, db);
    let contact = batch.push::<ContactCounts>(query!(db, CONTACT_COUNTS_SQL, staff_id));
    let tally = q.tally_sql().map(|sql| {
        let mut values = vec![staff_id.value()];
        values.extend(q.narrowing.values().iter().map(Param::value));
        batch.push::<Tally>(db::bind(db, &sql, &values))
    });
    let matches = term
        .is_some()
        .then(|| batch.push::<Count>(narrowed(db, &q.count_sql(), &[&term], q)));
    let results = batch.run(db).await?;
    let mut leads = results.rows(page)?;
    if matches!(q.cursor, Some(Cursor::Before(..))) {
        leads.reverse();
    }
    let mut counts = Counts::default();
    for c in results.rows(counters)? {
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
    // The sent leads whose correction was given up wait for a person.
    counts.delivered = counts.sent - (counts.attention - counts.failed);
    let refused = counts.attention;
    if let Some(all) = results.first(contact)? {
        counts.uncontacted = all.uncontacted;
        counts.mine = all.mine;
    }
    let tally = match tally {
        Some(tally) => results.first(tally)?,
        None => None,
    };
    if let Some(t) = tally {
        counts = Counts {
            pending: t.pending,
            sent: t.sent,
            failed: t.failed,
            duplicates: t.duplicates,
            attention: t.attention,
            pending_changes: t.pending_changes,
            delivered: t.sent_clean,
            // Over every lead of the period and campaign; without one, every lead's.
            uncontacted: if q.is_narrowed() {
                t.uncontacted
            } else {
                counts.uncontacted
            },
            mine: if q.is_narrowed() { t.mine } else { counts.mine },
        };
    }
    let matches = match matches {
        Some(matches) => results.first(matches)?.map(|c| c.n),
        None => None,
    };
    Ok(ListPage {
        leads,
        counts,
        matches,
        refused,
        state: state.read(&results)?,
    })
}

/// The newest `limit` leads of the filter: an export's first page, read
/// right after the request's own session check.
pub async fn first_page(
    db: &D1Database,
    q: &LeadQuery,
    limit: i64,
) -> worker::Result<Vec<LeadRow>> {
    db::rows_of(&page_after_query(db, q, None, limit)).await
}

/// An export page after the first: up to `limit` leads after the one at
/// (`created_at`, `id`), for its batch (see [`may_export`]).
pub fn page_after(
    db: &D1Database,
    q: &LeadQuery,
    after: (i64, &str),
    limit: i64,
) -> D1PreparedStatement {
    page_after_query(db, q, Some(after), limit)
}

/// A row if `staff`'s session may still act at `?2`, saying whether its
/// person may still export (`may_export`, 1 or 0): an export asks before
/// each page.
const MAY_EXPORT_SQL: &str = concat!(
    "SELECT (lu.role = ",
    role_sql!(Owner),
    " OR lu.can_export = 1) AS may_export \
     FROM staff_sessions ls JOIN staff_users lu ON lu.id = ls.user_id WHERE ls.id = ?1 AND ",
    may_act!("ls", "lu", "?2")
);

pub fn may_export(db: &D1Database, staff: &Staff, now: i64) -> D1PreparedStatement {
    query!(db, MAY_EXPORT_SQL, staff.session_id, now)
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
    let mut values: Vec<_> = fixed.iter().map(|p| p.value()).collect();
    values.extend(q.values().iter().map(Param::value));
    db::bind(db, sql, &values)
}

/// The state a lead must be in for a lead action to change it; the audit
/// entry and the change are written under the same condition, in one batch.
/// No other action is written by [`audit`]: for one, nothing applies.
fn applies_to(action: Action) -> &'static str {
    match action {
        Action::MarkSent => crate::crm::store::mark_sent_applies!(),
        // As [`audit`] binds them: `?1` now, `?2` the staff member's id.
        Action::UnmarkSent => crate::crm::store::unmark_sent_applies!("?1", "?2"),
        Action::Delete => "1",
        Action::Resend => crate::crm::store::retry_applies!(),
        _ => "0",
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
        applies_to(action),
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

/// A lead's delivery status.
#[derive(Deserialize, Serialize)]
pub struct StatusRow {
    pub delivery_status: Delivery,
}

pub fn session_live(db: &D1Database, staff: &Staff, now: i64) -> D1PreparedStatement {
    query!(db, SESSION_LIVE_SQL, staff.session_id, now)
}

pub fn delete(db: &D1Database, staff: &Staff, lead_id: &str, now: i64) -> D1PreparedStatement {
    query!(db, DELETE_SQL, lead_id, staff.session_id, now)
}

/// The lead's delivery status, `None` if there is no such lead.
pub async fn status(db: &D1Database, lead_id: &str) -> worker::Result<Option<Delivery>> {
    let row = db::first::<StatusRow>(&query!(db, STATUS_SQL, lead_id)).await?;
    Ok(row.map(|r| r.delivery_status))
}

fn find_sql() -> String {
    format!("SELECT {LEAD_COLUMNS} FROM leads WHERE id = ?1")
}

pub async fn find(db: &D1Database, lead_id: &str) -> worker::Result<Option<LeadRow>> {
    db::first(&query!(db, &find_sql(), lead_id)).await
}

/// One time the visitor sent the form; to the panel, `at` is its time.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct SubmissionRow {
    pub id: i64,
    #[serde(rename(serialize = "at"), serialize_with = "iso_time")]
    pub submitted_at: i64,
    pub name: String,
    pub email: String,
    pub whatsapp: String,
    pub origem: String,
    /// What this submission came with.
    #[serde(flatten)]
    pub attribution: Attribution,
    /// 'new', 'repeat', 'correction', 'conflict', 'pending' or 'refused'.
    pub kind: String,
    /// A change refused without staff: 'replaced' by a newer one from its
    /// sender, or past the 'limit' of changes a lead keeps waiting.
    pub auto_refused: Option<String>,
}

/// One attempt to deliver the lead ('lead') or a correction ('update').
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct AttemptRow {
    pub id: i64,
    #[serde(serialize_with = "iso_time")]
    pub at: i64,
    pub kind: String,
    pub outcome: String,
    pub detail: Option<String>,
}

/// What staff did to the lead.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct ActionRow {
    pub id: i64,
    #[serde(serialize_with = "iso_time")]
    pub at: i64,
    pub staff_email: String,
    pub action: String,
}

/// Another lead a submission tied this one to. The panel shows its number
/// as people write it, not as stored.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct LinkedRow {
    pub id: String,
    pub name: String,
    pub email: String,
    #[serde(skip_serializing)]
    pub whatsapp: String,
}

/// A lead's story: its first submission and its newest ones, its newest
/// delivery attempts and staff actions, and how many of each there are.
pub struct Story {
    pub lead: LeadRow,
    /// Its history: every submission but the changes waiting for staff.
    pub submissions: Vec<SubmissionRow>,
    /// The changes waiting for staff, oldest first, apart from the history.
    pub waiting: Vec<SubmissionRow>,
    /// Its deliveries besides Jetimob's (Meta's).
    pub deliveries: Vec<DeliveryState>,
    pub attempts: Vec<AttemptRow>,
    pub actions: Vec<ActionRow>,
    pub linked: Vec<LinkedRow>,
    pub totals: StoryTotals,
}

/// How many submissions, attempts and staff actions the lead has in all
/// (or, to the panel, how many of each its page leaves out).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize)]
pub struct StoryTotals {
    pub submissions: i64,
    pub attempts: i64,
    pub actions: i64,
}

/// The most of each a lead's page shows (the newest; for the submissions,
/// the first one too, which holds the lead's first touch). A lead sent the
/// form hundreds of times, or retried for months, still answers in one
/// small read, well within what one D1 answer may hold.
pub const STORY_NEWEST: i64 = 50;

/// What a submission shows.
macro_rules! submission_columns {
    () => {
        concat!(
            "id, submitted_at, name, email, whatsapp, origem, kind, auto_refused, ",
            $crate::attribution::attribution_columns!()
        )
    };
}
const SUBMISSIONS_SQL: &str = concat!(
    "SELECT ",
    submission_columns!(),
    " FROM lead_submissions WHERE lead_id = ?1 AND kind != 'pending' \
       AND (id = (SELECT id FROM lead_submissions WHERE lead_id = ?1 ORDER BY submitted_at, id LIMIT 1) \
         OR id IN (SELECT id FROM lead_submissions WHERE lead_id = ?1 AND kind != 'pending' \
                   ORDER BY submitted_at DESC, id DESC LIMIT ?2)) \
     ORDER BY submitted_at, id"
);
/// Every change waiting, oldest first (a lead keeps a handful since 0018;
/// one flooded before keeps its own, up to what one answer holds).
const WAITING_SQL: &str = concat!(
    "SELECT ",
    submission_columns!(),
    " FROM lead_submissions WHERE lead_id = ?1 AND kind = 'pending' ORDER BY id LIMIT ?2"
);
/// The most waiting changes a lead's page lists.
pub const WAITING_LISTED: i64 = 200;
const ATTEMPTS_SQL: &str = "SELECT * FROM (SELECT id, at, kind, outcome, detail FROM crm_attempts \
       WHERE lead_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2) ORDER BY at, id";
const ACTIONS_SQL: &str = "SELECT * FROM (SELECT id, at, staff_email, action FROM audit_log \
       WHERE lead_id = ?1 ORDER BY id DESC LIMIT ?2) ORDER BY id";
const TOTALS_SQL: &str = "SELECT \
       (SELECT count(*) FROM lead_submissions WHERE lead_id = ?1 AND kind != 'pending') AS submissions, \
       (SELECT count(*) FROM crm_attempts WHERE lead_id = ?1) AS attempts, \
       (SELECT count(*) FROM audit_log WHERE lead_id = ?1) AS actions";
const LINKED_SQL: &str = "SELECT l.id, l.name, l.email, l.whatsapp FROM lead_links k \
     JOIN leads l ON l.id = k.other_id WHERE k.lead_id = ?1 ORDER BY k.created_at";

/// The lead, its submissions, delivery attempts and staff actions (see
/// [`STORY_NEWEST`]) and the leads tied to it: one round trip. `None` if
/// there is no such lead.
pub async fn story(db: &D1Database, lead_id: &str) -> worker::Result<Option<Story>> {
    let mut batch = Batch::new();
    let lead = batch.push::<LeadRow>(query!(db, &find_sql(), lead_id));
    let submissions = batch.push(query!(db, SUBMISSIONS_SQL, lead_id, STORY_NEWEST));
    let attempts = batch.push(query!(db, ATTEMPTS_SQL, lead_id, STORY_NEWEST));
    let actions = batch.push(query!(db, ACTIONS_SQL, lead_id, STORY_NEWEST));
    let linked = batch.push(query!(db, LINKED_SQL, lead_id));
    let totals = batch.push(query!(db, TOTALS_SQL, lead_id));
    let waiting = batch.push(query!(db, WAITING_SQL, lead_id, WAITING_LISTED));
    let deliveries = batch.push(delivery::store::of_lead(db, lead_id));
    let results = batch.run(db).await?;
    let Some(lead) = results.first(lead)? else {
        return Ok(None);
    };
    Ok(Some(Story {
        lead,
        submissions: results.rows(submissions)?,
        attempts: results.rows(attempts)?,
        actions: results.rows(actions)?,
        linked: results.rows(linked)?,
        totals: results.first(totals)?.unwrap_or_default(),
        waiting: results.rows(waiting)?,
        deliveries: results.rows(deliveries)?,
    }))
}
