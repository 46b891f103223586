//! Visits counted at the edge: each arrival at a public page from outside
//! the site adds one to a counter of its Brasília day and the report's line
//! (source, campaign, ad). The worker counts after it has answered the page
//! (`wait_until`), so counting never delays the page and its failure never
//! fails it. No address, browser or identifier is kept: the counter's key is
//! the day and the line, and the `User-Agent` and the referrer are only read.
//!
//! Nobody can blind the report: a visit's keyword, medium and referrer's
//! host make no line of their own; one network (an IPv4 /24, an IPv6 /48)
//! makes at most [`NEW_KEYS_PER_NETWORK`] new lines a day and has at most
//! [`VISITS_PER_NETWORK`] visits counted; a line seen before always counts.
//! A network is known for its day only, by a keyed hash of the day and the
//! network ([`NetworkMark`]), which the cron removes once the day is over.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use hmac::Mac;
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::attribution::{self, Arrival, SHORT_FIELD_MAX, Source};
use crate::formats::dates::Day;
use crate::platform::db::{self, D1Database};
use crate::platform::signing;

/// The pages a visitor arrives at: the landing and the privacy notice. The
/// form's result pages are reached from the site itself.
const PUBLIC_PAGES: [&str; 2] = ["/", "/privacidade"];

/// Distinct keys (report lines) a day may make before its new ones go
/// under [`OVERFLOW`]: an address bar can carry any `utm_campaign`, and a
/// flood of made-up ones must not grow the report without end. A launch runs
/// a few dozen campaigns and ads; 500 leaves room for every one of them and
/// for every site that links to it.
pub const KEYS_PER_DAY: i64 = 500;

/// New keys one network may make in a day. A person opens the links of the
/// few ads they saw; the agency's office, trying a new campaign's links
/// before it starts, opens a few dozen at most, and a line seen once (from
/// any network) needs no room again. 20 lets a flood from one network spend
/// 4% of the day's room: 25 networks are needed to fill it, and even then
/// the lines seen before keep counting.
pub const NEW_KEYS_PER_NETWORK: i64 = 20;

/// Visits one network may have counted in a day; past them its visits are
/// not counted (the report says how many). One person, household or office
/// opens the site a few times a day; a carrier that puts many phones behind
/// one address (carrier-grade NAT) rarely sends one launch's site more than
/// a few dozen from one /24. 200 keeps all of those, and one address that
/// poses as a browser adds at most 200 visits a day to a line.
pub const VISITS_PER_NETWORK: i64 = 200;

/// A key counted on one of this many days before keeps counting under its
/// own name however full the day is: a campaign that was running stays on
/// its line through a flood.
pub const SEEN_WITHIN_DAYS: i64 = 30;

/// Where a visit that may not make a new key is counted.
pub const OVERFLOW: &str = "(outras)";

/// A page request, as far as counting it goes.
#[derive(Debug, Clone, Copy, Default)]
pub struct PageView<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// The status the page was answered with.
    pub status: u16,
    /// The query's `name=value` pairs, decoded.
    pub query: &'a [(String, String)],
    /// `scheme://host[:port]` of the site.
    pub origin: &'a str,
    pub host: &'a str,
    pub user_agent: Option<&'a str>,
    pub referer: Option<&'a str>,
    /// `Sec-Purpose`, `Purpose`, `X-Purpose` or `X-Moz`: a prefetch or preview.
    pub purpose: Option<&'a str>,
    pub sec_fetch_dest: Option<&'a str>,
    pub sec_fetch_mode: Option<&'a str>,
}

/// One visit's counter key: the day and the report's line (source,
/// campaign, ad), empty text for a campaign field it did not carry. Its
/// medium, keyword and referrer's host are not kept: the report does not
/// show them, and they must not spend the day's keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Visit {
    pub day: String,
    pub source: String,
    pub campaign: String,
    pub content: String,
}

/// Robots and previews that say so in their `User-Agent`, in lower case.
/// Anything that does not present itself as a browser (`Mozilla/`) is not
/// counted either: curl, scripts, link-preview fetchers of chat apps.
const ROBOT_MARKS: [&str; 16] = [
    "bot",
    "crawl",
    "spider",
    "slurp",
    "facebookexternalhit",
    "facebookcatalog",
    "whatsapp",
    "telegram",
    "preview",
    "headless",
    "lighthouse",
    "pagespeed",
    "phantomjs",
    "prerender",
    "monitor",
    "uptime",
];

