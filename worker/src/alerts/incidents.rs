//! Delivery trouble: every cron run looks at whether leads are reaching
//! Jetimob, and tells the owners when they stop and when they start again.
//!
//! An incident is open while any of these holds: Jetimob refused our keys
//! (the latest attempt got 401 or 403), the oldest lead still retried has
//! waited more than 15 minutes, a lead was given up after its week of
//! retries (until a person acts), the oldest visitor's correction not yet in
//! Jetimob has waited as long, delivery is off (no keys) while leads or corrections wait, or the
//! lead form refused a visitor in the last 15 minutes because its bot check
//! (Turnstile) could not be made, and no lead got through since, or the
//! webhook refused an event three times over (its channel hears nothing). At
//! most one is open at a time (a unique index), and each of its two e-mails
//! ('Leads não estão chegando ao Jetimob', 'Entrega ao Jetimob normalizada')
//! is claimed in D1 before it goes: one alert per incident, however many
//! cron runs see it, and no more than one alert an hour. An incident that
//! ends before its alert went ends quietly (no recovery e-mail either). A
//! cause that joins an incident already alerted (the form starts refusing
//! visitors while a lead given up waits for a person) is alerted on its own,
//! at once: an open incident must not hide what comes after it. A named
//! cause that ends while the incident stays open is marked ended, and its
//! return is alerted again, an hour after the last alert at the soonest.
//!
//! A claimed e-mail is written as one copy per owner (`owner_mails`), sent
//! at the end of the run and retried on its own if the e-mail API refuses it.
//! The webhook hears each incident when its alert is claimed, whatever
//! becomes of the e-mail (the e-mail API may be the thing refusing), and
//! its end when it resolves, in the same batch.

use serde::{Deserialize, Serialize};
use worker::Env;

use super::owner_mails::{self, Kind};
use super::webhook;
use crate::cron_state::noted;
use crate::dates::{format_date, iso};
use crate::db::{self, D1Database, D1PreparedStatement, query};
use crate::mail::{Block, Letter, Span, Written};
use crate::site::disclosure::AdsDisclosure;
use crate::{agency, config, crm, messages};

/// Past this, an undelivered lead is a problem someone must look at.
pub const BACKLOG_MS: i64 = 15 * 60 * 1000;
/// A visitor refused by a bot check that could not be made counts this long.
pub const FORM_BLOCKED_MS: i64 = 15 * 60 * 1000;
/// At most one alert e-mail this often.
pub const ALERT_GAP_MS: i64 = 60 * 60 * 1000;

/// What makes delivery unhealthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Jetimob answered 401/403: our keys are refused.
    KeysRefused,
    /// The oldest lead still being retried waited more than 15 minutes.
    Backlog,
    /// A lead Jetimob did not take in a week of tries was given up: it waits
    /// for a person ('Reenviar', or 'Marcar Enviado' once entered by hand).
    GivenUp,
    /// A visitor's correction has not reached Jetimob for more than 15
    /// minutes (still retried, or given up): Jetimob holds their old details.
    Corrections,
    /// No Jetimob keys, and leads or corrections wait.
    Off,
    /// The lead form refuses visitors: Turnstile's check cannot be made.
    FormBlocked,
    /// The webhook refused an event three times: its channel hears nothing.
    WebhookFailing,
    /// Meta refused our token or pixel since it last took an event: new
    /// leads do not reach the campaigns.
    MetaRefused,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::KeysRefused => "keys_refused",
            Reason::Backlog => "backlog",
            Reason::GivenUp => "given_up",
            Reason::Corrections => "corrections",
            Reason::Off => "off",
            Reason::FormBlocked => "form_blocked",
            Reason::WebhookFailing => "webhook_failing",
            Reason::MetaRefused => "meta_refused",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        match name {
            "keys_refused" => Some(Reason::KeysRefused),
            "backlog" => Some(Reason::Backlog),
            "given_up" => Some(Reason::GivenUp),
            "corrections" => Some(Reason::Corrections),
            "off" => Some(Reason::Off),
            "form_blocked" => Some(Reason::FormBlocked),
            "webhook_failing" => Some(Reason::WebhookFailing),
            "meta_refused" => Some(Reason::MetaRefused),
            _ => None,
        }
    }
}

