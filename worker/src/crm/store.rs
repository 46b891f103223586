//! The delivery columns of the leads table: each query once.
//!
//! A lead is claimed before the CRM is called: one conditional UPDATE writes a
//! lease, so of two runs that see the same due lead only one gets it back.
//! D1 runs each statement on its own, so there is no window between the check
//! and the write.

use serde::Deserialize;
use worker::{D1Database, D1PreparedStatement, query};

/// What the CRM needs of a lead, and what recording the outcome needs: the
/// fields of [`ClaimedLead`]. A macro so both claims splice in one literal.
macro_rules! returning_claimed {
    () => {
        " RETURNING id, name, email, whatsapp, origem, created_at, utm_source, utm_medium, \
         utm_campaign, gclid, page_url, delivery_attempts, lease_until"
    };
}

/// Claims one lead if it is pending, due and not leased. `?2` now, `?3` the lease's end.
const CLAIM_ONE_SQL: &str = concat!(
    "UPDATE leads SET lease_until = ?3, delivery_attempts = delivery_attempts + 1 \
     WHERE id = ?1 AND delivery_status = 'pending' AND next_attempt_at <= ?2 \
       AND (lease_until IS NULL OR lease_until < ?2)",
    returning_claimed!()
);

/// Claims up to `?3` due leads, oldest due first. `?1` now, `?2` the lease's end.
const CLAIM_DUE_SQL: &str = concat!(
    "UPDATE leads SET lease_until = ?2, delivery_attempts = delivery_attempts + 1 \
     WHERE id IN (SELECT id FROM leads \
       WHERE delivery_status = 'pending' AND next_attempt_at <= ?1 \
         AND (lease_until IS NULL OR lease_until < ?1) \
       ORDER BY next_attempt_at LIMIT ?3)",
    returning_claimed!()
);

/// The CRM accepted the lead. Written whoever holds the lease: the CRM has it
/// either way. A lead staff marked sent meanwhile keeps their mark and time.
const MARK_DELIVERED_SQL: &str = "UPDATE leads SET jetimob_enviado = 1, \
       sent_at = CASE WHEN delivery_status = 'sent' THEN sent_at ELSE ?2 END, \
       sent_by = CASE WHEN delivery_status = 'sent' THEN sent_by ELSE 'crm' END, \
       delivery_status = 'sent', jetimob_lead_id = ?3, \
       lease_until = NULL, next_attempt_at = NULL \
     WHERE id = ?1";

/// The attempt failed: `?4` is the next attempt, or NULL when the retry window
/// is over and the lead needs a person. Only the lease holder (`?2`) writes,
/// and only while the lead is still pending (staff may have marked it sent).
const RECORD_FAILURE_SQL: &str = "UPDATE leads SET last_error = ?3, next_attempt_at = ?4, \
       delivery_status = CASE WHEN ?4 IS NULL THEN 'failed' ELSE 'pending' END, \
       lease_until = NULL \
     WHERE id = ?1 AND lease_until = ?2 AND delivery_status = 'pending'";

/// 'Marcar Enviado': staff entered the lead in the CRM themselves. An attempt
/// in flight can no longer record a failure over it (its lease is gone).
const MARK_SENT_BY_STAFF_SQL: &str = "UPDATE leads SET jetimob_enviado = 1, \
       delivery_status = 'sent', sent_at = ?2, sent_by = 'staff', \
       lease_until = NULL, next_attempt_at = NULL \
     WHERE id = ?1 AND delivery_status != 'sent' \
     RETURNING id";

/// Makes a failed or pending lead due at `?2`; attempts and last error stay
/// as history.
const RETRY_NOW_SQL: &str = "UPDATE leads SET delivery_status = 'pending', next_attempt_at = ?2 \
     WHERE id = ?1 AND delivery_status IN ('pending', 'failed') \
     RETURNING id";

/// A lead this run holds the lease on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ClaimedLead {
    pub id: String,
    pub name: String,
    pub email: String,
    /// E.164.
    pub whatsapp: String,
    pub origem: String,
    pub created_at: i64,
    pub utm_source: Option<String>,
    pub utm_medium: Option<String>,
    pub utm_campaign: Option<String>,
    pub gclid: Option<String>,
    pub page_url: Option<String>,
    /// Including the attempt this claim starts.
    pub delivery_attempts: i64,
    /// The lease's end; also what proves this run holds it.
    pub lease_until: i64,
}

pub async fn claim_one(
    db: &D1Database,
    id: &str,
    now: i64,
    lease_until: i64,
) -> worker::Result<Option<ClaimedLead>> {
    query!(db, CLAIM_ONE_SQL, id, now, lease_until)?
        .first::<ClaimedLead>(None)
        .await
}

pub async fn claim_due(
    db: &D1Database,
    now: i64,
    lease_until: i64,
    limit: usize,
) -> worker::Result<Vec<ClaimedLead>> {
    query!(db, CLAIM_DUE_SQL, now, lease_until, limit as i64)?
        .all()
        .await?
        .results::<ClaimedLead>()
}

pub async fn mark_delivered(
    db: &D1Database,
    id: &str,
    now: i64,
    jetimob_lead_id: Option<&str>,
) -> worker::Result<()> {
    query!(db, MARK_DELIVERED_SQL, id, now, jetimob_lead_id)?
        .run()
        .await?;
    Ok(())
}

pub async fn record_failure(
    db: &D1Database,
    lead: &ClaimedLead,
    last_error: &str,
    next_attempt_at: Option<i64>,
) -> worker::Result<()> {
    query!(
        db,
        RECORD_FAILURE_SQL,
        lead.id,
        lead.lease_until,
        last_error,
        next_attempt_at
    )?
    .run()
    .await?;
    Ok(())
}

/// `true` when the lead was waiting and is now marked sent.
/// The statement behind 'Marcar Enviado'; `RETURNING id` when it changed the lead.
pub fn mark_sent_by_staff(
    db: &D1Database,
    id: &str,
    now: i64,
) -> worker::Result<D1PreparedStatement> {
    query!(db, MARK_SENT_BY_STAFF_SQL, id, now)
}

/// The statement behind 'Reenviar'; `RETURNING id` when the lead is now due.
pub fn retry_now(db: &D1Database, id: &str, now: i64) -> worker::Result<D1PreparedStatement> {
    query!(db, RETRY_NOW_SQL, id, now)
}

/// Whether a statement built by [`retry_now`] or [`mark_sent_by_staff`] changed its lead.
pub async fn changed(statement: D1PreparedStatement) -> worker::Result<bool> {
    Ok(statement.first::<String>(Some("id")).await?.is_some())
}
