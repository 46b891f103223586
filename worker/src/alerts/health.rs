//! `GET /api/health`, for uptime monitors: no sign-in, no personal data, one
//! D1 query at most, the answer kept for 10 seconds by each isolate (until
//! a cron run in that isolate, which may change it).
//!
//! `200 {"status": "ok", "database": "ok", "crm": "configured" | "off",
//! "waiting": n, "oldest_pending_minutes": n, "oldest_correction_minutes": n,
//! "last_watch_minutes": n | null}`; `503` with `"status": "degraded"` and
//! the reason when D1 does not answer, a delivery incident is open, the cron
//! stopped (no delivery watch for 5 minutes) or the e-mail API refused the
//! latest message (see `alerts::heartbeat`).

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use worker::{Env, Response};

use crate::alerts::heartbeat::{Heartbeat, heartbeat_columns};
use crate::alerts::incidents::oldest_correction;
use crate::crm;
use crate::http::{self, ApiResult};
use crate::platform::db;
use crate::platform::{self, config};

/// How long an answer is reused.
const CACHE_MS: i64 = 10_000;

/// One statement: the heartbeat (the last delivery watch, the oldest
/// undelivered lead, the e-mail API's last answers), the oldest correction
/// not in the CRM yet, and the open incident's reasons.
const HEALTH_SQL: &str = concat!(
    "SELECT ",
    heartbeat_columns!(),
    ", ",
    oldest_correction!(),
    " AS oldest_correction_at, \
       (SELECT coalesce(sum(n), 0) FROM lead_counters WHERE name IN ('pending', 'failed')) AS waiting, \
       (SELECT reasons FROM delivery_incidents WHERE resolved_at IS NULL) AS incident"
);

#[derive(Debug, Default, Deserialize)]
struct Row {
    oldest_pending_at: Option<i64>,
    oldest_correction_at: Option<i64>,
    waiting: i64,
    watched_at: Option<i64>,
    mail_sent_at: Option<i64>,
    mail_failed_at: Option<i64>,
    incident: Option<String>,
}

/// The answer's body.
#[derive(Debug, Clone, Serialize)]
struct Health {
    status: &'static str,
    database: &'static str,
    crm: &'static str,
    /// What D1 told; none when it did not answer.
    #[serde(flatten)]
    waits: Option<Waits>,
    /// Why the status is degraded.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// How long delivery has waited, in whole minutes.
#[derive(Debug, Clone, Serialize)]
struct Waits {
    /// Leads not in Jetimob yet: the backlog, as it shrinks.
    waiting: i64,
    oldest_pending_minutes: i64,
    oldest_correction_minutes: i64,
    /// `null` on a database no cron ran on.
    last_watch_minutes: Option<i64>,
}

thread_local! {
    static LAST: RefCell<Option<(i64, u16, Health)>> = const { RefCell::new(None) };
}

/// Drops this isolate's kept answer: a cron run has just opened or closed
/// incidents, so the next `/api/health` here reads them (another isolate's
/// answer is still at most [`CACHE_MS`] old).
pub fn forget() {
    LAST.with(|l| *l.borrow_mut() = None);
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
    let response = http::json(status, &body)?;
    response
        .headers()
        .set("Cache-Control", &format!("max-age={}", CACHE_MS / 1000))?;
    Ok(response)
}

async fn measure(env: &Env, now: i64) -> (u16, Health) {
    let crm = if crm::is_configured(env) {
        "configured"
    } else {
        "off"
    };
    let row = match config::database(env) {
        Ok(db) => db::first::<Row>(&db.prepare(HEALTH_SQL)).await,
        Err(e) => Err(e),
    };
    match row {
        Err(error) => {
            worker::console_error!("health: D1 did not answer: {error}");
            (
                503,
                Health {
                    status: "degraded",
                    database: "unavailable",
                    crm,
                    waits: None,
                    reason: Some("database unavailable".to_string()),
                },
            )
        }
        Ok(row) => {
            let row = row.unwrap_or_default();
            let beat = Heartbeat {
                watched_at: row.watched_at,
                oldest_pending_at: row.oldest_pending_at,
                mail_sent_at: row.mail_sent_at,
                mail_failed_at: row.mail_failed_at,
            };
            let waited = |at: Option<i64>| at.map_or(0, |at| (now - at).max(0) / 60_000);
            let reasons: Vec<String> = [
                beat.stopped(now).then(|| "cron stopped".to_string()),
                row.incident.map(|r| format!("delivery incident: {r}")),
                beat.mail_refused_at().map(|_| "mail failing".to_string()),
            ]
            .into_iter()
            .flatten()
            .collect();
            let status = if reasons.is_empty() { 200 } else { 503 };
            let body = Health {
                status: if reasons.is_empty() { "ok" } else { "degraded" },
                database: "ok",
                crm,
                waits: Some(Waits {
                    waiting: row.waiting,
                    oldest_pending_minutes: waited(row.oldest_pending_at),
                    oldest_correction_minutes: waited(row.oldest_correction_at),
                    last_watch_minutes: beat.minutes_ago(now),
                }),
                reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
            };
            (status, body)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_has_the_members_monitors_read() {
        let down = Health {
            status: "degraded",
            database: "unavailable",
            crm: "off",
            waits: None,
            reason: Some("database unavailable".into()),
        };
        assert_eq!(
            serde_json::to_string(&down).unwrap(),
            r#"{"status":"degraded","database":"unavailable","crm":"off","reason":"database unavailable"}"#
        );
        let up = Health {
            status: "ok",
            database: "ok",
            crm: "configured",
            waits: Some(Waits {
                waiting: 2,
                oldest_pending_minutes: 0,
                oldest_correction_minutes: 3,
                last_watch_minutes: None,
            }),
            reason: None,
        };
        assert_eq!(
            serde_json::to_string(&up).unwrap(),
            r#"{"status":"ok","database":"ok","crm":"configured","waiting":2,"oldest_pending_minutes":0,"oldest_correction_minutes":3,"last_watch_minutes":null}"#
        );
    }
}
