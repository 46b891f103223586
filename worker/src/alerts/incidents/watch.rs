//! The cron's watch: reads how delivery stands, opens, updates or resolves
//! the incident, and claims and sends its alerts and its recovery.

use serde::Serialize;
use worker::Env;

use super::rules::{ALERT_GAP_MS, Incident, Reason, SNAPSHOT_SQL, Snapshot, list_reasons, reasons};
use super::wording::{alert_email, describe, headline, recovery, recovery_email};
use crate::alerts::owner_mails::{self, Kind};
use crate::alerts::webhook;
use crate::crm;
use crate::delivery::disclosure::AdsDisclosure;
use crate::formats::dates::{format_date, iso};
use crate::platform::config;
use crate::platform::db::{self, D1Database, D1PreparedStatement, query};

/// An [`Incident`]'s columns.
macro_rules! incident_columns {
    () => {
        "id, started_at, reasons, waiting, alerted_at, alerted_reasons"
    };
}

pub const OPEN_SQL: &str = concat!(
    "SELECT ",
    incident_columns!(),
    " FROM delivery_incidents WHERE resolved_at IS NULL"
);

const OPEN_INCIDENT_SQL: &str = "INSERT OR IGNORE INTO delivery_incidents (started_at, reasons, waiting) \
     VALUES (?1, ?2, ?3)";
/// Its causes now, and (`?4`, unless NULL) what its alerts named with the
/// ended ones marked, if no other run changed that since it was read (`?5`).
const UPDATE_SQL: &str = concat!(
    "UPDATE delivery_incidents SET reasons = ?2, waiting = ?3, \
       alerted_reasons = CASE WHEN ?4 IS NOT NULL AND alerted_reasons IS ?5 \
                              THEN ?4 ELSE alerted_reasons END \
     WHERE id = ?1 AND resolved_at IS NULL \
     RETURNING ",
    incident_columns!()
);
/// Claims the alert of the open incident; the row when this run won it.
/// Never within an hour of the last alert: delivery that flaps between
/// failing and working alerts once an hour at most (the panel's banner shows
/// every incident at once).
const CLAIM_ALERT_SQL: &str = concat!(
    "UPDATE delivery_incidents SET alerted_at = ?1, alerted_reasons = reasons \
     WHERE resolved_at IS NULL AND alerted_at IS NULL \
       AND NOT EXISTS (SELECT 1 FROM delivery_incidents WHERE alerted_at > ?1 - ?2) \
     RETURNING ",
    incident_columns!()
);
const UNCLAIM_ALERT_SQL: &str = "UPDATE delivery_incidents SET alerted_at = NULL WHERE id = ?1";
/// Claims the alert of causes that joined the alerted incident `?1`: the
/// row when this run won it, from the alert it had (`?3`, `?4`) to one
/// that names `?5` too. Giving it back is the same swap the other way.
const CLAIM_JOINED_SQL: &str = concat!(
    "UPDATE delivery_incidents SET alerted_at = ?2, alerted_reasons = ?5 \
     WHERE id = ?1 AND resolved_at IS NULL AND alerted_at = ?3 AND alerted_reasons IS ?4 \
     RETURNING ",
    incident_columns!()
);
const RESOLVE_SQL: &str = "UPDATE delivery_incidents SET resolved_at = ?2 \
     WHERE id = ?1 AND resolved_at IS NULL";
/// Claims the recovery e-mail of a resolved incident whose alert went out.
const CLAIM_RECOVERY_SQL: &str = concat!(
    "UPDATE delivery_incidents SET recovery_alerted_at = ?1 \
     WHERE id = (SELECT id FROM delivery_incidents WHERE resolved_at IS NOT NULL \
                   AND alerted_at IS NOT NULL AND recovery_alerted_at IS NULL \
                 ORDER BY id DESC LIMIT 1) \
     RETURNING ",
    incident_columns!()
);
const UNCLAIM_RECOVERY_SQL: &str =
    "UPDATE delivery_incidents SET recovery_alerted_at = NULL WHERE id = ?1";

