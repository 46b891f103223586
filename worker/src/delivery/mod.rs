//! One way to deliver a lead anywhere: to the CRM (Jetimob) and to the ad
//! platforms' conversion APIs (Meta).
//!
//! Every lead is committed before anything here runs, with what it owes each
//! destination: Jetimob's delivery in the lead's own columns (`crm`, the
//! panel's 'Status Jetimob'), any other destination's as a row of
//! `deliveries` (pendente, enviado, falhou, expirado; no row: não se aplica).
//! Each delivery has the same life: tried right after the visitor has their
//! answer, retried by the cron with backoff (`crm::schedule`), claimed with a
//! lease before every attempt so parallel runs never send it twice, ended
//! when its window is over. A destination is one module that builds its
//! request and reads its answer (`crm::jetimob`, [`meta`]); the cron drains
//! them side by side at each receiver's pace ([`pace`]).

pub mod disclosure;
pub mod google_ads;
pub mod jetimob_answers;
pub mod meta;
pub mod store;

use futures_util::future::join;
use worker::Env;

use crate::crm;
use crate::delivery::disclosure::AdsDisclosure;
use crate::http::pace::{self, Budget, Strain};
use crate::platform::cron_state::{self, meta_refused_at, meta_sent_at};
use crate::platform::db::{self, D1Database, query};
use crate::platform::{self, config};
use meta::{EventLead, Refusal, Visitor};
use store::{Claimed, Failed};

/// How long a claim keeps other runs away: past a request's timeout and the
/// writes around it, so a lease only runs out when its run died.
const LEASE_MS: i64 = 60 * 1000;

/// The destinations besides Jetimob a new lead is for: Meta when its
/// Conversions API is configured, and, with `ADS_CONSENT=checkbox`, only for
/// a visitor who ticked the box.
pub fn destinations_for(env: &Env, consented: bool) -> Vec<&'static str> {
    let ads = AdsDisclosure::from_env(env);
    let meta = ads.meta && (!ads.asks_consent() || consented);
    meta.then_some(meta::DESTINATION).into_iter().collect()
}

/// The first attempts on a new lead, right after the visitor has their
/// answer (in `ctx.wait_until`): to each destination it is for, side by
/// side; Meta's with the visitor's address and browser, at hand only now.
pub async fn deliver_new_lead(env: Env, lead_id: String, visitor: Visitor) {
    join(
        crm::deliver_new_lead(env.clone(), lead_id.clone()),
        first_meta_attempt(&env, &lead_id, &visitor),
    )
    .await;
}

/// The cron: what is due to every destination, drained side by side within
/// one run's budget. Returns how many deliveries were attempted.
pub async fn run_due(env: &Env) -> worker::Result<usize> {
    let budget = Budget::for_run(platform::now_ms());
    let (jetimob, meta) = join(crm::drain(env, &budget), drain_meta(env, &budget)).await;
    if let Err(e) = &meta {
        worker::console_error!("delivery: the run to Meta failed: {e}");
    }
    // The answers follow the leads Jetimob has now, in what is left of the run.
    let answers = drain_answers(env, &budget).await;
    if let Err(e) = &answers {
        worker::console_error!("delivery: the run of answers to Jetimob failed: {e}");
    }
    Ok(jetimob? + meta.unwrap_or_default() + answers.unwrap_or_default())
}

/// The visitor's answers to Jetimob, while it is configured.
async fn drain_answers(env: &Env, budget: &Budget) -> worker::Result<usize> {
    let Some(settings) = crm::jetimob::Settings::from_env(env) else {
        return Ok(0);
    };
    let db = config::database(env)?;
    jetimob_answers::drain(&db, &settings, budget).await
}

/// A lease's end for a claim made at `now`, with a few random milliseconds
/// so two runs claiming in the same millisecond never hold the same value.
fn lease_from(now: i64) -> i64 {
    let [jitter] = platform::random_bytes::<1>();
    now + LEASE_MS + i64::from(jitter)
}

/// The leads of `claimed`, as the events need them.
const EVENT_LEADS_SQL: &str = "SELECT id, name, email, whatsapp, created_at, page_url, fbclid \
     FROM leads WHERE id IN (SELECT value FROM json_each(?1))";

async fn event_leads(db: &D1Database, claimed: &[Claimed]) -> worker::Result<Vec<EventLead>> {
    let ids: Vec<&str> = claimed.iter().map(|c| c.lead_id.as_str()).collect();
    db::rows_of(&query!(db, EVENT_LEADS_SQL, serde_json::to_string(&ids)?)).await
}

async fn first_meta_attempt(env: &Env, lead_id: &str, visitor: &Visitor) {
    let attempt = async {
        let Some(settings) = meta::Settings::from_env(env) else {
            return Ok(());
        };
        let db = config::database(env)?;
        let now = platform::now_ms();
        let Some(claimed) =
            store::claim_one(&db, meta::DESTINATION, lead_id, now, lease_from(now)).await?
        else {
            return Ok(());
        };
        let claimed = [claimed];
        send_to_meta(env, &db, &settings, &claimed, Some(visitor)).await?;
        Ok::<(), worker::Error>(())
    };
    if let Err(e) = attempt.await {
        worker::console_error!("delivery: the first attempt to Meta on lead {lead_id} failed: {e}");
    }
}

