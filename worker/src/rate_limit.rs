//! How many times a subject (an IP, an e-mail) did something recently.
//!
//! Per-IP limits are counted by Cloudflare's Rate Limiting binding when
//! `wrangler.toml` declares one for them (counted at the edge, no D1 write);
//! otherwise, and for every other limit, by fixed-window counters in D1.

use worker::{D1Database, D1PreparedStatement, Env, RateLimiter, query};

/// A limit: at most `max` events per `window_ms` for one subject.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    pub name: &'static str,
    pub max: i64,
    pub window_ms: i64,
    /// The Rate Limiting binding that counts this limit instead of D1 when it
    /// is configured. Its own `limit` and `period` (10 or 60 s) then apply.
    pub binding: Option<&'static str>,
}

/// Lead submissions per IP.
pub const LEAD_SUBMISSIONS: Limit = Limit {
    name: "lead",
    max: 10,
    window_ms: 10 * 60 * 1000,
    binding: Some("LEAD_RATE_LIMITER"),
};

impl Limit {
    pub fn key(&self, subject: &str) -> String {
        format!("{}:{}", self.name, subject)
    }

    pub fn window_start(&self, now_ms: i64) -> i64 {
        now_ms - now_ms.rem_euclid(self.window_ms)
    }

    /// Whether an event that brought the count to `count` is within the limit.
    pub fn allows(&self, count: i64) -> bool {
        count <= self.max
    }

    /// Whether `past` events already used the whole allowance.
    pub fn exhausted(&self, past: i64) -> bool {
        past >= self.max
    }
}

/// Sign-ups per IP (each sends an e-mail).
pub const SIGNUPS: Limit = Limit {
    name: "signup",
    max: 10,
    window_ms: 60 * 60 * 1000,
    binding: None,
};

/// Failed sign-ins per e-mail address.
pub const LOGIN_FAILURES_PER_EMAIL: Limit = Limit {
    name: "login-email",
    max: 5,
    window_ms: 15 * 60 * 1000,
    binding: None,
};

/// Failed sign-ins per IP (an office shares one address: a little more room).
/// The binding can only count and check in one call, so with it every
/// sign-in attempt from the address counts, not just the failures.
pub const LOGIN_FAILURES_PER_IP: Limit = Limit {
    name: "login-ip",
    max: 10,
    window_ms: 15 * 60 * 1000,
    binding: Some("SIGN_IN_RATE_LIMITER"),
};

/// Who counts a per-IP limit for this request.
pub enum Counter {
    /// Cloudflare's Rate Limiting binding: one call counts and checks.
    Binding(RateLimiter),
    /// The D1 counters, written in the same batch as the request's own work.
    D1,
}

impl Counter {
    /// The binding when `wrangler.toml` declares it, D1 otherwise (always
    /// locally unless a test config adds the binding).
    pub fn for_limit(env: &Env, limit: &Limit) -> Self {
        Self::choose(limit.binding.map(|name| env.rate_limiter(name)))
    }

    /// An absent or unusable binding falls back to D1: the limit is never
    /// silently off.
    pub fn choose(binding: Option<worker::Result<RateLimiter>>) -> Self {
        match binding {
            Some(Ok(limiter)) => Counter::Binding(limiter),
            Some(Err(_)) | None => Counter::D1,
        }
    }
}

/// Counts one event for `subject` with the binding; `true` while within the limit.
pub async fn within_binding(
    limiter: &RateLimiter,
    limit: &Limit,
    subject: &str,
) -> worker::Result<bool> {
    Ok(limiter.limit(limit.key(subject)).await?.success)
}

/// Counts one event in the subject's current window (starting a new window
/// when the stored one is over) and returns the count as `count`.
pub const HIT_SQL: &str = "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) \
     ON CONFLICT (key) DO UPDATE SET \
       count = CASE WHEN rate_limits.window_start = excluded.window_start \
                    THEN rate_limits.count + 1 ELSE 1 END, \
       window_start = excluded.window_start \
     RETURNING count";

pub fn hit(
    db: &D1Database,
    limit: &Limit,
    subject: &str,
    now_ms: i64,
) -> worker::Result<D1PreparedStatement> {
    query!(db, HIT_SQL, limit.key(subject), limit.window_start(now_ms))
}

/// The counts of `?1` and `?2` in the window starting at `?3`.
pub const READ_TWO_SQL: &str =
    "SELECT key, count FROM rate_limits WHERE key IN (?1, ?2) AND window_start = ?3";

/// Drops counters whose window ended long ago.
pub const PRUNE_SQL: &str = "DELETE FROM rate_limits WHERE window_start < ?1";

#[derive(serde::Deserialize)]
pub struct CountRow {
    pub count: i64,
}

#[derive(serde::Deserialize)]
pub struct KeyCountRow {
    pub key: String,
    pub count: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_aligned_so_every_request_in_one_window_shares_its_counter() {
        let ten_minutes = LEAD_SUBMISSIONS.window_ms;
        let start = 1_700_000_400_000 - 1_700_000_400_000 % ten_minutes;
        assert_eq!(LEAD_SUBMISSIONS.window_start(start), start);
        assert_eq!(
            LEAD_SUBMISSIONS.window_start(start + ten_minutes - 1),
            start
        );
        assert_eq!(
            LEAD_SUBMISSIONS.window_start(start + ten_minutes),
            start + ten_minutes
        );
    }

    #[test]
    fn five_failed_sign_ins_exhaust_an_address() {
        assert!(!LOGIN_FAILURES_PER_EMAIL.exhausted(4));
        assert!(LOGIN_FAILURES_PER_EMAIL.exhausted(5));
    }

    #[test]
    fn without_a_binding_every_limit_is_counted_in_d1() {
        assert!(matches!(Counter::choose(None), Counter::D1));
        let missing: worker::Result<RateLimiter> =
            Err(String::from("Binding `LEAD_RATE_LIMITER` is undefined.").into());
        assert!(matches!(Counter::choose(Some(missing)), Counter::D1));
    }

    #[test]
    fn the_bindings_the_worker_looks_for_are_the_ones_wrangler_toml_documents() {
        let wrangler = include_str!("../../wrangler.toml");
        for limit in [LEAD_SUBMISSIONS, LOGIN_FAILURES_PER_IP] {
            let name = limit.binding.expect("per-IP limits name a binding");
            assert!(
                wrangler.contains(&format!("name = \"{name}\"")),
                "wrangler.toml does not document the {name} binding"
            );
        }
    }

    #[test]
    fn the_limit_allows_exactly_max_events() {
        assert!(LEAD_SUBMISSIONS.allows(10));
        assert!(!LEAD_SUBMISSIONS.allows(11));
        assert_eq!(LEAD_SUBMISSIONS.key("203.0.113.9"), "lead:203.0.113.9");
    }
}
