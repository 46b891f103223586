//! `GET /api/health`, for uptime monitors: no sign-in, no personal data, one
//! D1 query at most, the answer kept for 10 seconds by each isolate.
//!
//! `200 {"status": "ok", "database": "ok", "crm": "configured" | "off",
//! "oldest_pending_minutes": n, "oldest_correction_minutes": n}`; `503` with `"status": "degraded"` and the
//! reason when D1 does not answer or a delivery incident is open.

use std::cell::RefCell;

use serde::Deserialize;
use serde_json::{Value, json};
use worker::{Env, Response};

use crate::alerts::incidents::{oldest_correction, oldest_undelivered};
use crate::http::{self, ApiResult};
use crate::{config, crm, platform};

/// How long an answer is reused.
const CACHE_MS: i64 = 10_000;

/// One statement: the oldest undelivered lead, the oldest correction not in
/// the CRM yet, and the open incident's reasons.
const HEALTH_SQL: &str = concat!(
    "SELECT ",
    oldest_undelivered!(),
    " AS oldest_pending_at, ",
    oldest_correction!(),
    " AS oldest_correction_at, \
       (SELECT reasons FROM delivery_incidents WHERE resolved_at IS NULL) AS incident"
);

#[derive(Debug, Deserialize)]
struct Row {
    oldest_pending_at: Option<i64>,
    oldest_correction_at: Option<i64>,
    incident: Option<String>,
}

thread_local! {
    static LAST: RefCell<Option<(i64, u16, Value)>> = const { RefCell::new(None) };
}

pub async fn check(env: &Env) -> ApiResult<Response> {
    let now = platform::now_ms();
    let cached = LAST.with(|l| l.borrow().clone());
    let (status, body) = match cached {
        Some((at, status, body)) if now - at < CACHE_MS => (status, body),
        _ => {
            let (status, body) = measure(env, now).await;
            LAST.with(|l| *l.borrow_mut() = Some((now, status, body.clone())));
            (status, body)
        }
    };
    let response = http::json_response(&body, status)?;
    response
        .headers()
        .set("Cache-Control", &format!("max-age={}", CACHE_MS / 1000))?;
    Ok(response)
}

async fn measure(env: &Env, now: i64) -> (u16, Value) {
    let crm = if crm::is_configured(env) {
        "configured"
    } else {
        "off"
    };
    let row = match config::database(env) {
        Ok(db) => db.prepare(HEALTH_SQL).first::<Row>(None).await,
        Err(e) => Err(e),
    };
    match row {
        Err(error) => {
            worker::console_error!("health: D1 did not answer: {error}");
            (
                503,
                json!({ "status": "degraded", "database": "unavailable", "crm": crm,
                        "reason": "database unavailable" }),
            )
        }
        Ok(row) => {
            let row = row.unwrap_or(Row {
                oldest_pending_at: None,
                oldest_correction_at: None,
                incident: None,
            });
            let waited = |at: Option<i64>| at.map_or(0, |at| (now - at).max(0) / 60_000);
            let minutes = waited(row.oldest_pending_at);
            let corrections = waited(row.oldest_correction_at);
            match row.incident {
                Some(reasons) => (
                    503,
                    json!({ "status": "degraded", "database": "ok", "crm": crm,
                            "oldest_pending_minutes": minutes,
                            "oldest_correction_minutes": corrections,
                            "reason": format!("delivery incident: {reasons}") }),
                ),
                None => (
                    200,
                    json!({ "status": "ok", "database": "ok", "crm": crm,
                            "oldest_pending_minutes": minutes,
                            "oldest_correction_minutes": corrections }),
                ),
            }
        }
    }
}