/// 'Reenviar' to Meta: the lead's event (made due by the caller) goes now.
/// `Err` carries what Meta answered, when it did not take it.
pub async fn resend_to_meta(env: &Env, lead_id: &str) -> worker::Result<Result<(), String>> {
    let Some(settings) = meta::Settings::from_env(env) else {
        return Ok(Err(crate::agency::messages::META_NOT_CONFIGURED.into()));
    };
    let db = config::database(env)?;
    let now = platform::now_ms();
    let Some(claimed) =
        store::claim_one(&db, meta::DESTINATION, lead_id, now, lease_from(now)).await?
    else {
        // Another attempt holds it, or Meta asked to be left alone: the cron sends it.
        return Ok(Ok(()));
    };
    let claimed = [claimed];
    send_to_meta(env, &db, &settings, &claimed, None).await?;
    let state: Option<store::State> = db::rows_of::<store::State>(&store::of_lead(&db, lead_id))
        .await?
        .into_iter()
        .find(|d| d.destination == meta::DESTINATION);
    Ok(match state {
        Some(d) if d.status == "sent" => Ok(()),
        Some(d) => Err(d.last_error.unwrap_or_default()),
        None => Ok(()),
    })
}

/// The cron's delivery to Meta: what waited past Meta's 7 days is
/// 'expirado', then what is due goes, up to 1,000 events a request, request
/// after request while Meta takes them and `budget` lasts.
async fn drain_meta(env: &Env, budget: &Budget) -> worker::Result<usize> {
    let Some(settings) = meta::Settings::from_env(env) else {
        return Ok(0);
    };
    let db = config::database(env)?;
    let now = platform::now_ms();
    store::expire(
        &db,
        meta::DESTINATION,
        now - meta::WINDOW_MS,
        crate::agency::messages::META_EXPIRED,
        now,
    )
    .await?;
    let mut attempted = 0;
    loop {
        let now = platform::now_ms();
        if !budget.take_batch(now) {
            break;
        }
        let claimed = store::claim_due(
            &db,
            meta::DESTINATION,
            now,
            lease_from(now),
            meta::MAX_EVENTS,
        )
        .await?;
        if claimed.is_empty() {
            break;
        }
        attempted += claimed.len();
        match send_to_meta(env, &db, &settings, &claimed, None).await? {
            Strain::None if claimed.len() == meta::MAX_EVENTS => {}
            _ => break,
        }
    }
    Ok(attempted)
}

/// Sends the events of `claimed` (each with `visitor`, on a first attempt)
/// and records what came of them. A request Meta refuses for one of its
/// events is sent again event by event, so one event Meta will not take
/// never holds back the others. Returns what Meta's answer says of Meta.
async fn send_to_meta(
    env: &Env,
    db: &D1Database,
    settings: &meta::Settings,
    claimed: &[Claimed],
    visitor: Option<&Visitor>,
) -> worker::Result<Strain> {
    let leads = event_leads(db, claimed).await?;
    let origin = config::site_origin(env);
    let events: Vec<meta::Event> = leads
        .iter()
        .map(|lead| meta::event(lead, &origin, visitor))
        .collect();
    let answer = meta::send(settings, &events).await;
    match answer {
        Err(Refusal::Events(_)) if events.len() > 1 => {
            let mut strain = Strain::None;
            for (lead, event) in leads.iter().zip(&events) {
                let Some(one) = claimed.iter().find(|c| c.lead_id == lead.id) else {
                    continue;
                };
                let answer = meta::send(settings, std::slice::from_ref(event)).await;
                strain =
                    Strain::worst([strain, record(db, std::slice::from_ref(one), answer).await?]);
                if strain != Strain::None {
                    break;
                }
            }
            Ok(strain)
        }
        answer => record(db, claimed, answer).await,
    }
}

/// Records what Meta answered a request of `claimed`: sent; or failed, with
/// the next attempt within the event's window (not before a `Retry-After`),
/// 'falhou' at once for an event Meta refused for itself, 'expirado' once
/// the window is over. A refusal of our settings is noted for the delivery
/// watch (an incident); a request taken clears it.
async fn record(
    db: &D1Database,
    claimed: &[Claimed],
    answer: Result<(), Refusal>,
) -> worker::Result<Strain> {
    let now = platform::now_ms();
    let Some(lease) = claimed.first().map(|c| c.lease_until) else {
        return Ok(Strain::None);
    };
    match answer {
        Ok(()) => {
            let ids: Vec<&str> = claimed.iter().map(|c| c.lead_id.as_str()).collect();
            store::mark_sent(db, meta::DESTINATION, lease, &ids, now).await?;
            cron_state::note(db, meta_sent_at!(), now).await?;
            Ok(Strain::None)
        }
        Err(refusal) => {
            let strain = refusal.strain();
            let error = refusal.message();
            worker::console_warn!(
                "delivery: Meta did not take {} event(s): {error}",
                claimed.len()
            );
            let failures: Vec<Failed> = claimed
                .iter()
                .map(|c| {
                    let next = match refusal {
                        Refusal::Events(_) => None,
                        _ => crm::schedule::after_failure_within(
                            c.event_at,
                            meta::WINDOW_MS,
                            c.attempts,
                            now,
                        )
                        .retry_at()
                        .map(|at| match strain {
                            Strain::Pause { ms } => at.max(now + ms),
                            _ => at,
                        }),
                    };
                    Failed {
                        claimed: c,
                        next_attempt_at: next,
                        ends_as: match refusal {
                            Refusal::Events(_) => "failed",
                            _ => "expired",
                        },
                        error,
                    }
                })
                .collect();
            store::record_failures(db, meta::DESTINATION, &failures).await?;
            match (&refusal, strain) {
                (Refusal::Settings(_), _) => {
                    cron_state::note(db, meta_refused_at!(), now).await?;
                }
                (_, Strain::Pause { ms }) => {
                    pace::pause(db, meta::DESTINATION, now + ms).await?;
                }
                _ => {}
            }
            Ok(strain)
        }
    }
}
