//! Delivery of leads to the Jetimob CRM.
//!
//! Every lead is committed before anything here runs, so the CRM being slow,
//! down or refusing never loses one: a new lead is tried at once (after the
//! visitor has their answer), the cron retries what is due with backoff, and
//! a lead the CRM keeps refusing for a week is marked failed for a person.
//! A correction the visitor makes to a lead the CRM already has goes the
//! same way, as a new lead post whose message says what changed.
//! Each attempt first claims its work with a lease (see [`store`]), so
//! overlapping runs never send the same thing twice.

pub mod jetimob;
pub mod schedule;
pub mod status;
pub mod store;

use futures_util::future::{Either, join_all};
use worker::Env;

use crate::http::pace::{self, Budget, Strain};
use crate::platform::db::D1Database;
use crate::platform::{self, config};
use jetimob::{Failure, Settings};
use store::{ClaimedCorrection, ClaimedLead, Kind};

/// How long a claim keeps other runs away: well past [`jetimob::TIMEOUT`] and
/// the writes around it, so a lease only runs out when its run died.
pub const LEASE_MS: i64 = 60 * 1000;

/// Leads claimed and sent together. Workers allow six simultaneous outbound
/// connections; more would queue and eat into each other's timeout. A batch
/// takes half of them from the leads that waited longest and half from the
/// newest (`store::claim_due`).
pub const BATCH_SIZE: usize = 6;

/// The receiver's name where its pace is kept (`delivery::pace`).
pub const RECEIVER: &str = "jetimob";

/// Both Jetimob keys are set. Without them nothing is attempted and leads wait, pending.
pub fn is_configured(env: &Env) -> bool {
    Settings::from_env(env).is_some()
}

/// What one attempt on one lead came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The CRM accepted the lead.
    Delivered,
    /// The CRM did not take it; the lead waits for its next attempt, or is
    /// marked failed when the retry window is over. `strain` is what the
    /// refusal says about Jetimob.
    Failed {
        last_error: String,
        gave_up: bool,
        strain: Strain,
    },
    /// Another run holds the lead, it is not due, or it is no longer pending.
    NotClaimed,
    /// No Jetimob keys: nothing was attempted.
    NotConfigured,
}

/// The attempt right after a new lead is committed (run in `ctx.wait_until`).
pub async fn deliver_new_lead(env: Env, lead_id: String) {
    if let Err(e) = attempt(&env, &lead_id).await {
        worker::console_error!("crm: could not make the first attempt on lead {lead_id}: {e}");
    }
}

/// The attempt right after a visitor corrects a lead the CRM has (run in `ctx.wait_until`).
pub async fn deliver_correction(env: Env, lead_id: String) {
    if let Err(e) = attempt_correction(&env, &lead_id).await {
        worker::console_error!(
            "crm: could not make the first attempt on the correction of lead {lead_id}: {e}"
        );
    }
}

/// Claims the lead if it is due and free, then sends it.
pub async fn attempt(env: &Env, lead_id: &str) -> worker::Result<Outcome> {
    let Some(settings) = Settings::from_env(env) else {
        return Ok(Outcome::NotConfigured);
    };
    let db = config::database(env)?;
    let now = platform::now_ms();
    match store::claim_one(&db, lead_id, now, now + LEASE_MS).await? {
        Some(lead) => deliver(&db, &settings, lead).await,
        None => Ok(Outcome::NotClaimed),
    }
}

/// Claims the lead's correction if it is due and free, then sends it.
pub async fn attempt_correction(env: &Env, lead_id: &str) -> worker::Result<Outcome> {
    let Some(settings) = Settings::from_env(env) else {
        return Ok(Outcome::NotConfigured);
    };
    let db = config::database(env)?;
    let now = platform::now_ms();
    match store::claim_correction(&db, lead_id, now, now + LEASE_MS).await? {
        Some(correction) => deliver_correction_now(&db, &settings, correction).await,
        None => Ok(Outcome::NotClaimed),
    }
}

