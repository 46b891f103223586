//! Who watches the watch. Alerts go out from the cron; a cron that stopped
//! (its trigger gone after a deploy, every run failing before the watch)
//! stops the deliveries and the alerts that would say so, in silence. So
//! each run's delivery watch, once it has looked, leaves its time in
//! `cron_state`, and the request paths read it: `/api/health` answers 503
//! and the panel shows a banner when no watch ran for 5 minutes, or, before
//! any ever ran, when a lead has waited more than 15.

use serde::Deserialize;
use worker::D1Database;

use super::incidents::{BACKLOG_MS, Words, oldest_undelivered};
use crate::d1::query;
use crate::dates::format_date;
use crate::messages;

/// Past this without a watch, the cron has stopped (it runs every minute).
pub const STOPPED_MS: i64 = 5 * 60 * 1000;

/// The time of the last delivery watch, as a SQL expression.
macro_rules! last_watch {
    () => {
        "(SELECT value FROM cron_state WHERE name = 'delivery_watched_at')"
    };
}
pub(crate) use last_watch;

const RECORD_SQL: &str = "INSERT INTO cron_state (name, value) VALUES ('delivery_watched_at', ?1) \
     ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)";

/// What the panel reads beside its page: the last watch and the oldest
/// undelivered lead.
pub const READ_SQL: &str = concat!(
    "SELECT ",
    last_watch!(),
    " AS watched_at, ",
    oldest_undelivered!(),
    " AS oldest_pending_at"
);

/// The watch ran to its end now.
pub async fn record(db: &D1Database, now: i64) -> worker::Result<()> {
    query!(db, RECORD_SQL, now)?.run().await?;
    Ok(())
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Heartbeat {
    /// When the last delivery watch ran; never, on a database no cron ran on.
    pub watched_at: Option<i64>,
    /// When the oldest undelivered lead arrived.
    pub oldest_pending_at: Option<i64>,
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

    /// The panel's banner while the cron is stopped.
    pub fn words(&self) -> Words {
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
        }
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
        let words = beat(Some(6), None).words();
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
            beat(None, Some(16)).words().summary,
            messages::WATCH_NEVER_RAN
        );
    }
}