/// How delivery stands, read in one batch.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Snapshot {
    /// When the oldest lead still being retried arrived.
    pub oldest_pending_at: Option<i64>,
    /// When the oldest lead given up arrived.
    pub oldest_given_up_at: Option<i64>,
    /// How many leads are not in the CRM yet.
    pub waiting: i64,
    /// When the oldest correction not in the CRM yet was asked for.
    pub oldest_correction_at: Option<i64>,
    /// The latest delivery attempt failed this way (its `detail`), if it failed.
    pub last_failure: Option<String>,
    /// When the lead form last refused a visitor because Turnstile's check
    /// could not be made.
    pub form_refused_at: Option<i64>,
    /// When the newest submission arrived.
    pub last_submission_at: Option<i64>,
    /// When the oldest webhook event still refused after three tries was made.
    pub webhook_failing_since: Option<i64>,
    /// When Meta refused our token or pixel, if it has not taken an event since.
    pub meta_refused_at: Option<i64>,
}

/// Why delivery is unhealthy now; empty when it is fine.
pub fn reasons(snapshot: &Snapshot, configured: bool, now: i64) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if !configured && (snapshot.waiting > 0 || snapshot.oldest_correction_at.is_some()) {
        reasons.push(Reason::Off);
    }
    // While something still waits for them: once staff entered the lead by
    // hand ('Marcar Enviado') nothing is failing to arrive, and the next
    // lead's attempt says whether the keys work.
    if configured
        && (snapshot.waiting > 0 || snapshot.oldest_correction_at.is_some())
        && snapshot
            .last_failure
            .as_deref()
            .is_some_and(|d| d.starts_with("HTTP 401") || d.starts_with("HTTP 403"))
    {
        reasons.push(Reason::KeysRefused);
    }
    if snapshot
        .oldest_pending_at
        .is_some_and(|at| now - at > BACKLOG_MS)
    {
        reasons.push(Reason::Backlog);
    }
    // Apart from the backlog: a lead given up waits for a person for as
    // long as nobody acts, and a Jetimob outage months later must still be
    // heard as a backlog of its own.
    if snapshot.oldest_given_up_at.is_some() {
        reasons.push(Reason::GivenUp);
    }
    if snapshot
        .oldest_correction_at
        .is_some_and(|at| now - at > BACKLOG_MS)
    {
        reasons.push(Reason::Corrections);
    }
    // Refused lately, and no lead got through since.
    if snapshot.form_refused_at.is_some_and(|at| {
        now - at <= FORM_BLOCKED_MS && snapshot.last_submission_at.is_none_or(|last| last < at)
    }) {
        reasons.push(Reason::FormBlocked);
    }
    if snapshot.webhook_failing_since.is_some() {
        reasons.push(Reason::WebhookFailing);
    }
    if snapshot.meta_refused_at.is_some() {
        reasons.push(Reason::MetaRefused);
    }
    reasons
}

/// An incident as stored.
#[derive(Debug, Clone, Deserialize)]
pub struct Incident {
    pub id: i64,
    pub started_at: i64,
    pub reasons: String,
    pub waiting: i64,
    pub alerted_at: Option<i64>,
    /// The reasons its alert named; none before it was claimed.
    pub alerted_reasons: Option<String>,
}

impl Incident {
    /// Why it is open now.
    pub fn reasons(&self) -> Vec<Reason> {
        parse_reasons(&self.reasons)
    }

    /// Every cause its alerts named, ended since or not (for an incident
    /// alerted before 0009, its last reasons): what the recovery speaks of.
    pub fn named(&self) -> Vec<Reason> {
        self.alerted_list()
            .iter()
            .map(|(reason, _)| *reason)
            .collect()
    }

    /// Its alerts' causes, each with whether it ended since. In
    /// `alerted_reasons` an ended cause is written `~name`.
    fn alerted_list(&self) -> Vec<(Reason, bool)> {
        let listed = self.alerted_reasons.as_deref().unwrap_or(&self.reasons);
        listed
            .split(',')
            .filter_map(|name| match name.strip_prefix(ENDED) {
                Some(name) => Reason::parse(name).map(|r| (r, true)),
                None => Reason::parse(name).map(|r| (r, false)),
            })
            .collect()
    }

