//! The optional webhook (`ALERT_WEBHOOK_URL`, a secret): the same events as
//! the e-mails, and what the e-mails cannot say, as JSON for chat tools and
//! automations — `{"event": "lead.created" | "lead.updated" |
//! "delivery.incident" | "delivery.recovered" | "mail.failing" |
//! "mail.recovered", "at": …, …}`. POSTed with a 5 s timeout and retried
//! like deliveries (claimed with a lease, backoff for a week, then left
//! failed), and removed a month after they were made (`platform/retention.rs`). No
//! personal data but the lead's own fields.
//!
//! Lead events come from the submissions (new leads and corrections) after
//! a cursor the cron moves; the others are recorded by the watches, each
//! under a key that keeps it to one event however many runs record it.
//! Nothing is recorded while the webhook is not configured.
//!
//! Each POST names its event (`X-Webhook-Id`, the same on every retry, so a
//! receiver can drop a repeat) and its moment (`X-Webhook-Timestamp`, Unix
//! seconds). With `ALERT_WEBHOOK_SECRET` set it is also signed:
//! `X-Webhook-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`,
//! so an automation can refuse what did not come from this site, and a
//! signed POST replayed later by its old timestamp.

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::Sha256;
use worker::Env;

use crate::attribution::{Attribution, attribution_columns};
use crate::crm::schedule;
use crate::formats::dates::iso;
use crate::http::outbound;
use crate::platform::db::{self, D1Database, D1PreparedStatement, query};
use crate::platform::{self, config};

pub const TIMEOUT: Duration = Duration::from_secs(5);
const LEASE_MS: i64 = 60 * 1000;
const BATCH_SIZE: i64 = 6;
/// Batches one cron run sends, while each is full and the receiver takes
/// every event: a launch-day crowd of leads (more than a batch a minute)
/// leaves no backlog behind, and a receiver that fails holds the run up for
/// one batch only.
const MAX_BATCHES: usize = 5;
/// Submissions turned into events per cron run.
const MAX_NEW_EVENTS: i64 = 500;

pub fn url(env: &Env) -> Option<String> {
    config::setting(env, "ALERT_WEBHOOK_URL")
}

/// Where a POST goes and how it is signed.
struct Target {
    url: String,
    secret: Option<String>,
}

/// The signature of `body` sent at `timestamp` (Unix seconds) under `secret`.
pub fn signature(secret: &str, timestamp: i64, body: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    format!(
        "v1={}",
        crate::platform::signing::hex(&mac.finalize().into_bytes())
    )
}

/// The first time, the cursor starts with the leads of the last ten minutes
/// (none older: no backlog of old leads); then events are made for the news
/// after it, and it moves on.
const START_CURSOR_SQL: &str = "INSERT INTO cron_state (name, value) \
     SELECT 'webhook_cursor', coalesce((SELECT id FROM lead_submissions WHERE submitted_at < ?1 - ?2 \
                                         ORDER BY id DESC LIMIT 1), 0) \
     WHERE NOT EXISTS (SELECT 1 FROM cron_state WHERE name = 'webhook_cursor')";
/// How far back the webhook's first run looks.
const FIRST_LOOK_BACK_MS: i64 = 10 * 60 * 1000;
const LEAD_EVENTS_SQL: &str = "INSERT OR IGNORE INTO webhook_events \
       (event, submission_id, created_at, next_attempt_at) \
     SELECT CASE kind WHEN 'new' THEN 'lead.created' ELSE 'lead.updated' END, id, ?1, ?1 \
     FROM lead_submissions \
     WHERE kind IN ('new', 'correction') \
       AND id > (SELECT value FROM cron_state WHERE name = 'webhook_cursor') \
     ORDER BY id LIMIT ?2";
const MOVE_CURSOR_SQL: &str = "UPDATE cron_state SET value = max(value, \
       coalesce((SELECT max(submission_id) FROM webhook_events), value)) \
     WHERE name = 'webhook_cursor'";

/// An event of its own payload, once per key (?4); when ?5 names another
/// event's key, only if that event was recorded.
const RECORD_SQL: &str = "INSERT OR IGNORE INTO webhook_events \
       (event, payload, created_at, next_attempt_at, once_key) \
     SELECT ?1, ?2, ?3, ?3, ?4 \
     WHERE ?5 IS NULL OR EXISTS (SELECT 1 FROM webhook_events WHERE once_key = ?5)";

