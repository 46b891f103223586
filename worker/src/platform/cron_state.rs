//! Moments the worker notes for the cron and the request paths to read:
//! each a named row of `cron_state` holding the latest time it happened.
//! Noted by the code where it happens; read in SQL with [`noted!`].

use crate::platform::db::{self, D1Database, D1PreparedStatement, query};

// The rows' names, each a macro so that SQL can name it at compile time.

/// The lead form refused a visitor because Turnstile's check could not be made.
macro_rules! turnstile_failed_at {
    () => {
        "turnstile_failed_at"
    };
}
/// The e-mail API took a message.
macro_rules! mail_sent_at {
    () => {
        "mail_sent_at"
    };
}
/// The e-mail API did not take a message.
macro_rules! mail_failed_at {
    () => {
        "mail_failed_at"
    };
}
/// A cron run's delivery watch ran to its end.
macro_rules! delivery_watched_at {
    () => {
        "delivery_watched_at"
    };
}
/// The e-mail API's refusal the webhook was told of ('mail.failing'); gone
/// once it was told of the recovery.
macro_rules! mail_failure_told_at {
    () => {
        "mail_failure_told_at"
    };
}
/// Meta refused our token or pixel (`delivery::meta::Refusal::Settings`).
macro_rules! meta_refused_at {
    () => {
        "meta_refused_at"
    };
}
/// Meta took a request of events.
macro_rules! meta_sent_at {
    () => {
        "meta_sent_at"
    };
}
pub(crate) use {
    delivery_watched_at, mail_failed_at, mail_failure_told_at, mail_sent_at, meta_refused_at,
    meta_sent_at, turnstile_failed_at,
};

/// The time noted under a name (one of the macros above), as a SQL expression.
macro_rules! noted {
    ($name:ident) => {
        concat!(
            "(SELECT value FROM cron_state WHERE name = '",
            $crate::platform::cron_state::$name!(),
            "')"
        )
    };
}
pub(crate) use noted;

const NOTE_SQL: &str = "INSERT INTO cron_state (name, value) VALUES (?1, ?2) \
     ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value)";

const FORGET_SQL: &str = "DELETE FROM cron_state WHERE name = ?1";

/// Notes that `name` happened at `at`; the latest time stays, whatever
/// order parallel notes land in.
pub async fn note(db: &D1Database, name: &str, at: i64) -> worker::Result<()> {
    db::run(&noting(db, name, at)).await?;
    Ok(())
}

/// [`note`] as a statement, to batch with what it goes with.
pub fn noting(db: &D1Database, name: &str, at: i64) -> D1PreparedStatement {
    query!(db, NOTE_SQL, name, at)
}

/// Forgets what was noted under `name`, as a statement to batch.
pub fn forgetting(db: &D1Database, name: &str) -> D1PreparedStatement {
    query!(db, FORGET_SQL, name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_noted_moment_reads_its_own_row() {
        assert_eq!(
            noted!(turnstile_failed_at),
            "(SELECT value FROM cron_state WHERE name = 'turnstile_failed_at')"
        );
        assert_eq!(
            noted!(delivery_watched_at),
            "(SELECT value FROM cron_state WHERE name = 'delivery_watched_at')"
        );
    }
}