/// The cron's delivery to Jetimob: what is due, batch after batch, while
/// Jetimob takes it and `budget` lasts (`delivery::pace`); a `429` leaves it
/// alone for its `Retry-After`, a `5xx`, a timeout or our keys refused end
/// the run's sending. Returns how many deliveries were attempted.
pub async fn drain(env: &Env, budget: &Budget) -> worker::Result<usize> {
    let db = config::database(env)?;
    let Some(settings) = Settings::from_env(env) else {
        return Ok(0);
    };
    let mut attempted = 0;
    loop {
        let now = platform::now_ms();
        if !budget.take_batch(now) {
            break;
        }
        let leads = store::claim_due(&db, now, now + LEASE_MS, BATCH_SIZE, BATCH_SIZE / 2).await?;
        let room = BATCH_SIZE - leads.len();
        let corrections = if room > 0 {
            store::claim_due_corrections(&db, now, now + LEASE_MS, room).await?
        } else {
            Vec::new()
        };
        let claimed = leads.len() + corrections.len();
        let sends = leads
            .into_iter()
            .map(|lead| Either::Left(deliver(&db, &settings, lead)))
            .chain(
                corrections
                    .into_iter()
                    .map(|c| Either::Right(deliver_correction_now(&db, &settings, c))),
            );
        let strains = join_all(sends)
            .await
            .into_iter()
            .map(|outcome| match outcome {
                Ok(Outcome::Failed { strain, .. }) => strain,
                Ok(_) => Strain::None,
                // The work keeps its lease and is retried once it runs out.
                Err(e) => {
                    worker::console_error!("crm: recording a delivery failed: {e}");
                    Strain::Stop
                }
            });
        let strain = Strain::worst(strains.collect::<Vec<_>>());
        attempted += claimed;
        match strain {
            Strain::Pause { ms } => {
                pace::pause(&db, RECEIVER, now + ms).await?;
                break;
            }
            Strain::Stop => break,
            Strain::None if claimed < BATCH_SIZE => break,
            Strain::None => {}
        }
    }
    Ok(attempted)
}

/// Sends a claimed lead and records the outcome.
async fn deliver(
    db: &D1Database,
    settings: &Settings,
    lead: ClaimedLead,
) -> worker::Result<Outcome> {
    let message = jetimob::new_lead_message(&lead);
    let sent = jetimob::send(settings, &lead, &message).await;
    record(db, settings, Kind::Lead, &lead, sent).await
}

/// Sends a claimed correction (unless the lead went back to what the CRM
/// has) and records the outcome.
async fn deliver_correction_now(
    db: &D1Database,
    settings: &Settings,
    correction: ClaimedCorrection,
) -> worker::Result<Outcome> {
    if correction.is_moot() {
        store::drop_correction(db, &correction.lead).await?;
        return Ok(Outcome::NotClaimed);
    }
    let message = jetimob::correction_message(&correction);
    let sent = jetimob::send(settings, &correction.lead, &message).await;
    record(db, settings, Kind::Correction, &correction.lead, sent).await
}

/// Records what the CRM answered: delivered, or failed with the next
/// attempt (a week of them, counted from this delivery's first attempt, and
/// not before a `Retry-After`) or none.
async fn record(
    db: &D1Database,
    settings: &Settings,
    kind: Kind,
    lead: &ClaimedLead,
    sent: Result<Option<String>, Failure>,
) -> worker::Result<Outcome> {
    let now = platform::now_ms();
    let since = lead.first_tried_at.unwrap_or(now);
    match sent {
        Ok(crm_id) => {
            store::mark_delivered(db, kind, lead, now, crm_id.as_deref()).await?;
            Ok(Outcome::Delivered)
        }
        Err(failure) => {
            let last_error = failure.describe(&settings.secrets());
            let strain = failure.strain();
            let next = schedule::after_failure(since, lead.delivery_attempts, now)
                .retry_at()
                .map(|at| match strain {
                    Strain::Pause { ms } => at.max(now + ms),
                    _ => at,
                });
            worker::console_warn!(
                "crm: attempt {} on {:?} of lead {} failed: {last_error}",
                lead.delivery_attempts,
                kind,
                lead.id
            );
            store::record_failure(db, kind, lead, &last_error, next, now).await?;
            Ok(Outcome::Failed {
                last_error,
                gave_up: next.is_none(),
                strain,
            })
        }
    }
}
