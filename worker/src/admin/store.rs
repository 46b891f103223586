//! The panel's reads and writes on the leads table, and the audit trail.

use serde::Deserialize;
use worker::{D1Database, D1PreparedStatement, D1Result, query};

use super::query::{COUNTS_SQL, LEAD_COLUMNS, LeadQuery, PAGE_SIZE, Search};
use crate::auth::guard::Staff;

/// A lead as the panel and the export read it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
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
    pub page_url: Option<String>,
}

/// Leads per delivery status, over all leads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub pending: i64,
    pub sent: i64,
    pub failed: i64,
}

impl Counts {
    pub fn total(&self) -> i64 {
        self.pending + self.sent + self.failed
    }
}

#[derive(Deserialize)]
struct StatusCount {
    status: String,
    n: i64,
}

#[derive(Deserialize)]
struct Count {
    n: i64,
}

/// A page of leads, the counters and (with a search) the number of matches,
/// in one round trip.
pub async fn page_and_counts(
    db: &D1Database,
    q: &LeadQuery,
) -> worker::Result<(Vec<LeadRow>, Counts, Option<i64>)> {
    let term = q.search.bound();
    let mut statements = vec![
        query!(db, &q.page_sql(), term, PAGE_SIZE, q.offset())?,
        db.prepare(COUNTS_SQL),
    ];
    if q.search != Search::None {
        statements.push(query!(db, &q.count_sql(), term)?);
    }
    let results = db.batch(statements).await?;
    let leads = rows::<LeadRow>(results.first())?;
    let mut counts = Counts::default();
    for c in rows::<StatusCount>(results.get(1))? {
        match c.status.as_str() {
            "sent" => counts.sent = c.n,
            "failed" => counts.failed = c.n,
            _ => counts.pending += c.n,
        }
    }
    let matches = match results.get(2) {
        Some(r) => rows::<Count>(Some(r))?.first().map(|c| c.n),
        None => None,
    };
    Ok((leads, counts, matches))
}

/// Up to `limit` leads after the one at (`created_at`, `id`), newest first.
pub async fn page_after(
    db: &D1Database,
    q: &LeadQuery,
    after: Option<(i64, &str)>,
    limit: i64,
) -> worker::Result<Vec<LeadRow>> {
    // Later than any lead (and still a safe JavaScript number, as D1 needs).
    const FAR_FUTURE_MS: i64 = 253_402_300_800_000;
    let (created_at, id) = after.unwrap_or((FAR_FUTURE_MS, ""));
    query!(db, &q.after_sql(), q.search.bound(), created_at, id, limit)?
        .all()
        .await?
        .results()
}

fn rows<T: serde::de::DeserializeOwned>(result: Option<&D1Result>) -> worker::Result<Vec<T>> {
    result
        .map(|r| r.results())
        .transpose()
        .map(Option::unwrap_or_default)
}

/// What staff did, for the audit trail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    MarkSent,
    Delete,
    Resend,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::MarkSent => "mark_sent",
            Action::Delete => "delete",
            Action::Resend => "resend",
        }
    }

    /// The state a lead must be in for the action to change it; the audit
    /// entry and the change are written under the same condition, in one batch.
    fn applies_to(self) -> &'static str {
        match self {
            Action::MarkSent => "delivery_status != 'sent'",
            Action::Delete => "1",
            Action::Resend => "delivery_status IN ('pending', 'failed')",
        }
    }
}

/// Records who did what to which lead (its id only), if the action applies.
pub fn audit(
    db: &D1Database,
    staff: &Staff,
    action: Action,
    lead_id: &str,
    now: i64,
) -> worker::Result<D1PreparedStatement> {
    let sql = format!(
        "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
         SELECT ?1, ?2, ?3, ?4, id FROM leads WHERE id = ?5 AND {}",
        action.applies_to()
    );
    query!(
        db,
        &sql,
        now,
        staff.user_id,
        staff.email,
        action.name(),
        lead_id
    )
}

const DELETE_SQL: &str = "DELETE FROM leads WHERE id = ?1 RETURNING id";
const STATUS_SQL: &str = "SELECT delivery_status FROM leads WHERE id = ?1";

pub fn delete(db: &D1Database, lead_id: &str) -> worker::Result<D1PreparedStatement> {
    query!(db, DELETE_SQL, lead_id)
}

/// The lead's delivery status, `None` if there is no such lead.
pub async fn status(db: &D1Database, lead_id: &str) -> worker::Result<Option<String>> {
    query!(db, STATUS_SQL, lead_id)?
        .first(Some("delivery_status"))
        .await
}

pub async fn find(db: &D1Database, lead_id: &str) -> worker::Result<Option<LeadRow>> {
    let sql = format!("SELECT {LEAD_COLUMNS} FROM leads WHERE id = ?1");
    query!(db, &sql, lead_id)?.first(None).await
}

/// Whether the statement at `index` of a batch returned a row.
pub fn returned_row(results: &[D1Result], index: usize) -> bool {
    results
        .get(index)
        .and_then(|r| r.results::<serde_json::Value>().ok())
        .is_some_and(|rows| !rows.is_empty())
}
