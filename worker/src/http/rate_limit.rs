//! How many times a subject (an address, an e-mail) did something recently.
//!
//! Per-address limits are counted by Cloudflare's Rate Limiting binding when
//! `wrangler.toml` declares one for them (counted at the edge, no D1 write);
//! otherwise, and for every other limit, by fixed-window counters in D1.
//! Either way the event is counted before the work it costs is done, in the
//! same D1 batch that reads the count, so parallel requests cannot all slip
//! under a limit. An address is an IPv4 address or an IPv6 /64: one
//! household or office network gets one counter, however many addresses it
//! can pick from.

use serde::Deserialize;
use std::net::{IpAddr, Ipv6Addr};
use worker::{Env, RateLimiter};

use crate::platform::db::{self, D1Database, D1PreparedStatement, query};

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

/// The longest subject a counter keeps (an e-mail address's longest).
const MAX_SUBJECT_CHARS: usize = 254;

/// Lead submissions per IPv6 /64: one home's, or one phone's, network.
pub const LEAD_SUBMISSIONS: Limit = Limit {
    name: "lead",
    max: 10,
    window_ms: 10 * 60 * 1000,
    binding: Some("LEAD_RATE_LIMITER"),
};

/// Lead submissions per IPv4 address. Mobile carriers put many phones
/// behind one (carrier-grade NAT): on a campaign's evening, visitors who
/// never met share it, and the eleventh of them must not be turned away.
pub const LEAD_SUBMISSIONS_SHARED: Limit = Limit {
    max: 30,
    ..LEAD_SUBMISSIONS
};

/// The lead limit of a network as [`network_of`] names it: an IPv4 address
/// is shared, anything else (an IPv6 /64) is one household's.
pub fn lead_limit(network: &str) -> &'static Limit {
    if network.parse::<std::net::Ipv4Addr>().is_ok() {
        &LEAD_SUBMISSIONS_SHARED
    } else {
        &LEAD_SUBMISSIONS
    }
}

impl Limit {
    /// The counter's key. A subject is cut to the longest e-mail address
    /// (254 characters): a sign-in with a made-up "address" of kilobytes
    /// still writes a short row.
    pub fn key(&self, subject: &str) -> String {
        let subject: String = subject.chars().take(MAX_SUBJECT_CHARS).collect();
        format!("{}:{}", self.name, subject)
    }

    pub fn window_start(&self, now_ms: i64) -> i64 {
        now_ms - now_ms.rem_euclid(self.window_ms)
    }

    /// Whether an event that brought the count to `count` is within the limit.
    pub fn allows(&self, count: i64) -> bool {
        count <= self.max
    }

    /// This limit with its `max` from the setting `name`, if it is set to a
    /// whole number above zero; anything else keeps the default, and says so.
    pub fn configured(self, env: &Env, name: &str) -> Self {
        let Some(value) = crate::platform::config::setting(env, name) else {
            return self;
        };
        match positive(&value) {
            Some(max) => Self { max, ..self },
            None => {
                worker::console_warn!(
                    "{name}={value:?} is not a whole number above zero; the limit stays {}",
                    self.max
                );
                self
            }
        }
    }
}

const MINUTE_MS: i64 = 60 * 1000;

/// Sign-ups per address (each sends an e-mail): what stops anyone scanning
/// for accounts in bulk.
pub const SIGNUPS: Limit = Limit {
    name: "signup",
    max: 10,
    window_ms: 60 * MINUTE_MS,
    binding: None,
};

/// Sign-ups from everywhere together, per hour and per day. Each new address
/// at the agency's domain is a confirmation e-mail, and one to a mailbox that
/// does not exist bounces: a stranger rotating addresses could otherwise make
/// the site send thousands, and an e-mail API that sees many bounces stops
/// sending for the account, leads' notices and delivery alerts included.
/// A team signs up a few people at a time, far below either; a team that
/// needs more sets `STAFF_SIGNUPS_PER_HOUR` / `STAFF_SIGNUPS_PER_DAY`.
pub const SIGNUPS_ALL_HOUR: Limit = Limit {
    name: "signup-all-hour",
    max: 20,
    window_ms: 60 * MINUTE_MS,
    binding: None,
};

