//! The visitor's answers to the questions after 'Sucesso!' reach Jetimob as
//! an update of the lead it has: the lead's newest details with the message
//! "Respostas do visitante: Para morar ou investir? Para investir; …", the
//! way a visitor's correction reaches it.
//!
//! A delivery of `deliveries` (destination [`DESTINATION`]) is made due in
//! the batch that changes an answer (`leads::answers`), with the change's
//! time; the cron sends it once Jetimob has the lead, at Jetimob's pace (its
//! batches, its pause after a `429`), retried with backoff for a week, and
//! claimed with a lease so parallel runs never send it twice. An answer
//! changed while one is in flight makes it due again: Jetimob hears each
//! change once, with every answer as it then stands.

use futures_util::future::join_all;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::store::{self, Claimed, Failed};
use crate::agency::QUESTIONS;
use crate::agency::messages;
use crate::crm::jetimob::{self, Settings};
use crate::crm::store::ClaimedLead;
use crate::crm::{self, schedule};
use crate::http::pace::{Budget, Strain};
use crate::platform;
use crate::platform::db::{self, D1Database, query};

pub const DESTINATION: &str = "jetimob_answers";

/// Jetimob's week of retries, counted from the answer.
pub const WINDOW_MS: i64 = 7 * 24 * 60 * 60 * 1000;

/// The leads of the claimed deliveries as Jetimob's form needs them, with
/// their answers (a JSON object, question id → option).
const LEADS_SQL: &str = concat!(
    "SELECT id, name, email, whatsapp, origem, created_at, ",
    crate::attribution::attribution_columns!(),
    ", 0 AS delivery_attempts, NULL AS first_tried_at, 0 AS lease_until, answers \
     FROM leads WHERE id IN (SELECT value FROM json_each(?1))"
);

#[derive(Debug, Deserialize)]
struct AnsweredLead {
    #[serde(flatten)]
    lead: ClaimedLead,
    answers: Option<String>,
}

/// What Jetimob reads of the answers: each question agency.json asks that
/// the visitor answered, in the page's order, with the option chosen.
pub fn message(answers: &Map<String, Value>) -> String {
    let answered: Vec<String> = QUESTIONS
        .iter()
        .filter_map(|q| {
            let option = answers.get(q.id)?.as_str()?;
            Some(format!("{} {option}", q.label))
        })
        .collect();
    format!("{}: {}", messages::ANSWERS_TO_JETIMOB, answered.join("; "))
}

/// The cron's delivery of answers: what waited past its week is
/// 'expirado', then what is due goes, Jetimob's batch at a time, while
/// Jetimob takes it and `budget` lasts.
pub async fn drain(db: &D1Database, settings: &Settings, budget: &Budget) -> worker::Result<usize> {
    let now = platform::now_ms();
    store::expire(
        db,
        DESTINATION,
        now - WINDOW_MS,
        messages::ANSWERS_EXPIRED,
        now,
    )
    .await?;
    let mut attempted = 0;
    loop {
        let now = platform::now_ms();
        if !budget.take_batch(now) {
            break;
        }
        let claimed = store::claim_due_after_lead(
            db,
            DESTINATION,
            crm::RECEIVER,
            now,
            super::lease_from(now),
            crm::BATCH_SIZE,
        )
        .await?;
        if claimed.is_empty() {
            break;
        }
        attempted += claimed.len();
        match send(db, settings, &claimed).await? {
            Strain::None if claimed.len() == crm::BATCH_SIZE => {}
            Strain::Pause { ms } => {
                crate::http::pace::pause(db, crm::RECEIVER, platform::now_ms() + ms).await?;
                break;
            }
            _ => break,
        }
    }
    Ok(attempted)
}

/// Sends the claimed answers side by side and records what came of each.
async fn send(db: &D1Database, settings: &Settings, claimed: &[Claimed]) -> worker::Result<Strain> {
    let ids: Vec<&str> = claimed.iter().map(|c| c.lead_id.as_str()).collect();
    let leads: Vec<AnsweredLead> =
        db::rows_of(&query!(db, LEADS_SQL, serde_json::to_string(&ids)?)).await?;
    let sends = claimed.iter().filter_map(|c| {
        let lead = leads.iter().find(|l| l.lead.id == c.lead_id)?;
        let answers = lead
            .answers
            .as_deref()
            .and_then(|a| serde_json::from_str::<Map<String, Value>>(a).ok())
            .unwrap_or_default();
        Some(async move {
            let text = message(&answers);
            (c, jetimob::send(settings, &lead.lead, &text).await)
        })
    });
    let answers = join_all(sends).await;
    let now = platform::now_ms();
    let mut sent = Vec::new();
    let mut errors = Vec::new();
    let mut strain = Strain::None;
    for (c, answer) in answers {
        match answer {
            Ok(_) => sent.push(c.lead_id.as_str()),
            Err(failure) => {
                strain = Strain::worst([strain, failure.strain()]);
                errors.push((c, failure.describe(&settings.secrets()), failure.strain()));
            }
        }
    }
    if let Some(lease) = claimed.first().map(|c| c.lease_until)
        && !sent.is_empty()
    {
        store::mark_sent(db, DESTINATION, lease, &sent, now).await?;
    }
    let failures: Vec<Failed> = errors
        .iter()
        .map(|(c, error, strain)| {
            worker::console_warn!(
                "delivery: Jetimob did not take the answers of lead {}: {error}",
                c.lead_id
            );
            Failed {
                claimed: c,
                next_attempt_at: schedule::after_failure_within(
                    c.event_at, WINDOW_MS, c.attempts, now,
                )
                .retry_at()
                .map(|at| match strain {
                    Strain::Pause { ms } => at.max(now + ms),
                    _ => at,
                }),
                ends_as: "expired",
                error,
            }
        })
        .collect();
    store::record_failures(db, DESTINATION, &failures).await?;
    Ok(strain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_each_question_answered_in_the_pages_order() {
        let answers: Map<String, Value> =
            serde_json::from_str(r#"{"prazo": "Em até 1 ano", "finalidade": "Para investir"}"#)
                .unwrap();
        assert_eq!(
            message(&answers),
            "Respostas do visitante: Para morar ou investir? Para investir; \
             Quando pretende comprar? Em até 1 ano"
        );
        let one: Map<String, Value> =
            serde_json::from_str(r#"{"finalidade": "Para morar", "outra": "x"}"#).unwrap();
        assert_eq!(
            message(&one),
            "Respostas do visitante: Para morar ou investir? Para morar"
        );
    }
}