/// The due events, those of no lead first (an incident, e-mail failing):
/// what tells that leads stop flowing never waits behind the leads. Each
/// kind is a range of the claim index (migration 0013), read from its
/// longest due up to now: a claim reads the events it takes, whether
/// thousands are due after an outage or wait out their backoff during one.
/// D1 keeps no statistics, hence the index by name.
macro_rules! due_of_kind {
    ($of_lead:literal) => {
        concat!(
            "SELECT * FROM (SELECT id, ",
            $of_lead,
            " AS of_lead, next_attempt_at FROM webhook_events INDEXED BY webhook_events_claim \
               WHERE status = 'pending' AND (submission_id IS NOT NULL) = ",
            $of_lead,
            " AND next_attempt_at <= ?1 AND (lease_until IS NULL OR lease_until < ?1) \
               ORDER BY next_attempt_at, id LIMIT ?3)"
        )
    };
}
const CLAIM_SQL: &str = concat!(
    "UPDATE webhook_events SET lease_until = ?2, attempts = attempts + 1 \
     WHERE id IN (SELECT id FROM (",
    due_of_kind!("0"),
    " UNION ALL ",
    due_of_kind!("1"),
    ") ORDER BY of_lead, next_attempt_at, id LIMIT ?3) \
     RETURNING id, event, submission_id, payload, created_at, attempts, lease_until"
);
const SENT_SQL: &str = "UPDATE webhook_events SET status = 'sent', lease_until = NULL, \
       next_attempt_at = NULL, last_error = NULL WHERE id = ?1";
/// The receiver took an event: those it refused before go in the next runs
/// instead of waiting out their backoff (up to 6 hours), and the incident
/// they hold open ends with them. Read through the pending events' index.
const WAKE_SQL: &str = "UPDATE webhook_events SET next_attempt_at = ?1 \
     WHERE status = 'pending' AND next_attempt_at > ?1 AND last_error IS NOT NULL";
const FAILED_SQL: &str = "UPDATE webhook_events SET last_error = ?3, next_attempt_at = ?4, \
       status = CASE WHEN ?4 IS NULL THEN 'failed' ELSE 'pending' END, lease_until = NULL \
     WHERE id = ?1 AND lease_until = ?2";
/// A lead event's payload: the submission as sent, the lead's page, and
/// for a correction what the lead had before.
const LEAD_PAYLOAD_SQL: &str = concat!(
    "SELECT s.lead_id, s.submitted_at, s.name, s.email, s.whatsapp, s.origem, ",
    attribution_columns!("s."),
    ", (SELECT json_object('name', p.name, 'email', p.email, 'whatsapp', p.whatsapp) \
          FROM lead_submissions p WHERE p.lead_id = s.lead_id AND p.id < s.id \
            AND p.kind NOT IN ('conflict', 'pending', 'refused') \
          ORDER BY p.id DESC LIMIT 1) AS before \
     FROM lead_submissions s WHERE s.id = ?1"
);

#[derive(Debug, Deserialize)]
struct Claimed {
    id: i64,
    event: String,
    submission_id: Option<i64>,
    payload: Option<String>,
    created_at: i64,
    attempts: i64,
    lease_until: i64,
}

/// A lead event's submission as read, and the `lead` of its payload.
#[derive(Debug, Deserialize, Serialize)]
struct LeadPayloadRow {
    #[serde(rename(serialize = "id"))]
    lead_id: String,
    #[serde(skip_serializing)]
    submitted_at: i64,
    name: String,
    email: String,
    whatsapp: String,
    origem: String,
    #[serde(flatten)]
    attribution: Attribution,
    /// Its page in the panel (not a column: written from the site's origin).
    #[serde(skip_deserializing)]
    panel_url: String,
    /// For a correction: the lead's details before, as JSON (SQLite's `json_object`).
    #[serde(skip_serializing)]
    before: Option<String>,
}

/// A lead event's payload.
#[derive(Serialize)]
struct LeadEvent<'a> {
    event: &'a str,
    at: Option<String>,
    lead: &'a LeadPayloadRow,
    #[serde(skip_serializing_if = "Option::is_none")]
    before: Option<Box<RawValue>>,
}

/// An event the watches record: its name and time before its own fields.
#[derive(Serialize)]
struct Recorded<'a, F: Serialize> {
    event: &'a str,
    at: Option<String>,
    #[serde(flatten)]
    fields: &'a F,
}

/// An event the watches record: what it is, its key (one event per key,
/// however many cron runs record it), and the key of the event it follows,
/// if it is only news to those who heard that one.
pub struct Event<'a> {
    pub name: &'a str,
    pub key: String,
    pub after: Option<String>,
}

