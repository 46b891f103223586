//! `POST /functions/v1/lead-answers`: the optional questions after 'Sucesso!'.
//!
//! One tap answers one question of agency.json's `questions` (JSON
//! `{question, answer}` from the page's script, or the same two fields as a
//! plain form post). The answer is kept on the lead the browser proved it
//! sent (the proof cookie, `super::proof`), nowhere else: a visitor tells us
//! about themselves, never about a lead someone else left.
//!
//! - No proof cookie at all: 403, nothing stored (every accepted lead post
//!   leaves one, so only a browser that keeps no cookies or sent no lead
//!   gets here; the page says its answer did not go).
//! - A proof this worker signed that names no lead (a decoy, or a lead since
//!   deleted): the same success as a real one, nothing stored. Answering
//!   otherwise would tell a stranger whether their post created a lead, that
//!   is whether an e-mail or number was already someone's (docs/security.md).
//! - The per-address limit is counted in the batch that writes the answer.
//! - `answers_at` moves only when an answer changes, and only then is their
//!   delivery to Jetimob made due, in the same batch
//!   (`delivery::jetimob_answers`): Jetimob hears each change once.

use worker::{Env, Request, Response};

use super::proof;
use crate::agency::Question;
use crate::agency::messages;
use crate::delivery::{jetimob_answers, store as deliveries};
use crate::http::cookies;
use crate::http::rate_limit::{self, CountRow, Limit};
use crate::http::{self, ApiError, ApiResult, BodyKind, Fields, HeaderText};
use crate::platform::db::{self, D1Database, query};
use crate::platform::{self, config};

/// Where a plain form post of an answer lands: the success page, at its questions.
const ANSWERED_PAGE: &str = "/obrigado#perguntas";

/// Answers per IPv6 /64: a visitor answers two questions and may change
/// their mind a few times.
const ANSWERS: Limit = Limit {
    name: "answers",
    max: 20,
    window_ms: 10 * 60 * 1000,
    binding: None,
};

/// Answers per IPv4 address, shared by many phones behind a carrier's NAT.
const ANSWERS_SHARED: Limit = Limit { max: 60, ..ANSWERS };

fn limit_of(network: &str) -> &'static Limit {
    if network.parse::<std::net::Ipv4Addr>().is_ok() {
        &ANSWERS_SHARED
    } else {
        &ANSWERS
    }
}

/// Keeps `?3` as the answer to question `?2` of lead `?1` at `?4`, when it
/// changes it, within the limit (`?5` the counter's key, `?6` its maximum).
/// A question's id is lower-case letters and `_` (worker/build.rs), so it
/// is a JSON path member as it is.
const ANSWER_SQL: &str = "UPDATE leads \
     SET answers = json_set(coalesce(answers, '{}'), '$.' || ?2, ?3), answers_at = ?4 \
     WHERE id = ?1 \
       AND (SELECT count FROM rate_limits WHERE key = ?5) <= ?6 \
       AND (answers IS NULL OR json_extract(answers, '$.' || ?2) IS NOT ?3)";

/// A valid answer: a question agency.json asks and one of its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer {
    pub question: &'static Question,
    pub option: &'static str,
}

impl Answer {
    pub fn parse(body: &Fields) -> Result<Self, ApiError> {
        let text = |key| body.text(key).ok().flatten().unwrap_or_default();
        let question = Question::find(text("question").trim())
            .ok_or_else(|| http::invalid_field(messages::ANSWER_INVALID, "question"))?;
        let option = question
            .option(text("answer").trim())
            .ok_or_else(|| http::invalid_field(messages::ANSWER_INVALID, "answer"))?;
        Ok(Self { question, option })
    }
}

pub async fn handle(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::check_same_origin(&req)?;
    let (body, kind) = http::read_json_or_form(&mut req).await?;
    let outcome = accept(&req, &body, env).await;
    match kind {
        BodyKind::Json => outcome.and_then(|()| http::success_only()),
        BodyKind::Form => {
            if let Err(error) = outcome {
                worker::console_log!(
                    "lead answers: form post refused ({}): {}",
                    error.status(),
                    error.cause()
                );
            }
            let url = req.url()?;
            Ok(http::redirect(303, &http::with_path(&url, ANSWERED_PAGE)))
        }
    }
}

async fn accept(req: &Request, body: &Fields, env: &Env) -> ApiResult<()> {
    let answer = Answer::parse(body)?;
    let url = req.url()?;
    let secure = cookies::must_be_secure(url.scheme(), url.host_str().unwrap_or_default());
    let lead = config::signing_key(env).and_then(|key| proved_lead(req, &key, secure));
    let Some(lead) = lead else {
        return Err(ApiError::Forbidden(messages::ANSWER_WITHOUT_LEAD.into()));
    };
    let network = http::client_network(req);
    let db = config::database(env)?;
    if !save(&db, &lead, &answer, limit_of(&network), &network).await? {
        return Err(ApiError::TooManyRequests(
            messages::LEAD_RATE_LIMITED.into(),
        ));
    }
    Ok(())
}

/// The lead this browser's proof cookie names, if this worker signed it
/// (whether it is a lead is the database's to say, and no one else's).
fn proved_lead(req: &Request, key: &str, secure: bool) -> Option<String> {
    let header = req.header("Cookie")?;
    let value = cookies::read(&header, proof::COOKIE, secure).ok()??;
    proof::lead_of(key, value)
}

/// Counts the answer and keeps it, in one batch; `false` when over the limit.
async fn save(
    db: &D1Database,
    lead: &str,
    answer: &Answer,
    limit: &Limit,
    network: &str,
) -> worker::Result<bool> {
    let now = platform::now_ms();
    let mut batch = db::Batch::new();
    let hit = batch.push::<CountRow>(rate_limit::hit(db, limit, network, now));
    batch.add(query!(
        db,
        ANSWER_SQL,
        lead,
        answer.question.id,
        answer.option,
        now,
        limit.key(network),
        limit.max,
    ));
    // Jetimob hears of the change (when there was one: `answers_at` is now).
    batch.add(deliveries::due_again_if_answered(
        db,
        lead,
        jetimob_answers::DESTINATION,
        now,
    ));
    let results = batch.run(db).await?;
    let count = results.first(hit)?.map_or(i64::MAX, |r| r.count);
    Ok(limit.allows(count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::Field;

    fn fields(question: &str, answer: &str) -> Fields {
        [
            ("question".to_string(), Field::Text(question.into())),
            ("answer".to_string(), Field::Text(answer.into())),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn an_answer_is_a_question_of_agency_json_and_one_of_its_options() {
        let answer = Answer::parse(&fields("finalidade", " Para morar ")).unwrap();
        assert_eq!(answer.question.id, "finalidade");
        assert_eq!(answer.option, "Para morar");
        for (question, option) in [
            ("finalidade", "Para alugar"),
            ("finalidade", ""),
            ("prazo", "Para morar"),
            ("outra", "Para morar"),
            ("", ""),
        ] {
            let refused = Answer::parse(&fields(question, option)).unwrap_err();
            assert_eq!(refused.status(), 422, "{question} {option}");
        }
    }

    #[test]
    fn the_shared_address_gets_the_roomier_limit() {
        assert_eq!(limit_of("198.51.100.7").max, 60);
        assert_eq!(limit_of("2001:db8:1:2::/64").max, 20);
        assert!(ANSWER_SQL.contains("?6") && !ANSWER_SQL.contains("?7"));
    }
}
