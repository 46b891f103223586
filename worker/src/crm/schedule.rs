//! When a failed delivery is tried again: soon at first, for a CRM that
//! blinked, then further apart, and never past a week after its first
//! attempt (for a lead, usually the moment it arrived; for one that waited
//! while delivery was off, the moment delivery came on), so a lead the CRM
//! keeps refusing ends up in front of a person.

const MINUTE_MS: i64 = 60 * 1000;
const HOUR_MS: i64 = 60 * MINUTE_MS;

/// How long after the first attempt the worker keeps trying on its own.
pub const RETRY_WINDOW_MS: i64 = 7 * 24 * HOUR_MS;

/// The wait after the first, second, … failed attempt; past the list, the last step repeats.
const BACKOFF_MS: [i64; 5] = [
    MINUTE_MS,
    5 * MINUTE_MS,
    30 * MINUTE_MS,
    2 * HOUR_MS,
    6 * HOUR_MS,
];

/// What to do with a lead whose attempt just failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterFailure {
    /// Try again at this time (ms since the epoch).
    RetryAt(i64),
    /// The retry window is over: the lead needs a person.
    GiveUp,
}

impl AfterFailure {
    /// When to try again, as stored in a `next_attempt_at` column: none once given up.
    pub fn retry_at(self) -> Option<i64> {
        match self {
            AfterFailure::RetryAt(at) => Some(at),
            AfterFailure::GiveUp => None,
        }
    }
}

/// The wait after the `attempts`-th failed attempt (1-based).
pub fn delay_after(attempts: i64) -> i64 {
    let step = usize::try_from(attempts.saturating_sub(1)).unwrap_or(0);
    BACKOFF_MS[step.min(BACKOFF_MS.len() - 1)]
}

/// The next attempt of a delivery first tried at `since` whose
/// `attempts`-th attempt failed at `now`.
pub fn after_failure(since: i64, attempts: i64, now: i64) -> AfterFailure {
    after_failure_within(since, RETRY_WINDOW_MS, attempts, now)
}

/// The same, for something retried for `window` after `since` instead of a week.
pub fn after_failure_within(since: i64, window: i64, attempts: i64, now: i64) -> AfterFailure {
    let next = now.saturating_add(delay_after(attempts));
    if next > since.saturating_add(window) {
        AfterFailure::GiveUp
    } else {
        AfterFailure::RetryAt(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T0: i64 = 1_760_000_000_000;

    #[test]
    fn each_failure_waits_longer_up_to_six_hours() {
        let steps: Vec<i64> = (1..=7).map(delay_after).collect();
        assert_eq!(
            steps,
            [
                MINUTE_MS,
                5 * MINUTE_MS,
                30 * MINUTE_MS,
                2 * HOUR_MS,
                6 * HOUR_MS,
                6 * HOUR_MS,
                6 * HOUR_MS
            ]
        );
    }

    #[test]
    fn a_count_below_one_is_treated_as_the_first_failure() {
        assert_eq!(delay_after(0), MINUTE_MS);
        assert_eq!(delay_after(-3), MINUTE_MS);
    }

    #[test]
    fn the_first_failures_of_a_new_lead_are_retried_after_one_then_five_minutes() {
        assert_eq!(
            after_failure(T0, 1, T0),
            AfterFailure::RetryAt(T0 + MINUTE_MS)
        );
        let second = T0 + MINUTE_MS + 200;
        assert_eq!(
            after_failure(T0, 2, second),
            AfterFailure::RetryAt(second + 5 * MINUTE_MS)
        );
    }

    #[test]
    fn a_retry_that_lands_exactly_at_the_end_of_the_window_still_happens() {
        let now = T0 + RETRY_WINDOW_MS - 6 * HOUR_MS;
        assert_eq!(
            after_failure(T0, 9, now),
            AfterFailure::RetryAt(T0 + RETRY_WINDOW_MS)
        );
    }

    #[test]
    fn a_retry_that_would_land_past_seven_days_gives_up() {
        let now = T0 + RETRY_WINDOW_MS - 6 * HOUR_MS + 1;
        assert_eq!(after_failure(T0, 9, now), AfterFailure::GiveUp);
        assert_eq!(
            after_failure(T0, 1, T0 + RETRY_WINDOW_MS),
            AfterFailure::GiveUp
        );
    }

    #[test]
    fn a_lead_that_keeps_failing_on_schedule_is_tried_32_times_in_its_week() {
        let mut now = T0;
        let mut attempts = 0;
        loop {
            attempts += 1;
            match after_failure(T0, attempts, now) {
                AfterFailure::RetryAt(next) => now = next,
                AfterFailure::GiveUp => break,
            }
        }
        // The fifth attempt comes 2 h 36 min in; 27 more fit, 6 h apart, before day 7.
        assert_eq!(attempts, 32);
        assert!(now <= T0 + RETRY_WINDOW_MS);
    }

    #[test]
    fn something_retried_for_a_day_is_tried_eight_times_on_the_same_steps() {
        let day = 24 * HOUR_MS;
        let mut tried_at = vec![T0];
        loop {
            let attempts = tried_at.len() as i64;
            match after_failure_within(T0, day, attempts, *tried_at.last().unwrap()) {
                AfterFailure::RetryAt(next) => tried_at.push(next),
                AfterFailure::GiveUp => break,
            }
        }
        // 0, 1 min, 6 min, 36 min, 2 h 36, 8 h 36, 14 h 36, 20 h 36; the next would pass the day.
        let minutes: Vec<i64> = tried_at.iter().map(|t| (t - T0) / MINUTE_MS).collect();
        assert_eq!(minutes, [0, 1, 6, 36, 156, 516, 876, 1236]);
    }

    proptest! {
        #[test]
        fn a_retry_is_always_later_than_now_and_inside_the_window(
            attempts in 1i64..1000,
            age in 0i64..RETRY_WINDOW_MS * 2,
        ) {
            let now = T0 + age;
            match after_failure(T0, attempts, now) {
                AfterFailure::RetryAt(next) => {
                    prop_assert!(next > now);
                    prop_assert!(next <= T0 + RETRY_WINDOW_MS);
                }
                AfterFailure::GiveUp => prop_assert!(now + delay_after(attempts) > T0 + RETRY_WINDOW_MS),
            }
        }
    }
}
