//! The delivery columns of the leads table and the attempts log: each query once.
//!
//! Two things are delivered to the CRM: a new lead, and a correction of a
//! lead it already has (the visitor sent new details). Each is claimed before
//! the CRM is called: one conditional UPDATE writes a lease, so of two runs
//! that see the same due work only one gets it back. D1 runs each statement
//! on its own, so there is no window between the check and the write.
//!
//! What the CRM was sent is remembered (`sent_name`, `sent_email`,
//! `sent_whatsapp`); a lead whose details differ from it has a correction
//! to deliver. So a correction made while the first delivery is in flight is
//! sent after it, and one made before the first delivery needs none: the
//! lead goes with its newest details.

use serde::Deserialize;

use super::status::{Correction, Delivery};
use crate::attribution::Attribution;
use crate::audit::live_session::session_is_live;
use crate::http::pace::not_paused;
use crate::platform::db::{self, D1Database, D1PreparedStatement, query};

/// What the CRM needs of a lead, and what recording the outcome needs: the
/// fields of [`ClaimedLead`]. A macro so both claims of each kind splice in one literal.
macro_rules! returning_claimed {
    () => {
        concat!(
            " RETURNING id, name, email, whatsapp, origem, created_at, ",
            $crate::attribution::attribution_columns!(),
            ", delivery_attempts, lease_until, \
             coalesce((SELECT min(at) FROM crm_attempts WHERE lead_id = leads.id AND kind = 'lead'), \
                      CASE WHEN delivery_attempts > 1 THEN created_at END) AS first_tried_at"
        )
    };
}

/// The same for a correction: its own attempts and lease, and what the CRM has.
macro_rules! returning_claimed_correction {
    () => {
        concat!(
            " RETURNING id, name, email, whatsapp, origem, created_at, ",
            $crate::attribution::attribution_columns!(),
            ", update_attempts AS delivery_attempts, \
             update_lease_until AS lease_until, sent_name, sent_email, sent_whatsapp, \
             coalesce((SELECT min(at) FROM crm_attempts WHERE lead_id = leads.id AND kind = 'update' \
                         AND at >= leads.update_requested_at), \
                      CASE WHEN update_attempts > 1 THEN update_requested_at END) AS first_tried_at"
        )
    };
}

/// Claims one lead if it is pending, due and not leased, and Jetimob did
/// not ask to be left alone (`delivery::pace`). `?2` now, `?3` the lease's end.
const CLAIM_ONE_SQL: &str = concat!(
    "UPDATE leads SET lease_until = ?3, delivery_attempts = delivery_attempts + 1 \
     WHERE id = ?1 AND delivery_status = 'pending' AND next_attempt_at <= ?2 \
       AND (lease_until IS NULL OR lease_until < ?2) AND ",
    not_paused!("jetimob", "?2"),
    returning_claimed!()
);

/// The cron's claim: up to `?3` due leads, up to `?5` of them the newest
/// of the last [`NEWEST_WINDOW_MS`] (`?4`: since when), the rest those due
/// the longest. `?1` now, `?2` the lease's end. A backlog is served from both
/// ends: the lead a broker can still call within its first minutes, and the
/// one that waited longest. The newest are read through the 'Pendentes'
/// list's index, from the newest pending lead back to the window's start
/// (the pending leads of those minutes only, however long the backlog, and
/// not the leads already delivered), the oldest through the due index; a
/// lead both is claimed once.
const CLAIM_DUE_SQL: &str = concat!(
    "UPDATE leads SET lease_until = ?2, delivery_attempts = delivery_attempts + 1 \
     WHERE id IN (SELECT id FROM ( \
         SELECT id, 0 AS newest FROM (SELECT id FROM leads INDEXED BY leads_status_newest \
           WHERE delivery_status = 'pending' AND created_at >= ?4 AND next_attempt_at <= ?1 \
             AND (lease_until IS NULL OR lease_until < ?1) \
           ORDER BY created_at DESC, id DESC LIMIT ?5) \
         UNION ALL \
         SELECT id, 1 FROM (SELECT id FROM leads INDEXED BY leads_due \
           WHERE delivery_status = 'pending' AND next_attempt_at <= ?1 \
             AND (lease_until IS NULL OR lease_until < ?1) \
           ORDER BY next_attempt_at LIMIT ?3)) \
       GROUP BY id ORDER BY min(newest) LIMIT ?3) AND ",
    not_paused!("jetimob", "?1"),
    returning_claimed!()
);