pub const SIGNUPS_ALL_DAY: Limit = Limit {
    name: "signup-all-day",
    max: 60,
    window_ms: 24 * 60 * MINUTE_MS,
    binding: None,
};

/// The subject the site-wide limits count under.
pub const EVERYONE: &str = "site";

fn positive(value: &str) -> Option<i64> {
    value.parse::<i64>().ok().filter(|n| *n > 0)
}

/// Sign-up e-mails per staff address, so nobody can flood a colleague's inbox.
pub const SIGNUPS_PER_EMAIL: Limit = Limit {
    name: "signup-email",
    max: 3,
    window_ms: 60 * MINUTE_MS,
    binding: None,
};

/// Password checks per e-mail address from devices that never signed in to
/// that account. Counted before the check, given back when it succeeds.
pub const LOGIN_FAILURES_PER_EMAIL: Limit = Limit {
    name: "login-email",
    max: 5,
    window_ms: 15 * MINUTE_MS,
    binding: None,
};

/// Guesses at the current password through 'Alterar senha', per session: a
/// stolen access token finds nothing, and strangers' sign-ins, counted per
/// address, never keep the signed-in person from changing it.
pub const PASSWORD_CHANGE_TRIES: Limit = Limit {
    name: "password-change",
    max: 5,
    window_ms: 15 * MINUTE_MS,
    binding: None,
};

/// Password checks from a device that signed in to the account before (its
/// own counter, so a stranger's failures never lock the owner's device out).
pub const LOGIN_FAILURES_PER_DEVICE: Limit = Limit {
    name: "login-device",
    max: 5,
    window_ms: 15 * MINUTE_MS,
    binding: None,
};

/// Password checks from all the devices an account knows, together: someone
/// who once had the password and kept many devices' cookies still gets few
/// guesses at a new one.
pub const LOGIN_FAILURES_PER_ACCOUNT_DEVICES: Limit = Limit {
    name: "login-devices",
    max: 20,
    window_ms: 15 * MINUTE_MS,
    binding: None,
};

/// Password checks per address (an office shares one: a little more room).
/// The binding can only count and check in one call, so with it every
/// sign-in attempt from the address counts, not just the failures.
pub const LOGIN_FAILURES_PER_IP: Limit = Limit {
    name: "login-ip",
    max: 10,
    window_ms: 15 * MINUTE_MS,
    binding: Some("SIGN_IN_RATE_LIMITER"),
};

/// 'Esqueci minha senha' requests per address.
pub const RESET_REQUESTS_PER_IP: Limit = Limit {
    name: "reset-ip",
    max: 5,
    window_ms: 60 * MINUTE_MS,
    binding: None,
};

/// 'Esqueci minha senha' requests per e-mail address typed (known or not).
pub const RESET_REQUESTS_PER_EMAIL: Limit = Limit {
    name: "reset-email",
    max: 3,
    window_ms: 60 * MINUTE_MS,
    binding: None,
};

/// Wrong passwords typed on one confirmation link before it stops working.
pub const CONFIRMATION_TRIES: Limit = Limit {
    name: "confirm",
    max: 5,
    window_ms: 24 * 60 * MINUTE_MS,
    binding: None,
};