/// The statement recording `event` with its `fields` (a struct, whose
/// members follow `event` and `at`), to run or to batch with the change it
/// reports; none while the webhook is not configured.
pub fn record<F: Serialize>(
    env: &Env,
    db: &D1Database,
    event: Event,
    fields: &F,
    now: i64,
) -> worker::Result<Option<D1PreparedStatement>> {
    if url(env).is_none() {
        return Ok(None);
    }
    let payload = serde_json::to_string(&Recorded {
        event: event.name,
        at: iso(now),
        fields,
    })?;
    Ok(Some(query!(
        db,
        RECORD_SQL,
        event.name,
        payload,
        now,
        event.key,
        event.after
    )))
}

/// Without a URL the webhook is off (never set, or removed): what waited
/// for it will not go, so it is marked failed (no incident then counts it as
/// a webhook that keeps refusing), a few hundred a run; and the cursor is
/// forgotten, so a URL set again later starts with the last ten minutes'
/// leads, not with every lead since it was removed.
const SWITCHED_OFF_SQL: [&str; 2] = [
    "UPDATE webhook_events SET status = 'failed', next_attempt_at = NULL, lease_until = NULL, \
       last_error = 'webhook desligado (sem ALERT_WEBHOOK_URL)' \
     WHERE id IN (SELECT id FROM webhook_events WHERE status = 'pending' LIMIT 500)",
    "DELETE FROM cron_state WHERE name = 'webhook_cursor'",
];

/// Makes events of the new submissions, then delivers the due events.
pub async fn run(env: &Env, db: &D1Database, now: i64) -> worker::Result<usize> {
    let Some(url) = url(env) else {
        db::batch(
            db,
            SWITCHED_OFF_SQL
                .iter()
                .map(|sql| db.prepare(*sql))
                .collect(),
        )
        .await?;
        return Ok(0);
    };
    let target = Target {
        url,
        secret: config::setting(env, "ALERT_WEBHOOK_SECRET"),
    };
    db::batch(
        db,
        vec![
            query!(db, START_CURSOR_SQL, now, FIRST_LOOK_BACK_MS),
            query!(db, LEAD_EVENTS_SQL, now, MAX_NEW_EVENTS),
            db.prepare(MOVE_CURSOR_SQL),
        ],
    )
    .await?;
    let origin = config::site_origin(env);
    let mut sent = 0;
    for _ in 0..MAX_BATCHES {
        // Each batch's lease from its own start: the batch before it may
        // have taken a while.
        let now = platform::now_ms();
        let mut claimed: Vec<Claimed> =
            db::rows_of(&query!(db, CLAIM_SQL, now, now + LEASE_MS, BATCH_SIZE)).await?;
        // RETURNING gives the rows in the table's order: the batch is sent
        // in the claim's (events of no lead first).
        claimed.sort_unstable_by_key(|e| (e.submission_id.is_some(), e.id));
        let full = claimed.len() as i64 == BATCH_SIZE;
        let mut refused = false;
        for event in claimed {
            let body = match payload(db, &event, &origin).await? {
                Some(body) => body,
                // The lead was deleted meanwhile: nothing of it is sent.
                None => {
                    db::run(&query!(db, SENT_SQL, event.id)).await?;
                    continue;
                }
            };
            match post(&target, event.id, &body, now).await {
                Ok(()) => {
                    let mut statements = vec![query!(db, SENT_SQL, event.id)];
                    if sent == 0 {
                        statements.push(query!(db, WAKE_SQL, now));
                    }
                    db::batch(db, statements).await?;
                    sent += 1;
                }
                Err(error) => {
                    refused = true;
                    let next =
                        schedule::after_failure(event.created_at, event.attempts, now).retry_at();
                    worker::console_warn!("webhook: event {} failed: {error}", event.id);
                    db::run(&query!(
                        db,
                        FAILED_SQL,
                        event.id,
                        event.lease_until,
                        error,
                        next
                    ))
                    .await?;
                }
            }
        }
        if !full || refused {
            break;
        }
    }
    Ok(sent)
}