/// Claims a lead's correction if it is due and not leased. `?2` now, `?3` the lease's end.
const CLAIM_CORRECTION_SQL: &str = concat!(
    "UPDATE leads SET update_lease_until = ?3, update_attempts = update_attempts + 1 \
     WHERE id = ?1 AND update_status = 'pending' AND update_next_attempt_at <= ?2 \
       AND delivery_status = 'sent' AND (update_lease_until IS NULL OR update_lease_until < ?2) \
       AND ",
    not_paused!("jetimob", "?2"),
    returning_claimed_correction!()
);

/// Claims up to `?3` due corrections. `?1` now, `?2` the lease's end.
const CLAIM_DUE_CORRECTIONS_SQL: &str = concat!(
    "UPDATE leads SET update_lease_until = ?2, update_attempts = update_attempts + 1 \
     WHERE id IN (SELECT id FROM leads INDEXED BY leads_update_due \
       WHERE update_status = 'pending' AND update_next_attempt_at <= ?1 \
         AND delivery_status = 'sent' AND (update_lease_until IS NULL OR update_lease_until < ?1) \
       ORDER BY update_next_attempt_at LIMIT ?3) AND ",
    not_paused!("jetimob", "?1"),
    returning_claimed_correction!()
);

/// The lead's details now differ from `?4`/`?5`/`?6`, what the CRM was just sent.
macro_rules! differs_from_sent {
    () => {
        "(name IS NOT ?4 OR email IS NOT ?5 OR whatsapp IS NOT ?6)"
    };
}

/// The CRM accepted the lead. Written whoever holds the lease: the CRM has it
/// either way. A lead staff marked sent meanwhile keeps their mark and time.
/// What was sent is remembered; if the visitor corrected the lead while it
/// was in flight, the correction becomes due.
const MARK_DELIVERED_SQL: &str = concat!(
    "UPDATE leads SET \
       sent_at = CASE WHEN delivery_status = 'sent' THEN sent_at ELSE ?2 END, \
       sent_by = CASE WHEN delivery_status = 'sent' THEN sent_by ELSE 'crm' END, \
       delivery_status = 'sent', jetimob_lead_id = ?3, \
       lease_until = NULL, next_attempt_at = NULL, \
       sent_name = ?4, sent_email = ?5, sent_whatsapp = ?6, \
       update_status = CASE WHEN ",
    differs_from_sent!(),
    " THEN 'pending' ELSE update_status END, \
       update_requested_at = CASE WHEN ",
    differs_from_sent!(),
    " AND update_status IS NOT 'pending' THEN ?2 ELSE update_requested_at END, \
       update_next_attempt_at = CASE WHEN ",
    differs_from_sent!(),
    " AND update_status IS NOT 'pending' THEN ?2 ELSE update_next_attempt_at END \
     WHERE id = ?1"
);

/// The CRM accepted the correction: it now has `?4`/`?5`/`?6`. If the visitor
/// corrected the lead again meanwhile, the next correction is due at once.
const MARK_CORRECTED_SQL: &str = concat!(
    "UPDATE leads SET sent_name = ?4, sent_email = ?5, sent_whatsapp = ?6, \
       update_lease_until = NULL, update_last_error = NULL, update_attempts = 0, \
       update_status = CASE WHEN ",
    differs_from_sent!(),
    " THEN 'pending' ELSE NULL END, \
       update_requested_at = CASE WHEN ",
    differs_from_sent!(),
    " THEN ?2 ELSE NULL END, \
       update_next_attempt_at = CASE WHEN ",
    differs_from_sent!(),
    " THEN ?2 ELSE NULL END \
     WHERE id = ?1"
);

