//! One way to deliver a lead anywhere: to the CRM (Jetimob) and to the ad
//! platforms' conversion APIs (Meta).
//!
//! Every lead is committed before anything here runs, with what it owes each
//! destination: Jetimob's delivery in the lead's own columns (`crm`, the
//! panel's 'Status Jetimob'), any other destination's as a row of
//! `deliveries` (pendente, enviado, falhou, expirado; no row: não se aplica).
//! Each delivery has the same life: tried right after the visitor has their
//! answer, retried by the cron with backoff (`crm::schedule`), claimed with a
//! lease before every attempt so parallel runs never send it twice, given up
//! for a person when its window is over. A destination is one module that
//! builds its request and reads its answer (`crm::jetimob`, [`meta`]); the
//! cron drains them side by side at each receiver's pace ([`pace`]).

pub mod pace;

use worker::Env;

use crate::{crm, platform};
use pace::Budget;

/// The first attempts on a new lead, right after the visitor has their
/// answer (in `ctx.wait_until`): each destination it is for.
pub async fn deliver_new_lead(env: Env, lead_id: String) {
    crm::deliver_new_lead(env, lead_id).await;
}

/// The cron: what is due to every destination, drained side by side within
/// one run's budget. Returns how many deliveries were attempted.
pub async fn run_due(env: &Env) -> worker::Result<usize> {
    let budget = Budget::for_run(platform::now_ms());
    crm::drain(env, &budget).await
}