/// Looks at delivery, opens, updates or resolves the incident, and sends
/// what is due.
pub async fn watch(env: &Env, db: &D1Database, now: i64) -> worker::Result<()> {
    let mut batch = db::Batch::new();
    let snapshot = batch.push::<Snapshot>(db.prepare(SNAPSHOT_SQL));
    let open = batch.push::<Incident>(db.prepare(OPEN_SQL));
    let results = batch.run(db).await?;
    let mut snapshot = results.first(snapshot)?.unwrap_or_default();
    if webhook::url(env).is_none() {
        // Switched off: its events left waiting are not a webhook that
        // refuses (this run's `webhook::run` marks them failed).
        snapshot.webhook_failing_since = None;
    }
    if !AdsDisclosure::from_env(env).meta {
        // Switched off: what Meta refused before is no one's to fix.
        snapshot.meta_refused_at = None;
    }
    let open = results.first(open)?;
    let now_reasons = reasons(&snapshot, crm::is_configured(env), now);
    let listed = list_reasons(&now_reasons);

    match (open, now_reasons.is_empty()) {
        (None, false) => {
            db::run(&query!(
                db,
                OPEN_INCIDENT_SQL,
                now,
                listed,
                snapshot.waiting
            ))
            .await?;
        }
        (Some(incident), false) => {
            let alerted = incident.alerted_as_of(&now_reasons);
            let updated = db::first::<Incident>(&query!(
                db,
                UPDATE_SQL,
                incident.id,
                listed,
                snapshot.waiting,
                alerted.as_deref(),
                incident.alerted_reasons.as_deref()
            ))
            .await?;
            if let Some(now_open) = updated {
                alert_joined_if_due(env, db, &now_open, now).await?;
            }
        }
        (Some(incident), true) => {
            let mut batch = vec![
                query!(db, RESOLVE_SQL, incident.id, now),
                owner_mails::drop_unsent(db, incident.id, now),
            ];
            batch.extend(recovered_event(env, db, &incident, now)?);
            db::batch(db, batch).await?;
        }
        (None, true) => {}
    }
    alert_if_due(env, db, now).await?;
    recover_if_due(env, db, now).await
}

async fn alert_if_due(env: &Env, db: &D1Database, now: i64) -> worker::Result<()> {
    let Some(incident) =
        db::first::<Incident>(&query!(db, CLAIM_ALERT_SQL, now, ALERT_GAP_MS)).await?
    else {
        return Ok(());
    };
    let key = incident.event_key();
    // Claimed: from here any failure gives the claim back, for the next run.
    if let Err(error) = send_alert(
        env,
        db,
        &incident,
        &incident.reasons(),
        key,
        Kind::Alert,
        now,
    )
    .await
    {
        worker::console_error!(
            "incidents: the alert was not sent ({error}); trying again next minute"
        );
        db::run(&query!(db, UNCLAIM_ALERT_SQL, incident.id)).await?;
    }
    Ok(())
}

/// The alert of the causes that joined an incident after its alert: its
/// subject names them, its text every cause now open. Not held to the hour
/// between alerts: each cause is alerted once per incident (what an alert
/// named stays named), so there are at most as many as there are causes.
async fn alert_joined_if_due(
    env: &Env,
    db: &D1Database,
    incident: &Incident,
    now: i64,
) -> worker::Result<()> {
    let joined = incident.unalerted();
    if joined.is_empty() {
        return Ok(());
    }
    let returned = incident.returned();
    let recently = incident
        .alerted_at
        .is_some_and(|at| now - at < ALERT_GAP_MS);
    if recently && joined.iter().all(|r| returned.contains(r)) {
        return Ok(());
    }
    let before = incident.alerted_reasons.as_deref();
    let named = incident.alerted_with(&joined);
    let Some(claimed) = db::first::<Incident>(&query!(
        db,
        CLAIM_JOINED_SQL,
        incident.id,
        now,
        incident.alerted_at,
        before,
        named.as_str()
    ))
    .await?
    else {
        return Ok(());
    };
    // A cause can be alerted more than once per incident (it ended and came
    // back): the time tells its alerts apart.
    let which = format!("{named}@{now}");
    let key = format!("{}:{which}", incident.event_key());
    let kind = Kind::Joined(&which);
    if let Err(error) = send_alert(env, db, &claimed, &joined, key, kind, now).await {
        worker::console_error!(
            "incidents: the alert of {} was not sent ({error}); trying again next minute",
            list_reasons(&joined)
        );
        db::run(&query!(
            db,
            CLAIM_JOINED_SQL,
            incident.id,
            incident.alerted_at,
            now,
            named.as_str(),
            before
        ))
        .await?;
    }
    Ok(())
}