/// In a statement that gives a lead new details: they (`?2`, `?3`, `?4`) differ from what a
/// delivered lead's CRM record has.
macro_rules! needs_correction {
    () => {
        "(delivery_status = 'sent' AND (sent_name IS NOT ?2 OR sent_email IS NOT ?3 \
         OR sent_whatsapp IS NOT ?4))"
    };
}
/// In a statement that gives a lead new details: a correction the CRM refused for good, whose lead goes
/// back to exactly what the CRM has. Nothing is left to send, so nothing is
/// left for a person to do ('Precisam de atenção'). A pending one is left to
/// the cron, which drops it when it comes to it (it may be on its way).
macro_rules! given_up_and_moot {
    () => {
        "(delivery_status = 'sent' AND update_status = 'failed' AND sent_name IS ?2 \
         AND sent_email IS ?3 AND sent_whatsapp IS ?4)"
    };
}
/// A lead takes the details `?2`/`?3`/`?4` at `?6`: as SQL to follow `SET`,
/// in the visitor's submission (`leads::store`) and in staff's 'Aceitar'
/// (`admin::changes`). The correction's state ([`super::status::Correction`])
/// moves here.
/// A lead already in the CRM whose details now differ from what the CRM was
/// sent gets a correction to deliver (unless one is waiting already); one
/// whose details are back to what the CRM has loses its given-up one.
macro_rules! take_details {
    () => {
        concat!(
            "name = ?2, email = ?3, whatsapp = ?4, \
               update_status = CASE WHEN ",
            $crate::crm::store::needs_correction!(),
            " THEN 'pending' WHEN ",
            $crate::crm::store::given_up_and_moot!(),
            " THEN NULL ELSE update_status END, \
               update_requested_at = CASE WHEN ",
            $crate::crm::store::needs_correction!(),
            " AND update_status IS NOT 'pending' THEN ?6 WHEN ",
            $crate::crm::store::given_up_and_moot!(),
            " THEN NULL ELSE update_requested_at END, \
               update_next_attempt_at = CASE WHEN ",
            $crate::crm::store::needs_correction!(),
            " AND update_status IS NOT 'pending' THEN ?6 WHEN ",
            $crate::crm::store::given_up_and_moot!(),
            " THEN NULL ELSE update_next_attempt_at END, \
               update_attempts = CASE WHEN ",
            $crate::crm::store::needs_correction!(),
            " AND update_status IS NOT 'pending' THEN 0 WHEN ",
            $crate::crm::store::given_up_and_moot!(),
            " THEN 0 ELSE update_attempts END, \
               update_last_error = CASE WHEN ",
            $crate::crm::store::given_up_and_moot!(),
            " THEN NULL ELSE update_last_error END"
        )
    };
}
pub(crate) use {given_up_and_moot, needs_correction, take_details};

/// The attempt failed: `?4` is the next attempt, or NULL when the retry window
/// is over and the lead needs a person; `?5` the state that leaves it in
/// ([`Delivery::after_refusal`]). Only the lease holder (`?2`) writes, and
/// only while the lead is still pending (staff may have marked it sent).
const RECORD_FAILURE_SQL: &str = "UPDATE leads SET last_error = ?3, next_attempt_at = ?4, \
       delivery_status = ?5, \
       lease_until = NULL \
     WHERE id = ?1 AND lease_until = ?2 AND delivery_status = 'pending'";

/// The correction's attempt failed; as [`RECORD_FAILURE_SQL`], for the correction.
const RECORD_CORRECTION_FAILURE_SQL: &str = "UPDATE leads SET update_last_error = ?3, \
       update_next_attempt_at = ?4, \
       update_status = ?5, \
       update_lease_until = NULL \
     WHERE id = ?1 AND update_lease_until = ?2 AND update_status = 'pending'";

/// The visitor went back to what the CRM has: no correction is left to send.
const DROP_CORRECTION_SQL: &str = "UPDATE leads SET update_status = NULL, \
       update_requested_at = NULL, update_next_attempt_at = NULL, update_attempts = 0, \
       update_lease_until = NULL, update_last_error = NULL \
     WHERE id = ?1 AND update_lease_until = ?2 \
       AND name IS sent_name AND email IS sent_email AND whatsapp IS sent_whatsapp";