/// Whether `user_agent` is a robot's, a preview's or nobody's.
pub fn is_robot(user_agent: Option<&str>) -> bool {
    let Some(agent) = user_agent.map(str::to_ascii_lowercase) else {
        return true;
    };
    !agent.contains("mozilla/") || ROBOT_MARKS.iter().any(|mark| agent.contains(mark))
}

impl PageView<'_> {
    fn param(&self, name: &str) -> Option<String> {
        let value = self
            .query
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone());
        attribution::clean(value, SHORT_FIELD_MAX)
    }

    /// Whether a person's browser opened the page: a GET of the page itself
    /// (not a prefetch, a preview or a script's fetch) answered with it.
    fn is_a_persons_view(&self) -> bool {
        let prefetch = self
            .purpose
            .is_some_and(|p| p.to_ascii_lowercase().contains("prefetch") || p.contains("preview"));
        self.method == "GET"
            && PUBLIC_PAGES.contains(&self.path)
            && matches!(self.status, 200 | 304)
            && !prefetch
            && self.sec_fetch_dest.is_none_or(|d| d == "document")
            && self.sec_fetch_mode.is_none_or(|m| m == "navigate")
            && !is_robot(self.user_agent)
    }

    /// Whether the visitor came from another page of the site (a link, the
    /// logo, a form's result): a move within a visit already counted.
    fn moves_within_the_site(&self) -> bool {
        self.referer.is_some_and(|r| {
            r.strip_prefix(self.origin)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
        })
    }

    /// The visit this view counts as, on `day`; none when it does not count.
    pub fn visit(&self, day: Day) -> Option<Visit> {
        if !self.is_a_persons_view() || self.moves_within_the_site() {
            return None;
        }
        let utm_source = self.param("utm_source");
        let gclid = self.param("gclid");
        let fbclid = self.param("fbclid");
        let source = Source::of(
            &Arrival {
                utm_source: utm_source.as_deref(),
                gclid: gclid.as_deref(),
                fbclid: fbclid.as_deref(),
                referrer: self.referer,
                user_agent: self.user_agent,
            },
            self.host,
        );
        // A link that names the overflow as its source would pass as it.
        if source.name == OVERFLOW {
            return None;
        }
        let field = |name: &str| self.param(name).unwrap_or_default();
        Some(Visit {
            day: day.to_string(),
            source: source.name,
            campaign: field("utm_campaign"),
            content: field("utm_content"),
        })
    }
}

/// The network a visitor's address belongs to, as the visit limits count
/// it: an IPv4 /24 (`203.0.113.0/24`), an IPv6 /48 (`2001:db8:1::/48`); an
/// IPv4 address mapped into IPv6 is IPv4. Wider than the lead form's
/// (`rate_limit::network_of`): a made-up link costs its sender nothing, and
/// anyone who holds one address can usually pick from its /24 or its /48.
/// Anything that is not an address is its own network, as given.
pub fn network_of(ip: &str) -> String {
    match ip.trim().parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => slash_24(v4),
        Ok(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => slash_24(v4),
            None => {
                let s = v6.segments();
                format!("{}/48", Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0))
            }
        },
        Err(_) => ip.trim().to_string(),
    }
}

fn slash_24(v4: Ipv4Addr) -> String {
    let [a, b, c, _] = v4.octets();
    format!("{a}.{b}.{c}.0/24")
}

/// A network as the counters know it for one day: an HMAC-SHA256, under the
/// worker's key, of the day and the network, cut to 128 bits. The same
/// network reads as another mark the next day, and the mark cannot be
/// turned back into the network without the key; the rows go once the day
/// is over (`platform/retention.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkMark(String);

impl NetworkMark {
    /// The mark of `ip`'s network on `day`. Without a key (`JWT_SECRET`
    /// unset, a development setup) the mark is still made, with an empty
    /// key: the limits hold, and the rows still go with the day.
    pub fn of(key: Option<&str>, day: &str, ip: &str) -> Self {
        let mut mac = signing::keyed_mac(key.unwrap_or_default(), b"visit-network");
        mac.update(day.as_bytes());
        mac.update(b"\0");
        mac.update(network_of(ip).as_bytes());
        let digest = mac.finalize().into_bytes();
        Self(signing::hex(&digest[..16]))
    }
}

