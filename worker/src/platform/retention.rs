//! What the worker stops keeping. Every cron run removes, in one D1 batch:
//! rate-limit counters a day after their window opened, and what let a
//! person in, a month after its end date: sessions (with every refresh token
//! they issued) a month after their 30 days ran out, signed out earlier or
//! not; e-mail confirmation links (with the password of the sign-up that sent
//! them) and password reset links a month after they expired, with the
//! account of a sign-up never confirmed once its last link goes. Until then
//! the rows are there to look at if an account's access is ever in question,
//! and someone who signed up and never confirmed still hears "confirm your
//! e-mail" when signing in. And the webhook's events a month after they were
//! made, once sent or given up (retries stop after a week); an open
//! incident's own event stays while it is open, since its key is what keeps
//! the incident to one event and makes its end heard. And each owner's copy
//! of an incident's e-mails, a month after it was written, once sent or
//! given up, unless their incident is still open. And the marks of the
//! networks that visited the site, once their Brasília day is over.
//!
//! Each statement finds its rows by an index on the time it looks at (the
//! webhook's events by their ids, which grow with time: the first event
//! young enough to keep bounds the range) and removes at most
//! [`MAX_ROWS_PER_TABLE`] per run, so a run that has nothing to do reads
//! next to nothing and a backlog (the first run after an upgrade) is cleared
//! over a few runs instead of in one long one.

use worker::Env;

use crate::agency::roles::role_sql;
use crate::platform::db::{self, query};
use crate::platform::{self, config};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Rate-limit counters older than this are of no use to any window.
const RATE_LIMIT_RETENTION_MS: i64 = DAY_MS;

/// How long a session or link is kept once it no longer works.
const ENDED_RETENTION_MS: i64 = 30 * DAY_MS;

/// The most rows one run removes from each table.
const MAX_ROWS_PER_TABLE: i64 = 2_000;

const PRUNE_RATE_LIMITS: &str = "DELETE FROM rate_limits WHERE rowid IN \
     (SELECT rowid FROM rate_limits WHERE window_start < ?1 LIMIT ?2)";
/// The tokens of sessions that ended long ago, first: a session goes once it
/// has none left, so deleting it never cascades into an unbounded delete.
const PRUNE_REFRESH_TOKENS: &str = "DELETE FROM refresh_tokens WHERE rowid IN \
     (SELECT t.rowid FROM staff_sessions s JOIN refresh_tokens t ON t.session_id = s.id \
      WHERE s.expires_at < ?1 LIMIT ?2)";
const PRUNE_SESSIONS: &str = "DELETE FROM staff_sessions WHERE rowid IN \
     (SELECT s.rowid FROM staff_sessions s WHERE s.expires_at < ?1 \
        AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.session_id = s.id) LIMIT ?2)";
/// An account never confirmed, with its last link about to go (each
/// sign-up makes one): nothing can confirm it any more, so it goes too, and
/// 'Equipe' does not list sign-ups nobody finished (a stranger's made-up
/// addresses among them) for ever. Found through the links the next
/// statement removes; its links go with it. Not one switched off (that
/// keeps its address from signing up again), nor one made an owner.
const PRUNE_UNCONFIRMED_ACCOUNTS: &str = concat!(
    "DELETE FROM staff_users WHERE id IN \
     (SELECT u.id FROM email_confirmations c JOIN staff_users u ON u.id = c.user_id \
      WHERE c.expires_at < ?1 \
        AND u.confirmed_at IS NULL AND u.disabled_at IS NULL AND u.role = ",
    role_sql!(Staff),
    " AND NOT EXISTS (SELECT 1 FROM email_confirmations k \
                        WHERE k.user_id = u.id AND k.expires_at >= ?1) \
      LIMIT ?2)"
);
/// The links of accounts that are not such a sign-up (confirmed, switched
/// off, an owner); those of a sign-up never confirmed go with their account
/// (above), so a backlog of more than a run's worth never leaves an account
/// without the link that finds it.
const PRUNE_CONFIRMATIONS: &str = concat!(
    "DELETE FROM email_confirmations WHERE rowid IN \
     (SELECT c.rowid FROM email_confirmations c WHERE c.expires_at < ?1 \
        AND NOT EXISTS (SELECT 1 FROM staff_users u WHERE u.id = c.user_id \
          AND u.confirmed_at IS NULL AND u.disabled_at IS NULL AND u.role = ",
    role_sql!(Staff),
    ") LIMIT ?2)"
);
const PRUNE_RESETS: &str = "DELETE FROM password_resets WHERE rowid IN \
     (SELECT rowid FROM password_resets WHERE expires_at < ?1 LIMIT ?2)";

