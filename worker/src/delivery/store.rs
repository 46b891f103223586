//! The `deliveries` table: a lead's delivery to each destination besides
//! Jetimob, each query once. As Jetimob's own (`crm::store`), every attempt
//! first claims its work with one conditional write of a lease, whose value
//! then proves the claim: of two runs that see the same due work only one
//! gets it back, and only its holder records what came of it.

use serde::Deserialize;

use crate::platform::db::{self, D1Database, D1PreparedStatement, query};
/// The receiver named by `$receiver` (a placeholder) did not ask to be left
/// alone at `?2` (`pace::pause`).
macro_rules! not_paused {
    ($receiver:literal) => {
        concat!(
            "NOT EXISTS (SELECT 1 FROM cron_state WHERE name = 'paused_until:' || ",
            $receiver,
            " AND value > ?2)"
        )
    };
}

/// What a claim returns of each delivery.
macro_rules! returning_claimed {
    () => {
        " RETURNING lead_id, attempts, event_at, lease_until"
    };
}

/// Claims up to `?4` deliveries to destination `?1` that are due at `?2`,
/// the longest due first, with the lease `?3`, unless the destination asked
/// to be left alone.
const CLAIM_DUE_SQL: &str = concat!(
    "UPDATE deliveries SET lease_until = ?3, attempts = attempts + 1, last_attempt_at = ?2 \
     WHERE destination = ?1 AND lead_id IN (SELECT lead_id FROM deliveries INDEXED BY deliveries_due \
       WHERE destination = ?1 AND status = 'pending' AND next_attempt_at <= ?2 \
         AND (lease_until IS NULL OR lease_until < ?2) \
       ORDER BY next_attempt_at LIMIT ?4) AND ",
    not_paused!("?1"),
    returning_claimed!()
);

/// Claims up to `?4` deliveries to `?1` due at `?2` whose lead the CRM has
/// (an update of a lead can only follow it), with the lease `?3`, unless
/// the receiver `?5` (Jetimob, whose pace they share) asked to be left alone.
const CLAIM_DUE_AFTER_LEAD_SQL: &str = concat!(
    "UPDATE deliveries SET lease_until = ?3, attempts = attempts + 1, last_attempt_at = ?2 \
     WHERE destination = ?1 AND lead_id IN (SELECT d.lead_id FROM deliveries AS d \
         INDEXED BY deliveries_due JOIN leads ON leads.id = d.lead_id \
       WHERE d.destination = ?1 AND d.status = 'pending' AND d.next_attempt_at <= ?2 \
         AND (d.lease_until IS NULL OR d.lease_until < ?2) AND leads.delivery_status = 'sent' \
       ORDER BY d.next_attempt_at LIMIT ?4) AND ",
    not_paused!("?5"),
    returning_claimed!()
);

/// Lead `?1`'s delivery to `?2` is due at `?3` (its event's time too), as new:
/// made when the lead's answers changed at `?3`, in the batch that changed
/// them (nothing when they did not). An attempt in flight loses its lease,
/// so what it sent is not taken for what changed since.
const DUE_AGAIN_SQL: &str = "INSERT INTO deliveries (lead_id, destination, event_at, next_attempt_at) \
     SELECT id, ?2, ?3, ?3 FROM leads WHERE id = ?1 AND answers_at = ?3 \
     ON CONFLICT (lead_id, destination) DO UPDATE SET status = 'pending', \
       event_at = excluded.event_at, next_attempt_at = excluded.next_attempt_at, attempts = 0, \
       lease_until = NULL, last_error = NULL, sent_at = NULL";

/// Claims the delivery of lead `?4` to `?1` if it is due and free.
const CLAIM_ONE_SQL: &str = concat!(
    "UPDATE deliveries SET lease_until = ?3, attempts = attempts + 1, last_attempt_at = ?2 \
     WHERE destination = ?1 AND lead_id = ?4 AND status = 'pending' AND next_attempt_at <= ?2 \
       AND (lease_until IS NULL OR lease_until < ?2) AND ",
    not_paused!("?1"),
    returning_claimed!()
);

