//! The leads table: each query once.

use serde::Deserialize;
use worker::{D1Database, query};

use super::domain::NewLead;
use crate::platform;
use crate::rate_limit::{self, CountRow, Limit};

/// Inserts the lead, or, when its e-mail or WhatsApp is already known, records
/// a new submission on the existing lead. With `?16` set, nothing is written
/// unless that rate-limit counter is within `?17`.
const UPSERT_SQL: &str = "INSERT INTO leads (id, name, email, whatsapp, origem, created_at, \
       last_submitted_at, next_attempt_at, utm_source, utm_medium, utm_campaign, utm_term, \
       utm_content, gclid, fbclid, referrer, page_url) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15 \
     WHERE ?16 IS NULL OR (SELECT count FROM rate_limits WHERE key = ?16) <= ?17 \
     ON CONFLICT (email) DO UPDATE SET submission_count = submission_count + 1, \
       last_submitted_at = excluded.last_submitted_at \
     ON CONFLICT (whatsapp) DO UPDATE SET submission_count = submission_count + 1, \
       last_submitted_at = excluded.last_submitted_at \
     RETURNING id, submission_count, delivery_status";

#[derive(Debug, Deserialize)]
struct UpsertRow {
    id: String,
    submission_count: i64,
    delivery_status: String,
}

/// What happened to a submission.
#[derive(Debug, PartialEq, Eq)]
pub enum Saved {
    /// A new lead, committed.
    Created { id: String },
    /// A repeat of a known lead; the submission is recorded on it.
    Repeated { id: String, delivery_status: String },
    /// The sender is over the limit; nothing was written.
    Limited,
}

/// Stores the lead in one D1 round trip. `limit` is `Some` when the per-IP
/// count lives in D1 (no Rate Limiting binding): the count and the write go
/// in one batch, and the write only happens within the limit.
pub async fn save(
    db: &D1Database,
    lead: &NewLead,
    limit: Option<(&Limit, &str)>,
    now_ms: i64,
) -> worker::Result<Saved> {
    let a = &lead.attribution;
    let limit_key = limit.map(|(l, subject)| l.key(subject));
    let limit_max = limit.map(|(l, _)| l.max);
    let upsert = query!(
        db,
        UPSERT_SQL,
        platform::new_id(),
        lead.name.as_str(),
        lead.email.as_str(),
        lead.whatsapp.as_str(),
        lead.origem,
        now_ms,
        a.utm_source,
        a.utm_medium,
        a.utm_campaign,
        a.utm_term,
        a.utm_content,
        a.gclid,
        a.fbclid,
        a.referrer,
        a.page_url,
        limit_key,
        limit_max,
    )?;

    let row = match limit {
        None => upsert.first::<UpsertRow>(None).await?,
        Some((l, subject)) => {
            let hit = rate_limit::hit(db, l, subject, now_ms)?;
            let results = db.batch(vec![hit, upsert]).await?;
            let count = results
                .first()
                .and_then(|r| r.results::<CountRow>().ok())
                .and_then(|rows| rows.into_iter().next())
                .map_or(i64::MAX, |r| r.count);
            if !l.allows(count) {
                return Ok(Saved::Limited);
            }
            results
                .get(1)
                .map(|r| r.results::<UpsertRow>())
                .transpose()?
                .and_then(|rows| rows.into_iter().next())
        }
    };
    let row =
        row.ok_or_else(|| worker::Error::RustError("the lead upsert returned no row".into()))?;
    Ok(if row.submission_count == 1 {
        Saved::Created { id: row.id }
    } else {
        Saved::Repeated {
            id: row.id,
            delivery_status: row.delivery_status,
        }
    })
}