    /// The causes its alerts named that ended since (`true`), or that stand.
    fn alerted_ended(&self, ended: bool) -> Vec<Reason> {
        self.alerted_list()
            .into_iter()
            .filter(|&(_, e)| e == ended)
            .map(|(reason, _)| reason)
            .collect()
    }

    /// Its webhook event's key. The clean-up (`retention.rs`) keeps an open
    /// incident's event by this same key, written there in SQL: change both
    /// together.
    fn event_key(&self) -> String {
        format!("incident:{}", self.id)
    }

    /// The reasons now open that its alerts did not name, or named and saw
    /// end (a backlog that cleared and came back is a new outage), if it was
    /// alerted.
    fn unalerted(&self) -> Vec<Reason> {
        if self.alerted_at.is_none() {
            return Vec::new();
        }
        let standing = self.alerted_ended(false);
        self.reasons()
            .into_iter()
            .filter(|r| !standing.contains(r))
            .collect()
    }

    /// Of [`Self::unalerted`], the causes its alerts named before they ended:
    /// alerted again only an hour after the incident's last alert, so
    /// delivery that flaps inside a long incident is heard once an hour at
    /// most, as it is outside one.
    fn returned(&self) -> Vec<Reason> {
        let ended = self.alerted_ended(true);
        self.unalerted()
            .into_iter()
            .filter(|r| ended.contains(r))
            .collect()
    }

    /// What `alerted_reasons` says once the incident's causes are `now`: a
    /// named cause that is no longer open is marked ended (`~name`), so its
    /// return is heard; `None` when nothing changes (or it was not alerted).
    fn alerted_as_of(&self, now: &[Reason]) -> Option<String> {
        self.alerted_at?;
        let before = self.alerted_list();
        let after: Vec<(Reason, bool)> = before
            .iter()
            .map(|&(reason, ended)| (reason, ended || !now.contains(&reason)))
            .collect();
        (after != before).then(|| list_alerted(&after))
    }

    /// `alerted_reasons` once `joined` are alerted too: named again, not ended.
    fn alerted_with(&self, joined: &[Reason]) -> String {
        let mut list: Vec<(Reason, bool)> = self
            .alerted_list()
            .into_iter()
            .filter(|(reason, _)| !joined.contains(reason))
            .collect();
        list.extend(joined.iter().map(|&reason| (reason, false)));
        list_alerted(&list)
    }
}

/// How `alerted_reasons` marks a cause its alerts named that ended since.
const ENDED: &str = "~";