/// The deliveries to `?1` whose window closed before they went (their lead
/// is older than `?2`): never sent, 'expirado', with why (`?3`). Not one a
/// run holds at `?4`.
const EXPIRE_SQL: &str = "UPDATE deliveries SET status = 'expired', next_attempt_at = NULL, \
       lease_until = NULL, last_error = ?3 \
     WHERE destination = ?1 AND status = 'pending' AND event_at < ?2 \
       AND (lease_until IS NULL OR lease_until < ?4)";

/// The claimed deliveries of `?3` (a JSON array of lead ids) reached `?1`
/// at `?4`, if the lease `?2` still holds them.
const SENT_SQL: &str = "UPDATE deliveries SET status = 'sent', sent_at = ?4, lease_until = NULL, \
       next_attempt_at = NULL, last_error = NULL \
     WHERE destination = ?1 AND lease_until = ?2 AND lead_id IN (SELECT value FROM json_each(?3))";

/// A claimed delivery failed: its next attempt `?4`, or none and the state
/// `?5` ('failed' or 'expired'), with the error `?6`.
const FAILED_SQL: &str = "UPDATE deliveries SET lease_until = NULL, next_attempt_at = ?4, \
       status = CASE WHEN ?4 IS NULL THEN ?5 ELSE 'pending' END, last_error = ?6 \
     WHERE destination = ?1 AND lead_id = ?2 AND lease_until = ?3";

/// The destination took a request: what waits a long step of its backoff
/// (up to 6 hours) goes in the next runs instead, once its trouble is over.
const WAKE_SQL: &str = "UPDATE deliveries SET next_attempt_at = ?2 \
     WHERE destination = ?1 AND status = 'pending' AND next_attempt_at > ?2 + ?3 \
       AND (lease_until IS NULL OR lease_until < ?2)";
/// A delivery due within this is left to its own step.
const WAKE_BEYOND_MS: i64 = 5 * 60 * 1000;

/// 'Reenviar' to `?2`: the lead `?1`'s delivery, failed or waiting, is due
/// at `?3`, while its window (since `?4`) lasts.
const RETRY_SQL: &str = "UPDATE deliveries SET status = 'pending', next_attempt_at = ?3, \
       last_error = CASE WHEN status = 'failed' THEN last_error END \
     WHERE lead_id = ?1 AND destination = ?2 AND status IN ('failed', 'pending') \
       AND event_at >= ?4 \
     RETURNING lead_id";

/// A lead's deliveries, for its page.
const OF_LEAD_SQL: &str = "SELECT destination, status, attempts, next_attempt_at, \
       last_attempt_at, last_error, sent_at FROM deliveries WHERE lead_id = ?1 ORDER BY destination";

/// A delivery this run holds the lease on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Claimed {
    pub lead_id: String,
    /// Including the attempt this claim starts.
    pub attempts: i64,
    /// The lead's time: its event's, and its window's start.
    pub event_at: i64,
    /// The lease's end; also what proves this run holds it.
    pub lease_until: i64,
}

/// A lead's delivery to one destination, as its page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
pub struct State {
    pub destination: String,
    /// 'pending', 'sent', 'failed' or 'expired'.
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: Option<i64>,
    pub last_attempt_at: Option<i64>,
    pub last_error: Option<String>,
    pub sent_at: Option<i64>,
}

pub async fn claim_due(
    db: &D1Database,
    destination: &str,
    now: i64,
    lease_until: i64,
    limit: usize,
) -> worker::Result<Vec<Claimed>> {
    db::rows_of(&query!(
        db,
        CLAIM_DUE_SQL,
        destination,
        now,
        lease_until,
        limit as i64
    ))
    .await
}

/// Claims up to `limit` deliveries to `destination` whose lead the CRM has,
/// sharing `receiver`'s pace ([`CLAIM_DUE_AFTER_LEAD_SQL`]).
pub async fn claim_due_after_lead(
    db: &D1Database,
    destination: &str,
    receiver: &str,
    now: i64,
    lease_until: i64,
    limit: usize,
) -> worker::Result<Vec<Claimed>> {
    db::rows_of(&query!(
        db,
        CLAIM_DUE_AFTER_LEAD_SQL,
        destination,
        now,
        lease_until,
        limit as i64,
        receiver
    ))
    .await
}