/// One line of a lead's delivery story.
const LOG_ATTEMPT_SQL: &str = "INSERT INTO crm_attempts (lead_id, at, kind, outcome, detail) \
     SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM leads WHERE id = ?1)";

/// Whether the details staff entered in the CRM (`?3`…`?5`, NULL for the
/// lead's own) are not the lead's now.
macro_rules! differs_from_entered {
    () => {
        "(name IS NOT coalesce(?3, name) OR email IS NOT coalesce(?4, email) \
          OR whatsapp IS NOT coalesce(?5, whatsapp))"
    };
}

/// The leads 'Marcar Enviado' changes: not in the CRM yet, or with a
/// correction it has not learned. Its audit entry is written under the same
/// condition.
macro_rules! mark_sent_applies {
    () => {
        "(delivery_status != 'sent' OR update_status IS NOT NULL)"
    };
}
pub(crate) use mark_sent_applies;

/// The leads 'Reenviar' makes due: pending or failed, or with a correction
/// the CRM refused for good. Its audit entry is written under the same
/// condition.
macro_rules! retry_applies {
    () => {
        "(delivery_status IN ('pending', 'failed') OR update_status = 'failed')"
    };
}
pub(crate) use retry_applies;

/// 'Marcar Enviado': staff entered the lead in the CRM themselves, with the
/// details the panel showed them (`?3`…`?5`; NULL: the lead's own), or the
/// correction the CRM has not learned. If the visitor corrected the lead
/// since the panel showed it, that correction becomes due, so it is not lost.
/// An attempt in flight can no longer record a failure over it (failures are
/// recorded on pending leads only). `next_attempt_at` and `lease_until` stay
/// as they were: what 'Desfazer' ([`UNMARK_SENT_BY_STAFF_SQL`]) reads the
/// status back from (a pending lead has a next attempt, a failed one none),
/// and the attempt in flight it waits for. Only while the staff session `?6`
/// may still act.
const MARK_SENT_BY_STAFF_SQL: &str = concat!(
    "UPDATE leads SET \
       sent_at = CASE WHEN delivery_status = 'sent' THEN sent_at ELSE ?2 END, \
       sent_by = CASE WHEN delivery_status = 'sent' THEN sent_by ELSE 'staff' END, \
       delivery_status = 'sent', \
       sent_name = coalesce(?3, name), sent_email = coalesce(?4, email), \
       sent_whatsapp = coalesce(?5, whatsapp), \
       update_status = CASE WHEN ",
    differs_from_entered!(),
    " THEN 'pending' END, \
       update_requested_at = CASE WHEN ",
    differs_from_entered!(),
    " THEN ?2 END, \
       update_next_attempt_at = CASE WHEN ",
    differs_from_entered!(),
    " THEN ?2 END, \
       update_attempts = 0, update_last_error = NULL, update_lease_until = NULL \
     WHERE id = ?1 AND ",
    mark_sent_applies!(),
    " AND ",
    session_is_live!("?6", "?2"),
    " RETURNING id"
);

/// How long after 'Marcar Enviado' it may be undone ('Desfazer'): the panel
/// offers it for 10 seconds, the rest allows for a slow network. Written out
/// again in [`unmark_sent_applies`], where SQL needs it as a literal.
pub const UNMARK_WINDOW_MS: i64 = 60_000;

/// The audit entry of the 'Marcar Enviado' that sent the lead (`m`): written
/// in the same batch, at the same time as `sent_at`.
macro_rules! the_mark {
    () => {
        concat!(
            "audit_log m WHERE m.lead_id = leads.id AND m.action = ",
            $crate::audit::action_sql!(MarkSent),
            " AND m.at = leads.sent_at"
        )
    };
}

/// The integration reached Jetimob with the lead after all (an attempt in
/// flight when it was marked), or tried its correction since the mark (which
/// zeroes `update_attempts`).
macro_rules! crm_took_it {
    () => {
        "(update_attempts > 0 OR EXISTS (SELECT 1 FROM crm_attempts \
           WHERE lead_id = leads.id AND kind = 'lead' AND outcome = 'sent'))"
    };
}

