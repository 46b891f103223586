//! Who watches the watch: what the alert e-mails cannot say themselves.
//!
//! Alerts go out from the cron; a cron that stopped (its trigger gone after
//! a deploy, every run failing before the watch) stops the deliveries and
//! the alerts that would say so, in silence. So each run's delivery watch,
//! once it has looked, leaves its time in `cron_state`, and the request
//! paths read it: `/api/health` answers 503 and the panel shows a banner
//! when no watch ran for 5 minutes, or, before any ever ran, when a lead
//! has waited more than 15.
//!
//! Alerts also go out by e-mail; an e-mail API that refuses (its key
//! revoked, its quota spent) stops them, and with them sign-up
//! confirmations, password resets and new-lead notices. Every send notes
//! its outcome (`mail::send`), and while the latest note is a failure the
//! same two paths say so, and the webhook hears it once ('mail.failing',
//! then 'mail.recovered' once an e-mail goes again).

use serde::{Deserialize, Serialize};
use worker::Env;

use super::incidents::{self, BACKLOG_MS, Incident, Words};
use super::webhook;
use crate::agency::messages;
use crate::formats::dates::{format_date, iso};
use crate::platform::cron_state::{self, delivery_watched_at, mail_failure_told_at, noted};
use crate::platform::db::{self, D1Database};

/// Past this without a watch, the cron has stopped (it runs every minute).
pub const STOPPED_MS: i64 = 5 * 60 * 1000;

/// A [`Heartbeat`]'s columns, for a SELECT: the last watch, the oldest
/// undelivered lead and the e-mail API's last answers.
macro_rules! heartbeat_columns {
    () => {
        concat!(
            $crate::platform::cron_state::noted!(delivery_watched_at),
            " AS watched_at, ",
            $crate::alerts::incidents::oldest_undelivered!(),
            " AS oldest_pending_at, ",
            $crate::platform::cron_state::noted!(mail_sent_at),
            " AS mail_sent_at, ",
            $crate::platform::cron_state::noted!(mail_failed_at),
            " AS mail_failed_at"
        )
    };
}
pub(crate) use heartbeat_columns;

/// What the panel reads beside its page.
pub const READ_SQL: &str = concat!("SELECT ", heartbeat_columns!());

/// The watch ran to its end now.
pub async fn record(db: &D1Database, now: i64) -> worker::Result<()> {
    cron_state::note(db, delivery_watched_at!(), now).await
}

/// The e-mail API's last answers, and the refusal the webhook was told of.
const MAIL_NEWS_SQL: &str = concat!(
    "SELECT ",
    noted!(mail_sent_at),
    " AS mail_sent_at, ",
    noted!(mail_failed_at),
    " AS mail_failed_at, ",
    noted!(mail_failure_told_at),
    " AS told_at"
);

#[derive(Debug, Default, Deserialize)]
struct MailNews {
    mail_sent_at: Option<i64>,
    mail_failed_at: Option<i64>,
    told_at: Option<i64>,
}

/// What the webhook's 'mail.failing' and 'mail.recovered' say beside their
/// event and time.
#[derive(Serialize)]
#[serde(untagged)]
enum MailFields {
    Failing {
        since: Option<String>,
        message: String,
    },
    Recovered {
        since: Option<String>,
        recovered_at: Option<String>,
        message: String,
    },
}