/// The subject per-address limits count: an IPv4 address as it is, an IPv6
/// address by its /64 network (one customer's allocation); anything else as given.
pub fn network_of(ip: &str) -> String {
    match ip.trim().parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Ok(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{}/64", Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        Err(_) => ip.trim().to_string(),
    }
}

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
    /// An absent or unusable binding (not a Rate Limiting one) falls back to
    /// D1: the limit is never silently off.
    pub fn for_limit(env: &Env, limit: &Limit) -> Self {
        match limit.binding.map(|name| env.rate_limiter(name)) {
            Some(Ok(limiter)) => Counter::Binding(limiter),
            _ => Counter::D1,
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

/// How a count is taken: one more in the subject's current window, or a new
/// window at 1 when the stored one is over; the count comes back as `count`.
macro_rules! count_one {
    () => {
        "ON CONFLICT (key) DO UPDATE SET \
           count = CASE WHEN rate_limits.window_start = excluded.window_start \
                        THEN rate_limits.count + 1 ELSE 1 END, \
           window_start = excluded.window_start \
         RETURNING count"
    };
}

/// Counts one event in the subject's current window (starting a new window
/// when the stored one is over) and returns the count as `count`.
pub const HIT_SQL: &str = concat!(
    "INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1) ",
    count_one!()
);

pub fn hit(db: &D1Database, limit: &Limit, subject: &str, now_ms: i64) -> D1PreparedStatement {
    query!(db, HIT_SQL, limit.key(subject), limit.window_start(now_ms))
}

/// [`HIT_SQL`], only while the gate's counter (`?3`, window `?4`) is at most
/// `?5`; otherwise nothing is counted or written and no row comes back.
pub const HIT_WITHIN_SQL: &str = concat!(
    "INSERT INTO rate_limits (key, window_start, count) SELECT ?1, ?2, 1 \
     WHERE NOT EXISTS (SELECT 1 FROM rate_limits WHERE key = ?3 AND window_start = ?4 AND count > ?5) ",
    count_one!()
);

/// Counts one event like [`hit`], but only while the request is within
/// `gate` (an address's limit, hit earlier in the same batch). A request its
/// address is already refused for, and is refused for first, then uses up no
/// one else's allowance (a colleague's e-mail, the whole site's sign-ups)
/// and adds no row: one address cannot pause everyone, nor write a counter
/// per made-up e-mail.
pub fn hit_within(
    db: &D1Database,
    limit: &Limit,
    subject: &str,
    now_ms: i64,
    (gate, gate_subject): (&Limit, &str),
) -> D1PreparedStatement {
    query!(
        db,
        HIT_WITHIN_SQL,
        limit.key(subject),
        limit.window_start(now_ms),
        gate.key(gate_subject),
        gate.window_start(now_ms),
        gate.max
    )
}

/// Counts `?3` events at once for `?1` (window `?2`), only while the count
/// stays within `?5` and only if the counter `?4` has no row in its window
/// `?6` (something already paid for this window is free); the count comes
/// back as `count`, or no row when nothing was counted.
const CHARGE_SQL: &str = "INSERT INTO rate_limits (key, window_start, count) SELECT ?1, ?2, ?3 \
     WHERE NOT EXISTS (SELECT 1 FROM rate_limits WHERE key = ?4 AND window_start = ?6) \
       AND coalesce((SELECT count FROM rate_limits WHERE key = ?1 AND window_start = ?2), 0) + ?3 <= ?5 \
     ON CONFLICT (key) DO UPDATE SET \
       count = CASE WHEN rate_limits.window_start = excluded.window_start \
                    THEN rate_limits.count + excluded.count ELSE excluded.count END, \
       window_start = excluded.window_start \
     RETURNING count";

/// Counts `cost` events for `subject` in one go, if they fit in `limit` and
/// unless `paid` (a limit and its subject) already has a row in its current
/// window: what was counted once this window is not counted again.
pub fn charge(
    db: &D1Database,
    limit: &Limit,
    subject: &str,
    cost: i64,
    now_ms: i64,
    (paid, paid_subject): (&Limit, &str),
) -> D1PreparedStatement {
    query!(
        db,
        CHARGE_SQL,
        limit.key(subject),
        limit.window_start(now_ms),
        cost,
        paid.key(paid_subject),
        limit.max,
        paid.window_start(now_ms)
    )
}

const SEEN_SQL: &str = "SELECT 1 AS seen FROM rate_limits WHERE key = ?1 AND window_start = ?2";

/// A row if `subject` has a counter in `limit`'s current window.
pub fn seen(db: &D1Database, limit: &Limit, subject: &str, now_ms: i64) -> D1PreparedStatement {
    query!(db, SEEN_SQL, limit.key(subject), limit.window_start(now_ms))
}

const GIVE_BACK_SQL: &str = "UPDATE rate_limits SET count = max(count - ?3, 0) \
     WHERE key = ?1 AND window_start = ?2";

/// Takes back `n` events of the window that opened at `window_start` (none
/// once another window opened).
pub fn give_back(
    db: &D1Database,
    limit: &Limit,
    subject: &str,
    n: i64,
    window_start: i64,
) -> D1PreparedStatement {
    query!(db, GIVE_BACK_SQL, limit.key(subject), window_start, n)
}

/// Takes back one event of the current window: a sign-in that succeeded
/// does not use up the allowance it was counted against.
const REFUND_SQL: &str = "UPDATE rate_limits SET count = max(count - 1, 0) \
     WHERE key = ?1 AND window_start = ?2";

pub fn refund(db: &D1Database, limit: &Limit, subject: &str, now_ms: i64) -> D1PreparedStatement {
    query!(
        db,
        REFUND_SQL,
        limit.key(subject),
        limit.window_start(now_ms)
    )
}

#[derive(Deserialize)]
pub struct CountRow {
    pub count: i64,
}

/// A hit pushed to a batch: the count it returned is read with [`counted`].
pub type Hit = db::Handle<CountRow>;

/// The count `hit` returned; 0 when it counted nothing (a [`hit_within`]
/// its gate stopped).
pub fn counted(results: &db::Results, hit: Hit) -> worker::Result<i64> {
    Ok(results.first(hit)?.map_or(0, |r| r.count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_setting_is_taken_only_as_a_whole_number_above_zero() {
        assert_eq!(positive("45"), Some(45));
        for refused in ["0", "-3", "2.5", "vinte", "1e3", ""] {
            assert_eq!(positive(refused), None, "{refused}");
        }
    }

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
    fn an_ipv6_address_is_counted_by_its_slash_64() {
        assert_eq!(network_of("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        assert_eq!(network_of("2001:db8:1:2:ffff::1"), "2001:db8:1:2::/64");
        assert_ne!(network_of("2001:db8:1:3::1"), network_of("2001:db8:1:2::1"));
        assert_eq!(network_of(" 2001:DB8:0:0:1::1 "), "2001:db8::/64");
    }

    #[test]
    fn an_ipv4_address_is_counted_as_itself_even_when_mapped_into_ipv6() {
        assert_eq!(network_of("203.0.113.9"), "203.0.113.9");
        assert_eq!(network_of("::ffff:203.0.113.9"), "203.0.113.9");
        assert_eq!(network_of("unknown"), "unknown");
    }

    #[test]
    fn the_bindings_the_worker_looks_for_are_the_ones_wrangler_toml_documents() {
        let wrangler = include_str!("../../../wrangler.toml");
        for limit in [LEAD_SUBMISSIONS, LOGIN_FAILURES_PER_IP] {
            let name = limit.binding.expect("per-IP limits name a binding");
            assert!(
                wrangler.contains(&format!("name = \"{name}\"")),
                "wrangler.toml does not document the {name} binding"
            );
        }
    }

    #[test]
    fn an_ipv4_address_shared_by_a_carrier_takes_more_leads_than_an_ipv6_network() {
        assert_eq!(lead_limit(&network_of("203.0.113.9")).max, 30);
        assert_eq!(lead_limit(&network_of("::ffff:203.0.113.9")).max, 30);
        assert_eq!(lead_limit(&network_of("2001:db8:1:2::9")).max, 10);
        assert_eq!(lead_limit(&network_of("unknown")).max, 10);
        assert_eq!(
            lead_limit("203.0.113.9").key("203.0.113.9"),
            "lead:203.0.113.9"
        );
    }

    #[test]
    fn the_limit_allows_exactly_max_events() {
        assert!(LEAD_SUBMISSIONS.allows(10));
        assert!(!LEAD_SUBMISSIONS.allows(11));
        assert_eq!(LEAD_SUBMISSIONS.key("203.0.113.9"), "lead:203.0.113.9");
    }
}