/// The leads 'Desfazer' puts back: marked sent by staff less than a minute
/// before `$now` ([`UNMARK_WINDOW_MS`]), by the staff member `$me` or with
/// `$me` an owner, and that the integration has not reached Jetimob with
/// since. Its audit entry is written under the same condition.
macro_rules! unmark_sent_applies {
    ($now:literal, $me:literal) => {
        concat!(
            "(delivery_status = 'sent' AND sent_by = 'staff' AND sent_at > ",
            $now,
            " - 60000 AND NOT ",
            $crate::crm::store::crm_took_it!(),
            " AND EXISTS (SELECT 1 FROM ",
            $crate::crm::store::the_mark!(),
            " AND (m.staff_id = ",
            $me,
            " OR EXISTS (SELECT 1 FROM staff_users o WHERE o.id = ",
            $me,
            " AND o.role = ",
            $crate::agency::roles::role_sql!(Owner),
            "))))"
        )
    };
}
pub(crate) use {crm_took_it, the_mark, unmark_sent_applies};

/// 'Desfazer': the lead back as it was before 'Marcar Enviado' (see
/// [`unmark_sent_applies`]): not in the CRM and nothing sent to it, no
/// correction waiting (the lead goes with its newest details), its attempts
/// and last error as they were. Failed if it had no next attempt (a lead
/// given up keeps none; a pending one always has one), else pending and due
/// now at the latest, so the next cron sends it. `?1` the lead, `?2` now,
/// `?3` the staff session, `?4` the staff member's id.
const UNMARK_SENT_BY_STAFF_SQL: &str = concat!(
    "UPDATE leads SET \
       delivery_status = CASE WHEN next_attempt_at IS NULL THEN 'failed' ELSE 'pending' END, \
       next_attempt_at = min(next_attempt_at, ?2), \
       sent_at = NULL, sent_by = NULL, sent_name = NULL, sent_email = NULL, sent_whatsapp = NULL, \
       update_status = NULL, update_requested_at = NULL, update_next_attempt_at = NULL, \
       update_attempts = 0, update_lease_until = NULL, update_last_error = NULL \
     WHERE id = ?1 AND ",
    unmark_sent_applies!("?2", "?4"),
    " AND ",
    session_is_live!("?3", "?2"),
    " RETURNING id, delivery_status"
);

/// What tells why 'Desfazer' did not apply to a lead.
const MARK_STATE_SQL: &str = concat!(
    "SELECT delivery_status, sent_by, sent_at, (SELECT m.staff_id FROM ",
    the_mark!(),
    " ORDER BY m.id DESC LIMIT 1) AS marked_by_id, ",
    crm_took_it!(),
    " AS crm_took_it FROM leads WHERE id = ?1"
);

/// Makes a failed or pending lead due at `?2` (its attempts and last error
/// stay: one more attempt), or a failed correction of a delivered one, which
/// starts again as a new correction would: its week from now, its backoff
/// from the first step (1 minute, not the 6 hours its count had reached).
/// Only while the staff session `?3` may still act.
const RETRY_NOW_SQL: &str = concat!(
    "UPDATE leads SET \
       delivery_status = CASE WHEN delivery_status = 'sent' THEN 'sent' ELSE 'pending' END, \
       next_attempt_at = CASE WHEN delivery_status = 'sent' THEN next_attempt_at ELSE ?2 END, \
       update_status = CASE WHEN delivery_status = 'sent' THEN 'pending' ELSE update_status END, \
       update_requested_at = CASE WHEN delivery_status = 'sent' THEN ?2 ELSE update_requested_at END, \
       update_next_attempt_at = CASE WHEN delivery_status = 'sent' THEN ?2 ELSE update_next_attempt_at END, \
       update_attempts = CASE WHEN delivery_status = 'sent' THEN 0 ELSE update_attempts END \
     WHERE id = ?1 AND ",
    retry_applies!(),
    " AND ",
    session_is_live!("?3", "?2"),
    " RETURNING id, delivery_status"
);