/// The parameters every statement of [`count`] is written with.
/// `?1` day, `?2` source, `?3` campaign, `?4` ad: the key.
macro_rules! key {
    () => {
        "day = ?1 AND source = ?2 AND campaign = ?3 AND content = ?4"
    };
}
/// `?5` the network's mark, `?6` [`VISITS_PER_NETWORK`]: whether the
/// network's visits today (this one counted in first) are within its limit.
macro_rules! within_network_visits {
    () => {
        "(SELECT visits FROM visit_networks WHERE day = ?1 AND network = ?5) <= ?6"
    };
}
/// `?10` the first day of the [`SEEN_WITHIN_DAYS`]: whether the key was
/// counted on an earlier day.
macro_rules! seen_before {
    () => {
        "EXISTS (SELECT 1 FROM visit_counts WHERE source = ?2 AND campaign = ?3 AND content = ?4 \
           AND day >= ?10 AND day < ?1)"
    };
}

/// The network's visits today, this one included.
const NETWORK_VISIT_SQL: &str = "INSERT INTO visit_networks (day, network, visits) VALUES (?1, ?5, 1) \
     ON CONFLICT (day, network) DO UPDATE SET visits = visits + 1";

/// A visit its network's limit leaves uncounted, counted as such.
const UNCOUNTED_SQL: &str = concat!(
    "INSERT INTO visits_uncounted (day, n) SELECT ?1, 1 WHERE NOT ",
    within_network_visits!(),
    " ON CONFLICT (day) DO UPDATE SET n = n + 1"
);

/// A key the day does not have yet, at 0, when it was seen before or when
/// both its network (`?7` [`NEW_KEYS_PER_NETWORK`]) and the day (`?8`
/// [`KEYS_PER_DAY`]) have room for a new one.
const NEW_KEY_SQL: &str = concat!(
    "INSERT INTO visit_counts (day, source, campaign, content, n) SELECT ?1, ?2, ?3, ?4, 0 \
     WHERE ",
    within_network_visits!(),
    " AND NOT EXISTS (SELECT 1 FROM visit_counts WHERE ",
    key!(),
    ") AND (",
    seen_before!(),
    " OR ((SELECT new_keys FROM visit_networks WHERE day = ?1 AND network = ?5) < ?7 \
           AND (SELECT count(*) FROM visit_counts WHERE day = ?1) < ?8))"
);

/// The new key just made (at 0), not seen before, is one of its network's.
const NETWORK_NEW_KEY_SQL: &str = concat!(
    "UPDATE visit_networks SET new_keys = new_keys + 1 WHERE day = ?1 AND network = ?5 \
     AND EXISTS (SELECT 1 FROM visit_counts WHERE ",
    key!(),
    " AND n = 0) AND NOT ",
    seen_before!()
);

/// The visit, on its own key (had or just made).
const ON_KEY_SQL: &str = concat!(
    "UPDATE visit_counts SET n = n + 1 WHERE ",
    key!(),
    " AND ",
    within_network_visits!()
);

/// The visit, on the day's `?9` [`OVERFLOW`] when its key was not made.
const ON_OVERFLOW_SQL: &str = concat!(
    "INSERT INTO visit_counts (day, source, campaign, content, n) SELECT ?1, ?9, '', '', 1 \
     WHERE ",
    within_network_visits!(),
    " AND NOT EXISTS (SELECT 1 FROM visit_counts WHERE ",
    key!(),
    ") ON CONFLICT (day, source, campaign, content) DO UPDATE SET n = n + 1"
);

/// The visit, on the report's row of its day, under the key it was counted by.
const ON_REPORT_SQL: &str = concat!(
    "WITH counted (own) AS (SELECT EXISTS (SELECT 1 FROM visit_counts WHERE ",
    key!(),
    ")) INSERT INTO campaign_daily (day, source, campaign, content, visits) \
     SELECT ?1, iif(own, ?2, ?9), iif(own, ?3, ''), iif(own, ?4, ''), 1 FROM counted WHERE ",
    within_network_visits!(),
    " ON CONFLICT (day, source, campaign, content) DO UPDATE SET visits = visits + 1"
);

/// The statements of [`count`], in order.
const COUNT_SQL: [&str; 7] = [
    NETWORK_VISIT_SQL,
    UNCOUNTED_SQL,
    NEW_KEY_SQL,
    NETWORK_NEW_KEY_SQL,
    ON_KEY_SQL,
    ON_OVERFLOW_SQL,
    ON_REPORT_SQL,
];