/// Tells the webhook that the e-mail API refuses ('mail.failing'), and that
/// it takes messages again ('mail.recovered'): once each, however many cron
/// runs see it (each event has its key; the note of what was told is
/// written in the same batch). The alerts are e-mails, so the webhook is the
/// one way left to tell the team.
pub async fn tell_webhook(env: &Env, db: &D1Database, now: i64) -> worker::Result<()> {
    if webhook::url(env).is_none() {
        return Ok(());
    }
    let news: MailNews = db::first(&db.prepare(MAIL_NEWS_SQL))
        .await?
        .unwrap_or_default();
    let beat = Heartbeat {
        mail_sent_at: news.mail_sent_at,
        mail_failed_at: news.mail_failed_at,
        ..Heartbeat::default()
    };
    let (event, fields, note) = match (beat.mail_refused_at(), news.told_at) {
        (Some(failed_at), None) => (
            webhook::Event {
                name: "mail.failing",
                // One per stretch of refusals: the last e-mail that went names it.
                key: format!("mail.failing:{}", news.mail_sent_at.unwrap_or(0)),
                after: None,
            },
            MailFields::Failing {
                since: iso(failed_at),
                message: messages::mail_failing(&format_date(failed_at)),
            },
            cron_state::noting(db, mail_failure_told_at!(), failed_at),
        ),
        (None, Some(told_at)) => (
            webhook::Event {
                name: "mail.recovered",
                key: format!("mail.recovered:{told_at}"),
                after: None,
            },
            MailFields::Recovered {
                since: iso(told_at),
                recovered_at: news.mail_sent_at.and_then(iso),
                message: messages::mail_recovered(&format_date(told_at)),
            },
            cron_state::forgetting(db, mail_failure_told_at!()),
        ),
        _ => return Ok(()),
    };
    if let Some(recorded) = webhook::record(env, db, event, &fields, now)? {
        db::batch(db, vec![recorded, note]).await?;
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Heartbeat {
    /// When the last delivery watch ran; never, on a database no cron ran on.
    pub watched_at: Option<i64>,
    /// When the oldest undelivered lead arrived.
    pub oldest_pending_at: Option<i64>,
    /// When the e-mail API last took a message.
    pub mail_sent_at: Option<i64>,
    /// When the e-mail API last did not.
    pub mail_failed_at: Option<i64>,
}

impl Heartbeat {
    /// Whether the cron has stopped: no watch for 5 minutes, or none ever
    /// while a lead has waited more than 15.
    pub fn stopped(&self, now: i64) -> bool {
        match self.watched_at {
            Some(at) => now - at > STOPPED_MS,
            None => self
                .oldest_pending_at
                .is_some_and(|at| now - at > BACKLOG_MS),
        }
    }

    /// Whole minutes since the last watch, if one ran.
    pub fn minutes_ago(&self, now: i64) -> Option<i64> {
        self.watched_at.map(|at| (now - at).max(0) / 60_000)
    }

    /// When the e-mail API refused the latest message, if it did (no e-mail
    /// went since): e-mail is failing.
    pub fn mail_refused_at(&self) -> Option<i64> {
        self.mail_failed_at
            .filter(|failed| self.mail_sent_at.is_none_or(|sent| sent < *failed))
    }

    /// The panel's banner, and since when: a stopped cron first (an open
    /// incident is as old as the last watch), else the open incident;
    /// failing e-mail adds its line to either, or stands alone.
    pub fn banner(&self, incident: Option<&Incident>, now: i64) -> Option<(Option<i64>, Words)> {
        let mut shown = if self.stopped(now) {
            Some((self.watched_at, self.stopped_words()))
        } else {
            incident.map(|i| (Some(i.started_at), incidents::describe(i)))
        };
        if let Some(failed_at) = self.mail_refused_at() {
            let line = (
                messages::MAIL_FAILING.to_string(),
                messages::MAIL_FAILING_TODO.to_string(),
            );
            match &mut shown {
                Some((_, words)) => words.details.push(line),
                None => {
                    shown = Some((
                        Some(failed_at),
                        Words {
                            summary: messages::mail_failing(&format_date(failed_at)),
                            details: vec![line],
                            kept: messages::MAIL_KEPT,
                            standing: incidents::Standing::Other,
                        },
                    ))
                }
            }
        }
        shown
    }

    /// The words while the cron is stopped.
    fn stopped_words(&self) -> Words {
        let summary = match self.watched_at {
            Some(at) => messages::watch_stopped_since(&format_date(at)),
            None => messages::WATCH_NEVER_RAN.to_string(),
        };
        Words {
            summary,
            details: vec![(
                messages::WATCH_STOPPED.to_string(),
                messages::WATCH_STOPPED_TODO.to_string(),
            )],
            kept: messages::ALERT_LEADS_KEPT,
            standing: incidents::Standing::Down,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000_000;
    const MINUTE: i64 = 60_000;

    fn beat(watched: Option<i64>, pending: Option<i64>) -> Heartbeat {
        Heartbeat {
            watched_at: watched.map(|m| NOW - m * MINUTE),
            oldest_pending_at: pending.map(|m| NOW - m * MINUTE),
            ..Heartbeat::default()
        }
    }

    /// An incident opened half an hour ago, for these reasons.
    fn open_incident(reasons: &str) -> Incident {
        Incident {
            id: 1,
            started_at: NOW - 30 * MINUTE,
            reasons: reasons.into(),
            waiting: 1,
            alerted_at: None,
            alerted_reasons: None,
        }
    }

    fn summary(beat: &Heartbeat, incident: Option<&Incident>) -> Option<String> {
        beat.banner(incident, NOW).map(|(_, words)| words.summary)
    }

    #[test]
    fn a_watch_in_the_last_5_minutes_is_a_running_cron_whatever_waits() {
        assert!(!beat(Some(0), None).stopped(NOW));
        assert!(!beat(Some(5), Some(600)).stopped(NOW));
        assert_eq!(beat(Some(5), None).minutes_ago(NOW), Some(5));
    }

    #[test]
    fn no_watch_for_more_than_5_minutes_is_a_stopped_cron() {
        assert!(beat(Some(6), None).stopped(NOW));
        let (since, words) = beat(Some(6), None).banner(None, NOW).unwrap();
        assert_eq!(since, Some(NOW - 6 * MINUTE));
        assert!(
            words
                .summary
                .starts_with("O envio automático está parado desde ")
        );
        assert!(words.details[0].1.contains("Cron Trigger"));
    }

    #[test]
    fn before_any_watch_only_a_lead_waiting_more_than_15_minutes_says_it_stopped() {
        assert!(!beat(None, None).stopped(NOW));
        assert!(!beat(None, Some(14)).stopped(NOW));
        assert!(beat(None, Some(16)).stopped(NOW));
        assert_eq!(beat(None, Some(16)).minutes_ago(NOW), None);
        assert_eq!(
            summary(&beat(None, Some(16)), None).as_deref(),
            Some(messages::WATCH_NEVER_RAN)
        );
    }

    #[test]
    fn a_stopped_cron_comes_before_the_open_incident_which_comes_before_nothing() {
        let incident = open_incident("backlog");
        assert_eq!(summary(&beat(Some(1), None), None), None);
        let open = summary(&beat(Some(1), None), Some(&incident)).unwrap();
        assert!(open.starts_with("Leads não estão chegando ao Jetimob"));
        let stopped = summary(&beat(Some(6), None), Some(&incident)).unwrap();
        assert!(stopped.starts_with("O envio automático está parado"));
    }

    #[test]
    fn e_mail_fails_while_its_latest_answer_is_a_refusal() {
        let mail = |sent: Option<i64>, failed: Option<i64>| Heartbeat {
            watched_at: Some(NOW),
            mail_sent_at: sent.map(|m| NOW - m * MINUTE),
            mail_failed_at: failed.map(|m| NOW - m * MINUTE),
            ..Heartbeat::default()
        };
        assert_eq!(mail(None, None).mail_refused_at(), None);
        assert_eq!(mail(Some(1), Some(2)).mail_refused_at(), None);
        assert_eq!(mail(Some(2), Some(1)).mail_refused_at(), Some(NOW - MINUTE));
        assert_eq!(mail(None, Some(1)).mail_refused_at(), Some(NOW - MINUTE));

        // Alone, it is the banner; with an incident, one more line of it.
        let (since, alone) = mail(Some(2), Some(1)).banner(None, NOW).unwrap();
        assert_eq!(since, Some(NOW - MINUTE));
        assert!(
            alone
                .summary
                .starts_with("Os e-mails do site não estão saindo")
        );
        assert_eq!(alone.details.len(), 1);
        assert_eq!(alone.kept, messages::MAIL_KEPT);
        let incident = open_incident("keys_refused");
        let (_, both) = mail(None, Some(1)).banner(Some(&incident), NOW).unwrap();
        assert!(
            both.summary
                .starts_with("Leads não estão chegando ao Jetimob")
        );
        assert_eq!(both.details.len(), 2);
        assert_eq!(both.details[1].0, messages::MAIL_FAILING);
    }
}