/// A lead this run holds the lease on (for its first delivery, or for a correction).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ClaimedLead {
    pub id: String,
    pub name: String,
    pub email: String,
    /// E.164.
    pub whatsapp: String,
    pub origem: String,
    pub created_at: i64,
    /// Where it came from: the CRM's module picks what the CRM takes.
    #[serde(flatten)]
    pub attribution: Attribution,
    /// Including the attempt this claim starts.
    pub delivery_attempts: i64,
    /// When this delivery (the lead's, or the correction's) was first tried,
    /// if before this claim: its week of retries counts from there, not from
    /// when the lead arrived, so leads that waited for the keys get a week too.
    /// Attempts made before they were logged (`crm_attempts`) count from the
    /// lead's arrival (or the correction's request), as they did then.
    pub first_tried_at: Option<i64>,
    /// The lease's end; also what proves this run holds it.
    pub lease_until: i64,
}

/// A correction this run holds the lease on: the lead now, and what the CRM
/// has (the columns beyond the lead's own, read from the same row).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ClaimedCorrection {
    #[serde(flatten)]
    pub lead: ClaimedLead,
    pub sent_name: Option<String>,
    pub sent_email: Option<String>,
    pub sent_whatsapp: Option<String>,
}

impl ClaimedCorrection {
    /// Whether the CRM already has the lead's details (nothing left to send).
    pub fn is_moot(&self) -> bool {
        self.sent_name.as_deref() == Some(self.lead.name.as_str())
            && self.sent_email.as_deref() == Some(self.lead.email.as_str())
            && self.sent_whatsapp.as_deref() == Some(self.lead.whatsapp.as_str())
    }
}

/// Which of the two deliveries an attempt was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Lead,
    Correction,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Lead => "lead",
            Kind::Correction => "update",
        }
    }
}

pub async fn claim_one(
    db: &D1Database,
    id: &str,
    now: i64,
    lease_until: i64,
) -> worker::Result<Option<ClaimedLead>> {
    db::first::<ClaimedLead>(&query!(db, CLAIM_ONE_SQL, id, now, lease_until)).await
}

/// How recent a lead the newest-first part of the cron's claim looks for.
pub const NEWEST_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Claims up to `limit` due leads, up to `newest` of them the newest
/// ([`CLAIM_DUE_SQL`]).
pub async fn claim_due(
    db: &D1Database,
    now: i64,
    lease_until: i64,
    limit: usize,
    newest: usize,
) -> worker::Result<Vec<ClaimedLead>> {
    db::rows_of::<ClaimedLead>(&query!(
        db,
        CLAIM_DUE_SQL,
        now,
        lease_until,
        limit as i64,
        now - NEWEST_WINDOW_MS,
        newest as i64
    ))
    .await
}

pub async fn claim_correction(
    db: &D1Database,
    id: &str,
    now: i64,
    lease_until: i64,
) -> worker::Result<Option<ClaimedCorrection>> {
    db::first::<ClaimedCorrection>(&query!(db, CLAIM_CORRECTION_SQL, id, now, lease_until)).await
}

pub async fn claim_due_corrections(
    db: &D1Database,
    now: i64,
    lease_until: i64,
    limit: usize,
) -> worker::Result<Vec<ClaimedCorrection>> {
    db::rows_of(&query!(
        db,
        CLAIM_DUE_CORRECTIONS_SQL,
        now,
        lease_until,
        limit as i64
    ))
    .await
}

fn log_attempt(
    db: &D1Database,
    lead_id: &str,
    now: i64,
    kind: Kind,
    outcome: &str,
    detail: Option<&str>,
) -> D1PreparedStatement {
    query!(
        db,
        LOG_ATTEMPT_SQL,
        lead_id,
        now,
        kind.name(),
        outcome,
        detail
    )
}