/// Tells of `incident`, whose alert this run claimed, under a subject about
/// `about`: records the webhook's event (once by `key`) and each owner's
/// copy of the e-mail (once by `kind`) in one batch. The copies go out at
/// the end of this run (`owner_mails`), each retried on its own, and the
/// webhook hears the incident whatever becomes of them.
async fn send_alert(
    env: &Env,
    db: &D1Database,
    incident: &Incident,
    about: &[Reason],
    key: String,
    kind: Kind<'_>,
    now: i64,
) -> worker::Result<()> {
    let words = describe(incident);
    let event = webhook::Event {
        name: "delivery.incident",
        key,
        after: None,
    };
    let fields = IncidentFields {
        since: iso(incident.started_at),
        reasons: incident.reasons().iter().map(|r| r.name()).collect(),
        waiting: incident.waiting,
        message: &words.summary,
    };
    let letter = alert_email(headline(about), &words, &config::site_origin(env));
    let batch: Vec<_> = webhook::record(env, db, event, &fields, now)?
        .into_iter()
        .chain(owner_mails::write(
            env,
            db,
            incident.id,
            kind,
            &letter,
            now,
        )?)
        .collect();
    if !batch.is_empty() {
        db::batch(db, batch).await?;
    }
    worker::console_warn!("incidents: {}", words.summary);
    Ok(())
}

/// What the webhook's 'delivery.incident' says beside its event and time.
#[derive(Serialize)]
struct IncidentFields<'a> {
    since: Option<String>,
    reasons: Vec<&'static str>,
    waiting: i64,
    message: &'a str,
}

/// What the webhook's 'delivery.recovered' says beside its event and time.
#[derive(Serialize)]
struct RecoveredFields<'a> {
    since: Option<String>,
    recovered_at: Option<String>,
    message: &'a str,
}

/// The webhook's 'delivery.recovered', recorded as the incident resolves:
/// for those who heard of it, by its e-mail or its webhook event.
fn recovered_event(
    env: &Env,
    db: &D1Database,
    incident: &Incident,
    now: i64,
) -> worker::Result<Option<D1PreparedStatement>> {
    let (_, summary) = recovery(&incident.named(), &format_date(incident.started_at));
    let event = webhook::Event {
        name: "delivery.recovered",
        key: format!("recovered:{}", incident.id),
        // An alert e-mailed before 0009 had its event recorded with it, unkeyed.
        after: incident.alerted_at.is_none().then(|| incident.event_key()),
    };
    let fields = RecoveredFields {
        since: iso(incident.started_at),
        recovered_at: iso(now),
        message: &summary,
    };
    webhook::record(env, db, event, &fields, now)
}

async fn recover_if_due(env: &Env, db: &D1Database, now: i64) -> worker::Result<()> {
    let Some(incident) = db::first::<Incident>(&query!(db, CLAIM_RECOVERY_SQL, now)).await? else {
        return Ok(());
    };
    let (subject, summary) = recovery(&incident.named(), &format_date(incident.started_at));
    let letter = recovery_email(subject, &summary, &config::site_origin(env));
    let written = match owner_mails::write(env, db, incident.id, Kind::Recovery, &letter, now)? {
        Some(statement) => db::run(&statement).await.map(|_| ()),
        None => Ok(()),
    };
    if let Err(error) = written {
        worker::console_error!(
            "incidents: the recovery e-mail was not written ({error}); trying again next minute"
        );
        db::run(&query!(db, UNCLAIM_RECOVERY_SQL, incident.id)).await?;
        return Ok(());
    }
    worker::console_log!("incidents: {summary}");
    Ok(())
}
