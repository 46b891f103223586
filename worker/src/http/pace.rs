//! How much one cron run sends, and at what pace each receiver takes it.
//!
//! A run keeps sending what is due, batch after batch, while the receiver
//! accepts, until nothing is due or the run's budget is spent: a backlog of
//! hundreds drains in one run at the receiver's own speed, not a few dozen a
//! minute. It stops sending to a receiver at its first sign of strain: a
//! `429` (which also pauses it, for its `Retry-After`, across runs and the
//! first attempts of new leads), a `5xx`, a timeout or a refusal of our keys.
//! What was claimed and failed keeps its own backoff; the rest waits for the
//! next run.
//!
//! The budget, well inside Cloudflare's limits for a cron trigger (15
//! minutes of wall time; 30 s of CPU by default): 50 s of wall time, so a run
//! ends before the next minute's starts (overlapping runs would be safe, each
//! claim holds its work, but pointless), and at most 300 batches, a few
//! seconds of CPU (a batch costs well under 10 ms of it: the claim's
//! statement, the requests' bodies, the records).

use std::cell::Cell;

use crate::platform::db::D1Database;

/// The wall time one run may send for.
pub const RUN_WALL_MS: i64 = 50_000;
/// The batches one run may send, all receivers together.
pub const RUN_MAX_BATCHES: usize = 300;
/// How long a receiver that answered `429` without `Retry-After` is left alone.
pub const DEFAULT_PAUSE_MS: i64 = 60_000;

/// What one run may still spend. Shared by the receivers drained together.
#[derive(Debug)]
pub struct Budget {
    until: i64,
    batches_left: Cell<usize>,
}

impl Budget {
    /// A run's budget from `now`.
    pub fn for_run(now: i64) -> Self {
        Self::new(now, RUN_WALL_MS, RUN_MAX_BATCHES)
    }

    pub fn new(now: i64, wall_ms: i64, batches: usize) -> Self {
        Self {
            until: now + wall_ms,
            batches_left: Cell::new(batches),
        }
    }

    /// Whether another batch may start at `now`; if so, it is counted.
    pub fn take_batch(&self, now: i64) -> bool {
        let left = self.batches_left.get();
        if left == 0 || now >= self.until {
            return false;
        }
        self.batches_left.set(left - 1);
        true
    }
}

/// What an attempt says about its receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strain {
    /// It took the work, or refused this piece of it for itself: go on.
    None,
    /// It struggles (a `5xx`, no answer, our keys refused): no more this run.
    Stop,
    /// It asked to be left alone this long (a `429`): no more until then.
    Pause { ms: i64 },
}

impl Strain {
    /// The `429` of an answer with this `Retry-After`.
    pub fn too_many(retry_after_seconds: Option<u64>) -> Self {
        let ms = retry_after_seconds.map_or(DEFAULT_PAUSE_MS, |s| {
            i64::try_from(s.saturating_mul(1000)).unwrap_or(i64::MAX)
        });
        Strain::Pause { ms }
    }

    /// The strongest of several: a pause over a stop over nothing.
    pub fn worst(strains: impl IntoIterator<Item = Strain>) -> Strain {
        strains
            .into_iter()
            .fold(Strain::None, |worst, s| match (worst, s) {
                (Strain::Pause { ms: a }, Strain::Pause { ms: b }) => {
                    Strain::Pause { ms: a.max(b) }
                }
                (Strain::Pause { .. }, _) => worst,
                (_, Strain::Pause { .. }) => s,
                (Strain::Stop, _) | (_, Strain::Stop) => Strain::Stop,
                _ => Strain::None,
            })
    }
}

/// The `cron_state` row that holds until when a receiver is left alone.
fn paused_until_name(receiver: &str) -> String {
    format!("paused_until:{receiver}")
}

/// The SQL condition that `receiver` (a literal) is not paused at `$now`:
/// for a claim to carry, so a first attempt of a new lead waits out a pause
/// too, without a look-up of its own.
macro_rules! not_paused {
    ($receiver:literal, $now:literal) => {
        concat!(
            "NOT EXISTS (SELECT 1 FROM cron_state WHERE name = 'paused_until:",
            $receiver,
            "' AND value > ",
            $now,
            ")"
        )
    };
}
pub(crate) use not_paused;

/// Leaves `receiver` alone until `until` (a later pause already noted stands).
pub async fn pause(db: &D1Database, receiver: &str, until: i64) -> worker::Result<()> {
    crate::platform::cron_state::note(db, &paused_until_name(receiver), until).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_stops_at_its_wall_time_or_its_batches() {
        let budget = Budget::new(0, 1_000, 2);
        assert!(budget.take_batch(10));
        assert!(budget.take_batch(999));
        assert!(!budget.take_batch(500), "no batch left");
        let budget = Budget::new(0, 1_000, 100);
        assert!(!budget.take_batch(1_000), "the wall time is spent");
    }

    #[test]
    fn a_pause_outweighs_a_stop_and_the_longest_pause_wins() {
        assert_eq!(Strain::worst([]), Strain::None);
        assert_eq!(Strain::worst([Strain::None, Strain::Stop]), Strain::Stop);
        assert_eq!(
            Strain::worst([Strain::Stop, Strain::too_many(Some(30)), Strain::None]),
            Strain::Pause { ms: 30_000 }
        );
        assert_eq!(
            Strain::worst([Strain::too_many(Some(30)), Strain::too_many(None)]),
            Strain::Pause { ms: 60_000 }
        );
    }

    #[test]
    fn a_claim_waits_out_a_pause_its_receiver_asked_for() {
        assert_eq!(
            not_paused!("jetimob", "?2"),
            "NOT EXISTS (SELECT 1 FROM cron_state WHERE name = 'paused_until:jetimob' AND value > ?2)"
        );
        assert_eq!(paused_until_name("meta"), "paused_until:meta");
    }
}