async fn payload(db: &D1Database, event: &Claimed, origin: &str) -> worker::Result<Option<String>> {
    if let Some(payload) = &event.payload {
        return Ok(Some(payload.clone()));
    }
    let Some(submission) = event.submission_id else {
        return Ok(None);
    };
    let Some(mut row) =
        db::first::<LeadPayloadRow>(&query!(db, LEAD_PAYLOAD_SQL, submission)).await?
    else {
        return Ok(None);
    };
    row.panel_url = format!("{origin}/admin/leads/{}", row.lead_id);
    // SQLite's `json_object` wrote it, so it reads; were it not JSON, the
    // event would still go, without it.
    let before = row
        .before
        .take()
        .filter(|_| event.event == "lead.updated")
        .and_then(|before| {
            RawValue::from_string(before)
                .inspect_err(|e| {
                    worker::console_error!("webhook: event {}: 'before' is not JSON: {e}", event.id)
                })
                .ok()
        });
    let body = LeadEvent {
        event: &event.event,
        at: iso(row.submitted_at),
        lead: &row,
        before,
    };
    Ok(Some(serde_json::to_string(&body)?))
}

async fn post(target: &Target, id: i64, body: &str, now: i64) -> Result<(), String> {
    let timestamp = now.div_euclid(1000);
    let (id, sent_at) = (id.to_string(), timestamp.to_string());
    let signed = target
        .secret
        .as_deref()
        .map(|secret| signature(secret, timestamp, body));
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("X-Webhook-Id", id.as_str()),
        ("X-Webhook-Timestamp", sent_at.as_str()),
    ];
    if let Some(signed) = &signed {
        headers.push(("X-Webhook-Signature", signed));
    }
    let secrets = [target.url.as_str(), target.secret.as_deref().unwrap_or("")];
    let request = outbound::post(&target.url, &headers, body.to_string())
        .map_err(|e| format!("bad ALERT_WEBHOOK_URL: {e}"))?;
    match outbound::send(request, TIMEOUT).await {
        Ok(answer) if answer.is_success() => Ok(()),
        Ok(answer) => Err(format!(
            "HTTP {}: {}",
            answer.status,
            outbound::redact(&answer.body, &secrets, 200)
        )),
        Err(failure) => Err(failure.describe(&secrets)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_is_the_hmac_of_the_timestamp_and_the_body() {
        // As a receiver computes it: echo -n '1790000000.{"event":"lead.created"}' |
        // openssl dgst -sha256 -hmac segredo-do-webhook
        assert_eq!(
            signature(
                "segredo-do-webhook",
                1_790_000_000,
                r#"{"event":"lead.created"}"#
            ),
            "v1=122924e7f354a627d6f7f43631ad28334ac1cf26bb31ac70500f27652fabbeb4"
        );
    }

    #[test]
    fn a_lead_event_carries_the_lead_its_page_and_what_it_had_before() {
        let row = LeadPayloadRow {
            lead_id: "l-1".into(),
            submitted_at: 1_767_225_600_000,
            name: "Ana \"Zé\"".into(),
            email: "ana@example.com".into(),
            whatsapp: "+5549988887777".into(),
            origem: "instagram".into(),
            attribution: Attribution {
                utm_source: Some("ig".into()),
                ..Attribution::default()
            },
            panel_url: "https://s/admin/leads/l-1".into(),
            before: None,
        };
        let before = r#"{"name":"Ana","email":"ana@example.com","whatsapp":"+5549999990001"}"#;
        let event = LeadEvent {
            event: "lead.updated",
            at: iso(row.submitted_at),
            lead: &row,
            before: Some(RawValue::from_string(before.into()).unwrap()),
        };
        assert_eq!(
            serde_json::to_string(&event).unwrap(),
            format!(
                r#"{{"event":"lead.updated","at":"2026-01-01T00:00:00.000Z","lead":{{"id":"l-1","name":"Ana \"Zé\"","email":"ana@example.com","whatsapp":"+5549988887777","origem":"instagram","utm_source":"ig","utm_medium":null,"utm_campaign":null,"utm_term":null,"utm_content":null,"gclid":null,"gbraid":null,"wbraid":null,"fbclid":null,"msclkid":null,"ttclid":null,"referrer":null,"page_url":null,"panel_url":"https://s/admin/leads/l-1"}},"before":{before}}}"#
            )
        );
        let created = LeadEvent {
            event: "lead.created",
            before: None,
            ..event
        };
        assert!(!serde_json::to_string(&created).unwrap().contains("before"));
    }

    #[test]
    fn a_recorded_event_names_itself_and_its_time_before_its_fields() {
        #[derive(Serialize)]
        struct Fields {
            since: Option<String>,
            waiting: i64,
        }
        let recorded = Recorded {
            event: "delivery.incident",
            at: iso(1_767_225_600_000),
            fields: &Fields {
                since: None,
                waiting: 2,
            },
        };
        assert_eq!(
            serde_json::to_string(&recorded).unwrap(),
            r#"{"event":"delivery.incident","at":"2026-01-01T00:00:00.000Z","since":null,"waiting":2}"#
        );
    }
}