/// Counts one visit from `network` in one batch, one transaction: the
/// network's visits first; past its [`VISITS_PER_NETWORK`] nothing else but
/// that it went uncounted. Else on its own key: one the day has; one seen on
/// an earlier day ([`SEEN_WITHIN_DAYS`]); or a new one while its network
/// and the day have room. Else on the day's [`OVERFLOW`]. Each statement
/// applies only where the ones before left it to, so a visit is counted
/// once, whatever other isolates count at the same time, and the limits
/// are decided in the batch that counts. The last adds it to the report's
/// row of its day and line (`campaign_daily`), under the key it was
/// counted by.
pub async fn count(db: &D1Database, visit: &Visit, network: &NetworkMark) -> worker::Result<()> {
    let since = Day::parse(&visit.day)
        .map(|day| day.plus(-SEEN_WITHIN_DAYS).to_string())
        .unwrap_or_default();
    let params: [JsValue; 10] = [
        JsValue::from_str(&visit.day),
        JsValue::from_str(&visit.source),
        JsValue::from_str(&visit.campaign),
        JsValue::from_str(&visit.content),
        JsValue::from_str(&network.0),
        JsValue::from_f64(VISITS_PER_NETWORK as f64),
        JsValue::from_f64(NEW_KEYS_PER_NETWORK as f64),
        JsValue::from_f64(KEYS_PER_DAY as f64),
        JsValue::from_str(OVERFLOW),
        JsValue::from_str(&since),
    ];
    let statements = COUNT_SQL
        .iter()
        .map(|sql| db::bind(db, sql, &params[..highest_parameter(sql)]))
        .collect();
    db::batch(db, statements).await?;
    Ok(())
}