fn list_alerted(list: &[(Reason, bool)]) -> String {
    list.iter()
        .map(|&(reason, ended)| {
            if ended {
                format!("{ENDED}{}", reason.name())
            } else {
                reason.name().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn list_reasons(reasons: &[Reason]) -> String {
    reasons
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_reasons(listed: &str) -> Vec<Reason> {
    listed.split(',').filter_map(Reason::parse).collect()
}

/// When the oldest lead not in Jetimob arrived, as SQL: one still retried or
/// one given up (which waits for a person), each found by one index seek.
macro_rules! oldest_undelivered {
    () => {
        "(SELECT min(m) FROM (\
           SELECT min(created_at) AS m FROM leads WHERE delivery_status = 'pending' \
           UNION ALL SELECT min(created_at) FROM leads WHERE delivery_status = 'failed'))"
    };
}
pub(crate) use oldest_undelivered;

/// When the oldest correction still waiting for Jetimob (retried or given up)
/// was asked for; read from the first entry of `leads_corrections_waiting`.
macro_rules! oldest_correction {
    () => {
        "(SELECT min(update_requested_at) FROM leads WHERE update_status IS NOT NULL)"
    };
}
pub(crate) use oldest_correction;

/// A webhook event refused three times (the first try, and the retries 1 and
/// 5 minutes later) means the webhook is failing, not hiccuping: the three
/// is written in the statement because the partial index it reads
/// (`webhook_events_refused`, migration 0013) holds it too.
const SNAPSHOT_SQL: &str = concat!(
    "SELECT (SELECT min(created_at) FROM leads WHERE delivery_status = 'pending') AS oldest_pending_at, \
       (SELECT min(created_at) FROM leads WHERE delivery_status = 'failed') AS oldest_given_up_at, ",
    oldest_correction!(),
    " AS oldest_correction_at, \
       (SELECT coalesce(sum(n), 0) FROM lead_counters WHERE name IN ('pending', 'failed')) AS waiting, \
       (SELECT detail FROM crm_attempts WHERE id = (SELECT max(id) FROM crm_attempts) \
          AND outcome = 'failed') AS last_failure, \
       ",
    noted!(turnstile_failed_at),
    " AS form_refused_at, \
       (SELECT submitted_at FROM lead_submissions ORDER BY id DESC LIMIT 1) AS last_submission_at, \
       (SELECT min(created_at) FROM webhook_events INDEXED BY webhook_events_refused \
          WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3) \
         AS webhook_failing_since, \
       CASE WHEN ",
    noted!(meta_refused_at),
    " > coalesce(",
    noted!(meta_sent_at),
    ", 0) THEN ",
    noted!(meta_refused_at),
    " END AS meta_refused_at"
);

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

/// What an open incident says: a line for the banner and the e-mail, and
/// for each reason what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    pub summary: String,
    pub details: Vec<(String, String)>,
    /// What became of the leads: all kept, or some visitors refused.
    pub kept: &'static str,
    /// Whether leads are not arriving at all, or a few were refused.
    pub standing: Standing,
}

/// What an open trouble means for the leads, which the panel's banner tells
/// apart: no lead reaches Jetimob, or Jetimob takes them and refused a few.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Leads are not reaching Jetimob: it is down (a backlog), refuses our
    /// keys, delivery is off, or the cron that sends them stopped.
    Down,
    /// Jetimob takes leads, but refused some for good: they wait for a person.
    Refused,
    /// Neither: corrections, the form, the webhook, e-mail.
    Other,
}

/// The [`Standing`] of an incident open for `reasons`.
pub fn standing(reasons: &[Reason]) -> Standing {
    let any = |wanted: &[Reason]| reasons.iter().any(|r| wanted.contains(r));
    if any(&[Reason::KeysRefused, Reason::Backlog, Reason::Off]) {
        Standing::Down
    } else if any(&[Reason::GivenUp]) {
        Standing::Refused
    } else {
        Standing::Other
    }
}

/// What an incident is about, which names its alert, its banner and its end.
enum Topic {
    /// Leads failing to reach Jetimob (its keys, a backlog, delivery off):
    /// whatever else is wrong beside it.
    Leads,
    Corrections,
    Form,
    Webhook,
    Meta,
    /// Several of the troubles above, none of them the leads (the alert lists each).
    Site,
}

fn topic(reasons: &[Reason]) -> Topic {
    let about_leads = reasons.iter().any(|r| {
        matches!(
            r,
            Reason::KeysRefused | Reason::Backlog | Reason::GivenUp | Reason::Off
        )
    });
    match reasons {
        _ if about_leads => Topic::Leads,
        [] => Topic::Leads,
        [Reason::Corrections] => Topic::Corrections,
        [Reason::FormBlocked] => Topic::Form,
        [Reason::WebhookFailing] => Topic::Webhook,
        [Reason::MetaRefused] => Topic::Meta,
        _ => Topic::Site,
    }
}

/// The alert's subject and the banner's first words.
pub fn headline(reasons: &[Reason]) -> &'static str {
    match topic(reasons) {
        Topic::Leads => messages::DELIVERY_ALERT_SUBJECT,
        Topic::Corrections => messages::CORRECTIONS_ALERT_SUBJECT,
        Topic::Form => messages::FORM_ALERT_SUBJECT,
        Topic::Webhook => messages::WEBHOOK_ALERT_SUBJECT,
        Topic::Meta => messages::META_ALERT_SUBJECT,
        Topic::Site => messages::SITE_ALERT_SUBJECT,
    }
}

/// The recovery's subject and line, speaking of what the alert named.
pub fn recovery(named: &[Reason], since: &str) -> (&'static str, String) {
    match topic(named) {
        Topic::Leads => (
            messages::DELIVERY_RECOVERED_SUBJECT,
            messages::delivery_recovered(since),
        ),
        Topic::Corrections => (
            messages::CORRECTIONS_RECOVERED_SUBJECT,
            messages::corrections_recovered(since),
        ),
        Topic::Form => (
            messages::FORM_RECOVERED_SUBJECT,
            messages::form_recovered(since),
        ),
        Topic::Webhook => (
            messages::WEBHOOK_RECOVERED_SUBJECT,
            messages::webhook_recovered(since),
        ),
        Topic::Meta => (
            messages::META_RECOVERED_SUBJECT,
            messages::meta_recovered(since),
        ),
        Topic::Site => (
            messages::SITE_RECOVERED_SUBJECT,
            messages::site_recovered(since),
        ),
    }
}

pub fn describe(incident: &Incident) -> Words {
    let since = format_date(incident.started_at);
    let reasons = incident.reasons();
    let details = reasons
        .iter()
        .map(|reason| match reason {
            Reason::KeysRefused => (
                messages::DELIVERY_KEYS_REFUSED.to_string(),
                messages::DELIVERY_KEYS_REFUSED_TODO.to_string(),
            ),
            Reason::Backlog => (
                messages::DELIVERY_BACKLOG.to_string(),
                messages::DELIVERY_BACKLOG_TODO.to_string(),
            ),
            Reason::GivenUp => (
                messages::DELIVERY_GIVEN_UP.to_string(),
                messages::DELIVERY_GIVEN_UP_TODO.to_string(),
            ),
            Reason::Corrections => (
                messages::DELIVERY_CORRECTIONS.to_string(),
                messages::DELIVERY_CORRECTIONS_TODO.to_string(),
            ),
            Reason::Off => (
                messages::DELIVERY_OFF.to_string(),
                messages::DELIVERY_OFF_TODO.to_string(),
            ),
            Reason::FormBlocked => (
                messages::FORM_BLOCKED.to_string(),
                messages::FORM_BLOCKED_TODO.to_string(),
            ),
            Reason::WebhookFailing => (
                messages::WEBHOOK_FAILING.to_string(),
                messages::WEBHOOK_FAILING_TODO.to_string(),
            ),
            Reason::MetaRefused => (
                messages::META_REFUSED.to_string(),
                messages::META_REFUSED_TODO.to_string(),
            ),
        })
        .collect();
    let kept = if reasons.contains(&Reason::FormBlocked) {
        messages::ALERT_VISITORS_REFUSED
    } else {
        messages::ALERT_LEADS_KEPT
    };
    // The count is of the leads not in Jetimob: not what Meta's trouble is about.
    let waiting = match topic(&reasons) {
        Topic::Meta => 0,
        _ => incident.waiting,
    };
    Words {
        summary: messages::delivery_incident(headline(&reasons), &since, waiting),
        details,
        kept,
        standing: standing(&reasons),
    }
}

/// The alert e-mail: what is wrong and what to do, with the panel of the
/// site at `origin`.
fn alert_email(subject: &str, words: &Words, origin: &str) -> Written {
    let panel = format!("{origin}/admin");
    let development = agency::DEVELOPMENT_NAME;
    let mut letter = Letter::new()
        .framed()
        .block(Block::paragraph().line([Span::strong(&words.summary)]));
    for (what, todo) in &words.details {
        letter = letter.block(Block::item().line([what.as_str()]).line([
            Span::emphasis("O que fazer:"),
            Span::plain(format!(" {todo}")),
        ]));
    }
    letter
        .block(
            Block::note()
                .line([format!("{} Painel: {panel}", words.kept)])
                .line([""])
                .line([format!(
                    "Aviso automático do {development}; você o recebe por ser responsável pelo painel."
                )]),
        )
        .write(subject)
}

/// The recovery e-mail, with the panel of the site at `origin`.
fn recovery_email(subject: &str, summary: &str, origin: &str) -> Written {
    let panel = format!("{origin}/admin");
    Letter::new()
        .framed()
        .paragraph(summary)
        .block(
            Block::paragraph()
                .text_only()
                .line([format!("Painel: {panel}")]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([Span::link("Abrir o painel", panel)]),
        )
        .write(subject)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000_000;
    const MINUTE: i64 = 60_000;

    /// An open incident with `reasons`, alerted at `NOW` naming `alerted` (or not alerted).
    fn incident(reasons: &str, alerted: Option<&str>) -> Incident {
        Incident {
            id: 1,
            started_at: NOW,
            reasons: reasons.into(),
            waiting: 0,
            alerted_at: alerted.map(|_| NOW),
            alerted_reasons: alerted.map(Into::into),
        }
    }

    #[test]
    fn a_cause_is_unalerted_only_once_the_incident_was_alerted_without_it() {
        assert_eq!(
            incident("backlog,form_blocked", Some("backlog")).unalerted(),
            [Reason::FormBlocked]
        );
        // Not alerted yet: its first alert will name every cause.
        assert!(
            incident("backlog,form_blocked", None)
                .unalerted()
                .is_empty()
        );
        // A cause that went and came back was named already.
        assert!(
            incident("backlog", Some("backlog,form_blocked"))
                .unalerted()
                .is_empty()
        );
        assert!(
            incident("form_blocked", Some("backlog,form_blocked"))
                .unalerted()
                .is_empty()
        );
    }

    #[test]
    fn a_cause_that_ended_and_came_back_is_unalerted_again_held_to_the_hour() {
        // Alerted for a backlog; its lead is given up: the backlog ends, and
        // the lead given up is news (its retries are over).
        let open = incident("given_up", Some("backlog"));
        let marked = open
            .alerted_as_of(&[Reason::GivenUp])
            .expect("the ended backlog is marked");
        assert_eq!(marked, "~backlog");
        let later = Incident {
            alerted_reasons: Some(marked),
            ..open
        };
        assert_eq!(later.named(), [Reason::Backlog]);
        assert_eq!(later.unalerted(), [Reason::GivenUp]);
        assert!(later.returned().is_empty());
        let named = later.alerted_with(&[Reason::GivenUp]);
        assert_eq!(named, "~backlog,given_up");
        // Alerted for the form; it works again, and a lead is given up.
        let form = incident("given_up", Some("form_blocked"));
        assert_eq!(
            form.alerted_as_of(&[Reason::GivenUp]).as_deref(),
            Some("~form_blocked")
        );
        // Months later the backlog is back.
        let back = Incident {
            reasons: "backlog,given_up".into(),
            alerted_reasons: Some(named),
            ..incident("", Some(""))
        };
        assert_eq!(back.unalerted(), [Reason::Backlog]);
        assert_eq!(back.returned(), [Reason::Backlog]);
        assert_eq!(back.alerted_with(&[Reason::Backlog]), "given_up,backlog");
        // Nothing ended, nothing to write.
        assert_eq!(
            back.alerted_as_of(&[Reason::Backlog, Reason::GivenUp]),
            None
        );
        assert_eq!(incident("backlog", None).alerted_as_of(&[]), None);
    }

    #[test]
    fn a_lead_given_up_is_a_reason_apart_from_a_backlog() {
        let given_up = Snapshot {
            oldest_given_up_at: Some(NOW - 8 * 24 * 60 * MINUTE),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&given_up, true, NOW), [Reason::GivenUp]);
        let and_late = Snapshot {
            oldest_pending_at: Some(NOW - 16 * MINUTE),
            ..given_up
        };
        assert_eq!(
            reasons(&and_late, true, NOW),
            [Reason::Backlog, Reason::GivenUp]
        );
        assert_eq!(
            headline(&[Reason::GivenUp]),
            messages::DELIVERY_ALERT_SUBJECT
        );
    }

    #[test]
    fn leads_given_up_alone_are_refused_not_an_outage() {
        assert_eq!(standing(&[Reason::GivenUp]), Standing::Refused);
        assert_eq!(
            standing(&[Reason::GivenUp, Reason::WebhookFailing]),
            Standing::Refused
        );
        for down in [Reason::Backlog, Reason::KeysRefused, Reason::Off] {
            assert_eq!(standing(&[Reason::GivenUp, down]), Standing::Down);
        }
        assert_eq!(standing(&[Reason::FormBlocked]), Standing::Other);
        assert_eq!(standing(&[Reason::Corrections]), Standing::Other);
    }

    #[test]
    fn healthy_delivery_has_no_reason() {
        let fine = Snapshot {
            oldest_pending_at: Some(NOW - 2 * MINUTE),
            waiting: 3,
            last_failure: Some("HTTP 500: erro".into()),
            ..Snapshot::default()
        };
        assert!(reasons(&fine, true, NOW).is_empty());
        assert!(reasons(&Snapshot::default(), false, NOW).is_empty());
    }

    #[test]
    fn refused_keys_a_long_wait_and_no_keys_are_each_a_reason() {
        let refused = Snapshot {
            last_failure: Some("HTTP 401 (chaves recusadas): invalid".into()),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&refused, true, NOW), [Reason::KeysRefused]);
        let correction_refused = Snapshot {
            waiting: 0,
            oldest_correction_at: Some(NOW - MINUTE),
            ..refused.clone()
        };
        assert_eq!(
            reasons(&correction_refused, true, NOW),
            [Reason::KeysRefused]
        );
        // The lead the keys were refused for was entered by hand: nothing waits.
        let entered = Snapshot {
            waiting: 0,
            ..refused
        };
        assert!(reasons(&entered, true, NOW).is_empty());
        let late = Snapshot {
            oldest_pending_at: Some(NOW - 16 * MINUTE),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&late, true, NOW), [Reason::Backlog]);
        assert_eq!(reasons(&late, false, NOW), [Reason::Off, Reason::Backlog]);
    }

    #[test]
    fn a_correction_waiting_more_than_15_minutes_is_a_reason_of_its_own() {
        let correcting = |at: i64| Snapshot {
            oldest_correction_at: Some(at),
            ..Snapshot::default()
        };
        assert!(reasons(&correcting(NOW - 14 * MINUTE), true, NOW).is_empty());
        assert_eq!(
            reasons(&correcting(NOW - 16 * MINUTE), true, NOW),
            [Reason::Corrections]
        );
        // Delivery switched off strands corrections as it strands leads.
        assert_eq!(
            reasons(&correcting(NOW - MINUTE), false, NOW),
            [Reason::Off]
        );
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "corrections".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        assert_eq!(incident.reasons(), [Reason::Corrections]);
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("Correções de leads não estão chegando ao Jetimob desde ")
        );
        // With leads waiting too, it is about the leads.
        assert_eq!(
            headline(&[Reason::Backlog, Reason::Corrections]),
            messages::DELIVERY_ALERT_SUBJECT
        );
        assert!(words.details[0].0.contains("correções de visitantes"));
        assert!(words.details[0].1.contains("'Precisam de atenção'"));
        assert!(words.kept.starts_with("Nenhum lead se perde"));
    }

    #[test]
    fn a_lead_form_refusing_visitors_is_a_reason_until_a_lead_gets_through_or_15_minutes_pass() {
        let refused = |at: i64, last: Option<i64>| Snapshot {
            form_refused_at: Some(at),
            last_submission_at: last,
            ..Snapshot::default()
        };
        assert_eq!(
            reasons(&refused(NOW - MINUTE, None), true, NOW),
            [Reason::FormBlocked]
        );
        let before = Some(NOW - 60 * MINUTE);
        assert_eq!(
            reasons(&refused(NOW - MINUTE, before), true, NOW),
            [Reason::FormBlocked]
        );
        // A lead got through after it: the form works.
        assert!(reasons(&refused(NOW - 2 * MINUTE, Some(NOW - MINUTE)), true, NOW).is_empty());
        // Nobody refused for 15 minutes.
        assert!(reasons(&refused(NOW - 16 * MINUTE, before), true, NOW).is_empty());
        // Its alert does not promise that every lead is kept.
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "form_blocked".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("O formulário do site está recusando visitantes desde ")
        );
        assert!(!words.summary.contains("esperando"));
        assert!(words.kept.contains("não ficaram registrados"));
    }

    #[test]
    fn the_words_say_since_when_how_many_wait_and_what_to_do() {
        let incident = Incident {
            id: 1,
            started_at: 1_767_225_600_000,
            reasons: "keys_refused,backlog".into(),
            waiting: 4,
            alerted_at: None,
            alerted_reasons: None,
        };
        let words = describe(&incident);
        assert_eq!(
            words.summary,
            "Leads não estão chegando ao Jetimob desde 31/12/2025 21:00. 4 leads esperando envio."
        );
        assert_eq!(words.details.len(), 2);
        assert!(words.kept.starts_with("Nenhum lead se perde"));
        assert!(words.details[0].1.contains("JETIMOB_PRIVATE_KEY"));
        assert!(words.details[1].0.contains("mais de 15 minutos"));
    }

    #[test]
    fn the_recovery_speaks_of_what_the_alert_named() {
        // Alerted for a backlog that has since narrowed to a correction: the leads recovered.
        let narrowed = incident("corrections", Some("backlog,corrections"));
        assert_eq!(narrowed.named(), [Reason::Backlog, Reason::Corrections]);
        let since = "24/11/2026 09:00";
        assert_eq!(
            recovery(&narrowed.named(), since),
            (
                "Entrega ao Jetimob normalizada",
                "Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob (o problema começou em 24/11/2026 09:00).".to_string()
            )
        );
        // Alerted before 0009 kept no list: its last reasons stand in.
        assert_eq!(incident("corrections", None).named(), [Reason::Corrections]);
        let (subject, line) = recovery(&[Reason::Corrections], since);
        assert_eq!(subject, "Correções de leads normalizadas");
        assert!(line.contains("nenhuma correção de visitante espera mais"));
        let (subject, line) = recovery(&[Reason::FormBlocked], since);
        assert_eq!(subject, "Formulário do site normalizado");
        assert!(line.contains("não recusa mais visitantes"));
        assert!(!line.contains("leads voltaram"));
    }

    #[test]
    fn a_webhook_that_refused_an_event_three_times_is_an_incident_of_its_own() {
        let failing = Snapshot {
            webhook_failing_since: Some(NOW - 10 * MINUTE),
            ..Snapshot::default()
        };
        assert_eq!(reasons(&failing, true, NOW), [Reason::WebhookFailing]);
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "webhook_failing".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        assert_eq!(incident.reasons(), [Reason::WebhookFailing]);
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("O webhook do site não está recebendo os avisos desde ")
        );
        assert!(words.details[0].1.contains("ALERT_WEBHOOK_URL"));
        let (subject, line) = recovery(&incident.named(), "24/11/2026 09:00");
        assert_eq!(subject, "Webhook do site normalizado");
        assert!(line.contains("nenhum aviso espera mais"));
        // Beside leads that wait, it is about the leads.
        assert_eq!(
            headline(&[Reason::Backlog, Reason::WebhookFailing]),
            messages::DELIVERY_ALERT_SUBJECT
        );
    }

    #[test]
    fn several_troubles_none_about_leads_name_the_site_not_jetimob() {
        for reasons in [
            &[Reason::FormBlocked, Reason::WebhookFailing][..],
            &[Reason::Corrections, Reason::FormBlocked][..],
            &[Reason::Corrections, Reason::WebhookFailing][..],
        ] {
            assert_eq!(
                headline(reasons),
                "O site precisa de atenção",
                "{reasons:?}"
            );
            let (subject, line) = recovery(reasons, "24/11/2026 09:00");
            assert_eq!(subject, "Site normalizado", "{reasons:?}");
            assert!(!line.contains("Jetimob"), "{line}");
        }
        // A lead-level trouble among them names Jetimob, in the alert and its end.
        let keys = [Reason::KeysRefused, Reason::FormBlocked];
        assert_eq!(headline(&keys), messages::DELIVERY_ALERT_SUBJECT);
        assert_eq!(
            recovery(&keys, "24/11/2026 09:00").0,
            messages::DELIVERY_RECOVERED_SUBJECT
        );
    }
}