/// Jetimob took a delivery: what waits a long step of its backoff (up to 6
/// hours) after failing the way an outage or our keys fail goes in the next
/// runs instead, so a backlog drains within minutes of Jetimob coming back,
/// and the incident it holds open ends with it. Not a delivery Jetimob
/// refused for itself (400, 409, 422: its data), nor one tried in the last
/// 30 minutes: one that fails whatever Jetimob's state is woken twice an
/// hour at most, however many others go. Read through the due index: the
/// waiting deliveries only.
macro_rules! wake_sql {
    ($index:literal, $status:literal, $next:literal, $error:literal, $kind:literal) => {
        concat!(
            "UPDATE leads SET ",
            $next,
            " = ?1 WHERE id IN (SELECT l.id FROM leads l INDEXED BY ",
            $index,
            " WHERE l.",
            $next,
            " > ?1 + ?2 AND l.",
            $status,
            " = 'pending' AND l.",
            $error,
            " NOT LIKE 'HTTP 400%' AND l.",
            $error,
            " NOT LIKE 'HTTP 409%' AND l.",
            $error,
            " NOT LIKE 'HTTP 422%' \
               AND NOT EXISTS (SELECT 1 FROM crm_attempts a \
                 WHERE a.lead_id = l.id AND a.kind = '",
            $kind,
            "' AND a.at > ?1 - ?3))"
        )
    };
}
const WAKE_LEADS_SQL: &str = wake_sql!(
    "leads_due",
    "delivery_status",
    "next_attempt_at",
    "last_error",
    "lead"
);
const WAKE_CORRECTIONS_SQL: &str = wake_sql!(
    "leads_update_due",
    "update_status",
    "update_next_attempt_at",
    "update_last_error",
    "update"
);
/// A delivery due within this is left to its own step.
const WAKE_BEYOND_MS: i64 = 5 * 60 * 1000;
/// A delivery tried within this is not woken again.
const WAKE_RESTED_MS: i64 = 30 * 60 * 1000;

/// The CRM accepted `sent` (the lead as claimed): recorded with its story
/// line, and what waited on a long step of its backoff is due now.
pub async fn mark_delivered(
    db: &D1Database,
    kind: Kind,
    sent: &ClaimedLead,
    now: i64,
    jetimob_lead_id: Option<&str>,
) -> worker::Result<()> {
    let sql = match kind {
        Kind::Lead => MARK_DELIVERED_SQL,
        Kind::Correction => MARK_CORRECTED_SQL,
    };
    db::batch(
        db,
        vec![
            query!(
                db,
                sql,
                sent.id,
                now,
                jetimob_lead_id,
                sent.name,
                sent.email,
                sent.whatsapp
            ),
            log_attempt(db, &sent.id, now, kind, "sent", jetimob_lead_id),
            query!(db, WAKE_LEADS_SQL, now, WAKE_BEYOND_MS, WAKE_RESTED_MS),
            query!(
                db,
                WAKE_CORRECTIONS_SQL,
                now,
                WAKE_BEYOND_MS,
                WAKE_RESTED_MS
            ),
        ],
    )
    .await?;
    Ok(())
}

/// The attempt failed: `next_attempt_at` is `None` when the retry window is over.
pub async fn record_failure(
    db: &D1Database,
    kind: Kind,
    lead: &ClaimedLead,
    last_error: &str,
    next_attempt_at: Option<i64>,
    now: i64,
) -> worker::Result<()> {
    let gave_up = next_attempt_at.is_none();
    let record = match kind {
        Kind::Lead => query!(
            db,
            RECORD_FAILURE_SQL,
            lead.id,
            lead.lease_until,
            last_error,
            next_attempt_at,
            Delivery::after_refusal(gave_up)
        ),
        Kind::Correction => query!(
            db,
            RECORD_CORRECTION_FAILURE_SQL,
            lead.id,
            lead.lease_until,
            last_error,
            next_attempt_at,
            Correction::after_refusal(gave_up)
        ),
    };
    db::batch(
        db,
        vec![
            record,
            log_attempt(db, &lead.id, now, kind, "failed", Some(last_error)),
        ],
    )
    .await?;
    Ok(())
}

/// A claimed correction with nothing left to send is dropped.
pub async fn drop_correction(db: &D1Database, lead: &ClaimedLead) -> worker::Result<()> {
    db::run(&query!(db, DROP_CORRECTION_SQL, lead.id, lead.lease_until)).await?;
    Ok(())
}