/// Events are ids in order of their making, so the first one made since the
/// cut-off (found by reading from the oldest, stopping at it) bounds the old
/// ones: after a first clean-up, a run reads about one row. An open
/// incident's event stays: `'incident:' || id` is the key
/// `alerts::incidents` gives it (`event_key`), written here again because
/// the statement stays one literal (`retention.test.ts` reads it from this
/// file): change both together.
const PRUNE_WEBHOOK_EVENTS: &str = "DELETE FROM webhook_events WHERE id IN \
     (SELECT id FROM webhook_events \
      WHERE id < coalesce((SELECT id FROM webhook_events WHERE created_at >= ?1 ORDER BY id LIMIT 1), \
                          9223372036854775807) \
        AND created_at < ?1 AND status != 'pending' \
        AND (once_key IS NULL OR once_key NOT IN \
               (SELECT 'incident:' || id FROM delivery_incidents WHERE resolved_at IS NULL)) \
      ORDER BY id LIMIT ?2)";

/// The owners' copies of incident e-mails, found the same way: a month
/// after they were written, once sent or given up (retries stop after a day).
/// An open incident's copies stay: who its alerts reached is who hears of its
/// end (with none left, its recovery would go to every owner), and 'Equipe'
/// still shows an owner its alert never reached.
const PRUNE_ALERT_MAILS: &str = "DELETE FROM alert_mails WHERE id IN \
     (SELECT id FROM alert_mails \
      WHERE id < coalesce((SELECT id FROM alert_mails WHERE created_at >= ?1 ORDER BY id LIMIT 1), \
                          9223372036854775807) \
        AND created_at < ?1 AND status != 'pending' \
        AND incident_id NOT IN (SELECT id FROM delivery_incidents WHERE resolved_at IS NULL) \
      ORDER BY id LIMIT ?2)";

/// The marks of the networks that visited (`campaigns::visits`): kept for
/// their Brasília day only, gone with the first run after it (`?1` is now,
/// kept 0 ms: the day of now, in Brasília, UTC−3).
const PRUNE_VISIT_NETWORKS: &str = "DELETE FROM visit_networks WHERE (day, network) IN \
     (SELECT day, network FROM visit_networks \
      WHERE day < date(?1 / 1000 - 10800, 'unixepoch') LIMIT ?2)";

/// The clean-up's statements in batch order: each with how long its rows
/// are kept and what it removes, for the log.
const STEPS: [(&str, i64, &str); 9] = [
    (
        PRUNE_RATE_LIMITS,
        RATE_LIMIT_RETENTION_MS,
        "rate-limit counters",
    ),
    (PRUNE_REFRESH_TOKENS, ENDED_RETENTION_MS, "refresh tokens"),
    (PRUNE_SESSIONS, ENDED_RETENTION_MS, "sessions"),
    (
        PRUNE_UNCONFIRMED_ACCOUNTS,
        ENDED_RETENTION_MS,
        "accounts never confirmed",
    ),
    (
        PRUNE_CONFIRMATIONS,
        ENDED_RETENTION_MS,
        "confirmation links",
    ),
    (PRUNE_RESETS, ENDED_RETENTION_MS, "reset links"),
    (PRUNE_WEBHOOK_EVENTS, ENDED_RETENTION_MS, "webhook events"),
    (
        PRUNE_ALERT_MAILS,
        ENDED_RETENTION_MS,
        "owners' alert e-mails",
    ),
    (PRUNE_VISIT_NETWORKS, 0, "visit networks of days gone"),
];

/// One cron run's clean-up. A failure is logged and left to the next run.
pub async fn run(env: &Env) {
    match prune(env, platform::now_ms()).await {
        Ok((results, steps)) => {
            let removed: Vec<String> = steps
                .into_iter()
                .zip(STEPS)
                .map(|(step, (_, _, what))| (results.changes(step), what))
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
            if !removed.is_empty() {
                worker::console_log!("retention: removed {}", removed.join(", "));
            }
        }
        Err(e) => worker::console_error!("retention: the clean-up failed: {e}"),
    }
}

async fn prune(env: &Env, now: i64) -> worker::Result<(db::Results, Vec<db::Handle>)> {
    let db = config::database(env)?;
    let mut batch = db::Batch::new();
    let steps = STEPS
        .iter()
        .map(|(sql, kept_ms, _)| batch.add(query!(&db, *sql, now - kept_ms, MAX_ROWS_PER_TABLE)))
        .collect();
    Ok((batch.run(&db).await?, steps))
}