/// The highest `?N` in `sql`: how many values it takes (D1 wants exactly
/// as many as the statement numbers).
fn highest_parameter(sql: &str) -> usize {
    sql.split('?')
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHROME: &str = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 \
                          (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

    fn view<'a>(query: &'a [(String, String)]) -> PageView<'a> {
        PageView {
            method: "GET",
            path: "/",
            status: 200,
            query,
            origin: "https://recantodasvideiras.com.br",
            host: "recantodasvideiras.com.br",
            user_agent: Some(CHROME),
            ..PageView::default()
        }
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn day() -> Day {
        Day::parse("2026-11-26").unwrap()
    }

    #[test]
    fn a_campaigns_visit_is_counted_under_its_source_campaign_and_ad_only() {
        let query = pairs(&[
            ("utm_source", "instagram"),
            ("utm_medium", "paid"),
            ("utm_campaign", " lancamento "),
            ("utm_content", "video-1"),
            ("utm_term", "casa na serra"),
            ("gclid", "abc"),
        ]);
        let visit = Visit {
            day: "2026-11-26".into(),
            source: "Instagram".into(),
            campaign: "lancamento".into(),
            content: "video-1".into(),
        };
        assert_eq!(view(&query).visit(day()), Some(visit.clone()));
        // Another keyword or medium, or another spelling of the source, is the same line.
        let other = pairs(&[
            ("utm_source", "IG"),
            ("utm_medium", "cpc"),
            ("utm_campaign", "lancamento"),
            ("utm_content", "video-1"),
            ("utm_term", "0.123456789"),
        ]);
        assert_eq!(view(&other).visit(day()), Some(visit));
    }

    #[test]
    fn a_visit_without_utm_counts_under_where_it_came_from() {
        let none = pairs(&[]);
        let from = |referer: Option<&'static str>| {
            let mut v = view(&none);
            v.referer = referer;
            v.visit(day()).map(|v| v.source)
        };
        assert_eq!(
            from(Some("https://l.instagram.com/")),
            Some("Instagram".into())
        );
        assert_eq!(
            from(Some("android-app://com.whatsapp/")),
            Some("WhatsApp".into())
        );
        assert_eq!(
            from(Some("https://www.blogdovinho.com.br/post")),
            Some("blogdovinho.com.br".into())
        );
        assert_eq!(from(None), Some("Direto".into()));
    }

    #[test]
    fn a_link_that_names_the_overflow_as_its_source_is_not_counted() {
        let query = pairs(&[("utm_source", OVERFLOW)]);
        assert_eq!(view(&query).visit(day()), None);
    }

    #[test]
    fn a_network_is_an_ipv4_slash_24_or_an_ipv6_slash_48() {
        assert_eq!(network_of("203.0.113.9"), "203.0.113.0/24");
        assert_eq!(network_of("203.0.113.250"), network_of("203.0.113.9"));
        assert_ne!(network_of("203.0.114.9"), network_of("203.0.113.9"));
        assert_eq!(network_of("::ffff:203.0.113.9"), "203.0.113.0/24");
        assert_eq!(network_of("2001:db8:1:2:3:4:5:6"), "2001:db8:1::/48");
        assert_eq!(network_of("2001:db8:1:ffff::1"), "2001:db8:1::/48");
        assert_ne!(network_of("2001:db8:2::1"), network_of("2001:db8:1::1"));
        assert_eq!(network_of(" 2001:DB8:0:1::1 "), "2001:db8::/48");
        assert_eq!(network_of("unknown"), "unknown");
    }

    #[test]
    fn a_networks_mark_is_the_days_and_says_nothing_of_the_address() {
        let key = Some("a-signing-key-of-at-least-32-bytes-long");
        let mark = |day: &str, ip: &str| NetworkMark::of(key, day, ip).0;
        let today = mark("2026-11-26", "203.0.113.9");
        assert_eq!(today.len(), 32);
        assert!(today.bytes().all(|b| b.is_ascii_hexdigit()));
        assert!(!today.contains("203"));
        assert_eq!(mark("2026-11-26", "203.0.113.200"), today);
        assert_ne!(mark("2026-11-27", "203.0.113.9"), today);
        assert_ne!(mark("2026-11-26", "203.0.114.9"), today);
        assert_ne!(
            NetworkMark::of(
                Some("another-key-of-at-least-32-bytes!!"),
                "2026-11-26",
                "203.0.113.9"
            )
            .0,
            today
        );
    }

    #[test]
    fn each_statement_takes_exactly_the_parameters_it_numbers() {
        assert_eq!(highest_parameter(NETWORK_VISIT_SQL), 5);
        assert_eq!(highest_parameter(UNCOUNTED_SQL), 6);
        assert_eq!(highest_parameter(NEW_KEY_SQL), 10);
        assert_eq!(highest_parameter(NETWORK_NEW_KEY_SQL), 10);
        assert_eq!(highest_parameter(ON_KEY_SQL), 6);
        assert_eq!(highest_parameter(ON_OVERFLOW_SQL), 9);
        assert_eq!(highest_parameter(ON_REPORT_SQL), 9);
        assert_eq!(highest_parameter("SELECT 1"), 0);
    }

    #[test]
    fn a_move_within_the_site_is_not_a_new_visit() {
        let none = pairs(&[]);
        let mut v = view(&none);
        for referer in [
            "https://recantodasvideiras.com.br/privacidade",
            "https://recantodasvideiras.com.br",
            "https://recantodasvideiras.com.br/?utm_source=x",
        ] {
            v.referer = Some(referer);
            assert_eq!(v.visit(day()), None, "{referer}");
        }
        // Only the same origin: a look-alike host is another site.
        v.referer = Some("https://recantodasvideiras.com.br.evil.example/");
        assert!(v.visit(day()).is_some());
    }

    #[test]
    fn robots_previews_prefetches_and_other_requests_are_not_counted() {
        let none = pairs(&[]);
        let counted = |change: &dyn Fn(&mut PageView)| {
            let mut v = view(&none);
            change(&mut v);
            v.visit(day()).is_some()
        };
        assert!(counted(&|_| {}));
        for agent in [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            "WhatsApp/2.23.20.0 A",
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 HeadlessChrome/131.0.0.0 Safari/537.36",
            "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) Chrome-Lighthouse",
            "curl/8.5.0",
            "",
        ] {
            assert!(!counted(&|v| v.user_agent = Some(agent)), "{agent}");
        }
        assert!(!counted(&|v| v.user_agent = None));
        assert!(!counted(&|v| v.method = "HEAD"));
        assert!(!counted(&|v| v.purpose = Some("prefetch;prerender")));
        assert!(!counted(&|v| v.purpose = Some("preview")));
        assert!(!counted(&|v| v.sec_fetch_dest = Some("empty")));
        assert!(!counted(&|v| v.sec_fetch_mode = Some("cors")));
        assert!(!counted(&|v| v.status = 404));
        assert!(!counted(&|v| v.path = "/obrigado"));
        assert!(!counted(&|v| v.path = "/admin"));
        assert!(counted(&|v| v.path = "/privacidade"));
        assert!(counted(&|v| v.status = 304));
        assert!(counted(&|v| v.sec_fetch_dest = Some("document")));
    }
}