/// What staff entered in the CRM by hand: the details the panel showed them
/// (`None`: the lead's own, as they are now).
#[derive(Debug, Default)]
pub struct Entered {
    pub name: Option<String>,
    pub email: Option<String>,
    pub whatsapp: Option<String>,
}

/// The statement behind 'Marcar Enviado'; `RETURNING id` when it changed the lead.
pub fn mark_sent_by_staff(
    db: &D1Database,
    id: &str,
    now: i64,
    entered: &Entered,
    session_id: &str,
) -> D1PreparedStatement {
    query!(
        db,
        MARK_SENT_BY_STAFF_SQL,
        id,
        now,
        entered.name,
        entered.email,
        entered.whatsapp,
        session_id
    )
}

/// The statement behind 'Desfazer' by the staff member `staff_id`; returns
/// the lead's id and its delivery status again when it put the lead back.
pub fn unmark_sent_by_staff(
    db: &D1Database,
    id: &str,
    now: i64,
    session_id: &str,
    staff_id: &str,
) -> D1PreparedStatement {
    query!(db, UNMARK_SENT_BY_STAFF_SQL, id, now, session_id, staff_id)
}

/// A lead as far as 'Desfazer' is concerned.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct MarkState {
    pub delivery_status: Delivery,
    pub sent_by: Option<String>,
    pub sent_at: Option<i64>,
    /// Who made the 'Marcar Enviado' that sent it (their id), if staff did.
    pub marked_by_id: Option<String>,
    /// The integration reached Jetimob with it since ([`crm_took_it`]).
    pub crm_took_it: i64,
}

/// The lead's [`MarkState`], `None` if there is no such lead.
pub async fn mark_state(db: &D1Database, id: &str) -> worker::Result<Option<MarkState>> {
    db::first::<MarkState>(&query!(db, MARK_STATE_SQL, id)).await
}

/// The statement behind 'Reenviar'; returns the lead's id and delivery status
/// when the lead (or, for a lead the CRM has, its correction) is now due.
pub fn retry_now(db: &D1Database, id: &str, now: i64, session_id: &str) -> D1PreparedStatement {
    query!(db, RETRY_NOW_SQL, id, now, session_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn correction(sent: (&str, &str, &str)) -> ClaimedCorrection {
        ClaimedCorrection {
            lead: ClaimedLead {
                id: "l".into(),
                name: "Joana".into(),
                email: "joana@example.com".into(),
                whatsapp: "+5549988887777".into(),
                origem: "site".into(),
                created_at: 0,
                attribution: Attribution::default(),
                delivery_attempts: 1,
                lease_until: 1,
                first_tried_at: None,
            },
            sent_name: Some(sent.0.into()),
            sent_email: Some(sent.1.into()),
            sent_whatsapp: Some(sent.2.into()),
        }
    }

    #[test]
    fn desfazer_is_allowed_for_the_window_the_sql_states() {
        let window = format!("sent_at > ?2 - {UNMARK_WINDOW_MS} ");
        assert!(UNMARK_SENT_BY_STAFF_SQL.contains(&window), "{window}");
        // The mark keeps what 'Desfazer' reads the status back from.
        assert!(!MARK_SENT_BY_STAFF_SQL.contains(" next_attempt_at ="));
        assert!(!MARK_SENT_BY_STAFF_SQL.contains(" lease_until ="));
    }

    #[test]
    fn a_correction_back_to_what_the_crm_has_is_moot() {
        assert!(correction(("Joana", "joana@example.com", "+5549988887777")).is_moot());
        assert!(!correction(("Joana", "joana@example.com", "+5549999990001")).is_moot());
    }

    #[test]
    fn what_was_sent_is_compared_with_the_lead_in_every_statement_that_records_a_delivery() {
        for sql in [MARK_DELIVERED_SQL, MARK_CORRECTED_SQL] {
            assert!(sql.contains(differs_from_sent!()), "{sql}");
            assert!(sql.contains("sent_name = ?4"), "{sql}");
        }
    }
}