/// The statement that makes lead `lead_id`'s delivery to `destination` due
/// again if its answers changed at `at` ([`DUE_AGAIN_SQL`]).
pub fn due_again_if_answered(
    db: &D1Database,
    lead_id: &str,
    destination: &str,
    at: i64,
) -> D1PreparedStatement {
    query!(db, DUE_AGAIN_SQL, lead_id, destination, at)
}

pub async fn claim_one(
    db: &D1Database,
    destination: &str,
    lead_id: &str,
    now: i64,
    lease_until: i64,
) -> worker::Result<Option<Claimed>> {
    db::first(&query!(
        db,
        CLAIM_ONE_SQL,
        destination,
        now,
        lease_until,
        lead_id
    ))
    .await
}

/// Marks 'expirado' what waited past its window (its lead older than `since`).
pub async fn expire(
    db: &D1Database,
    destination: &str,
    since: i64,
    why: &str,
    now: i64,
) -> worker::Result<usize> {
    let result = db::run(&query!(db, EXPIRE_SQL, destination, since, why, now)).await?;
    Ok(db::changes(&result))
}

/// The claimed deliveries of `leads` reached `destination` at `now`; what
/// waits a long step goes soon too.
pub async fn mark_sent(
    db: &D1Database,
    destination: &str,
    lease_until: i64,
    leads: &[&str],
    now: i64,
) -> worker::Result<()> {
    let ids = serde_json::to_string(leads)?;
    db::batch(
        db,
        vec![
            query!(db, SENT_SQL, destination, lease_until, ids, now),
            query!(db, WAKE_SQL, destination, now, WAKE_BEYOND_MS),
        ],
    )
    .await?;
    Ok(())
}

/// What one failed attempt leaves: the next attempt, or the state it ends in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed<'a> {
    pub claimed: &'a Claimed,
    pub next_attempt_at: Option<i64>,
    /// 'failed' or 'expired', when there is no next attempt.
    pub ends_as: &'static str,
    pub error: &'a str,
}

/// Records failed attempts, in one batch.
pub async fn record_failures(
    db: &D1Database,
    destination: &str,
    failures: &[Failed<'_>],
) -> worker::Result<()> {
    if failures.is_empty() {
        return Ok(());
    }
    let statements: Vec<D1PreparedStatement> = failures
        .iter()
        .map(|f| {
            query!(
                db,
                FAILED_SQL,
                destination,
                f.claimed.lead_id,
                f.claimed.lease_until,
                f.next_attempt_at,
                f.ends_as,
                f.error
            )
        })
        .collect();
    db::batch(db, statements).await?;
    Ok(())
}

/// The statement behind 'Reenviar' to a destination; returns the lead's id
/// when its delivery is due now.
pub fn retry(
    db: &D1Database,
    lead_id: &str,
    destination: &str,
    now: i64,
    window_since: i64,
) -> D1PreparedStatement {
    query!(db, RETRY_SQL, lead_id, destination, now, window_since)
}

/// The lead's deliveries besides Jetimob's.
pub fn of_lead(db: &D1Database, lead_id: &str) -> D1PreparedStatement {
    query!(db, OF_LEAD_SQL, lead_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D1 refuses a statement whose highest placeholder is not the last value bound.
    #[test]
    fn each_statement_uses_the_last_value_its_caller_binds() {
        for (sql, last) in [
            (CLAIM_DUE_SQL, 4),
            (CLAIM_ONE_SQL, 4),
            (CLAIM_DUE_AFTER_LEAD_SQL, 5),
            (DUE_AGAIN_SQL, 3),
            (EXPIRE_SQL, 4),
            (SENT_SQL, 4),
            (FAILED_SQL, 6),
            (WAKE_SQL, 3),
            (RETRY_SQL, 4),
            (OF_LEAD_SQL, 1),
        ] {
            assert!(sql.contains(&format!("?{last}")), "{sql}");
            assert!(!sql.contains(&format!("?{}", last + 1)), "{sql}");
        }
    }
}
