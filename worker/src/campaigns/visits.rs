//! Visits counted at the edge: each arrival at a public page from outside
//! the site adds one to a counter of its Brasília day and where it came
//! from. The worker counts after it has answered the page (`wait_until`),
//! so counting never delays the page and its failure never fails it. No
//! address, browser or identifier is kept: the counter's key is the day and
//! the campaign, and the `User-Agent` and the referrer are only read.

use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::attribution::{self, Arrival, SHORT_FIELD_MAX, Source};
use crate::dates::Day;
use crate::db::{self, D1Database};

/// The pages a visitor arrives at: the landing and the privacy notice. The
/// form's result pages are reached from the site itself.
const PUBLIC_PAGES: [&str; 2] = ["/", "/privacidade"];

/// Distinct keys a day may add before its visits go under [`OVERFLOW`]: an
/// address bar can carry any `utm_campaign`, and a flood of made-up ones
/// must not grow the report without end.
pub const KEYS_PER_DAY: i64 = 500;
/// Where a day's visits past [`KEYS_PER_DAY`] keys are counted.
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

/// One visit's counter key: the day and where it came from, empty text for
/// a campaign field it did not carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Visit {
    pub day: String,
    pub source: String,
    pub medium: String,
    pub campaign: String,
    pub content: String,
    pub term: String,
    pub referrer_host: String,
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
        let field = |name: &str| self.param(name).unwrap_or_default();
        Some(Visit {
            day: day.to_string(),
            source: source.name,
            medium: field("utm_medium"),
            campaign: field("utm_campaign"),
            content: field("utm_content"),
            term: field("utm_term"),
            referrer_host: source.referrer_host.unwrap_or_default(),
        })
    }
}

/// The key's columns, `?1`…`?7`.
const KEY: &str = "day = ?1 AND source = ?2 AND medium = ?3 AND campaign = ?4 \
     AND content = ?5 AND term = ?6 AND referrer_host = ?7";

/// Adds one to the visit's counter in one batch, one transaction: its row
/// if it has one; else a new row while the day has fewer than
/// [`KEYS_PER_DAY`]; else the day's [`OVERFLOW`] row. Each statement applies
/// only where the one before did not, so a visit is counted once, whatever
/// other isolates count at the same time. The last adds it to the report's
/// row of its day and campaign (`campaign_daily`), under the key it was
/// counted by.
pub async fn count(db: &D1Database, visit: &Visit) -> worker::Result<()> {
    let key: Vec<JsValue> = [
        &visit.day,
        &visit.source,
        &visit.medium,
        &visit.campaign,
        &visit.content,
        &visit.term,
        &visit.referrer_host,
    ]
    .into_iter()
    .map(|v| JsValue::from_str(v))
    .collect();
    let mut with_limit = key.clone();
    with_limit.push(JsValue::from_f64(KEYS_PER_DAY as f64));
    let mut with_overflow = key.clone();
    with_overflow.push(JsValue::from_str(OVERFLOW));
    db::batch(db, vec![
        db.prepare(format!("UPDATE visit_counts SET n = n + 1 WHERE {KEY}"))
            .bind(&key)?,
        db.prepare(format!(
            "INSERT INTO visit_counts (day, source, medium, campaign, content, term, referrer_host, n) \
             SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, 1 \
             WHERE NOT EXISTS (SELECT 1 FROM visit_counts WHERE {KEY}) \
               AND (SELECT count(*) FROM visit_counts WHERE day = ?1) < ?8"
        ))
        .bind(&with_limit)?,
        db.prepare(format!(
            "INSERT INTO visit_counts (day, source, medium, campaign, content, term, referrer_host, n) \
             SELECT ?1, ?8, '', '', '', '', '', 1 \
             WHERE NOT EXISTS (SELECT 1 FROM visit_counts WHERE {KEY}) \
             ON CONFLICT (day, source, medium, campaign, content, term, referrer_host) \
             DO UPDATE SET n = n + 1"
        ))
        .bind(&with_overflow)?,
        db.prepare(format!(
            "WITH counted (own) AS (SELECT EXISTS (SELECT 1 FROM visit_counts WHERE {KEY})) \
             INSERT INTO campaign_daily (day, source, campaign, content, visits) \
             SELECT ?1, iif(own, ?2, ?8), iif(own, ?4, ''), iif(own, ?5, ''), 1 FROM counted WHERE true \
             ON CONFLICT (day, source, campaign, content) DO UPDATE SET visits = visits + 1"
        ))
        .bind(&with_overflow)?,
    ])
    .await?;
    Ok(())
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
    fn a_campaigns_visit_is_counted_under_its_utm_fields() {
        let query = pairs(&[
            ("utm_source", "instagram"),
            ("utm_medium", "paid"),
            ("utm_campaign", " lancamento "),
            ("utm_content", "video-1"),
            ("utm_term", "casa na serra"),
            ("gclid", "abc"),
        ]);
        assert_eq!(
            view(&query).visit(day()),
            Some(Visit {
                day: "2026-11-26".into(),
                source: "instagram".into(),
                medium: "paid".into(),
                campaign: "lancamento".into(),
                content: "video-1".into(),
                term: "casa na serra".into(),
                referrer_host: String::new(),
            })
        );
    }

    #[test]
    fn a_visit_without_utm_counts_under_where_it_came_from() {
        let none = pairs(&[]);
        let from = |referer: Option<&'static str>| {
            let mut v = view(&none);
            v.referer = referer;
            v.visit(day()).map(|v| (v.source, v.referrer_host))
        };
        assert_eq!(
            from(Some("https://l.instagram.com/")),
            Some(("instagram".into(), "l.instagram.com".into()))
        );
        assert_eq!(
            from(Some("android-app://com.whatsapp/")),
            Some(("whatsapp".into(), "com.whatsapp".into()))
        );
        assert_eq!(from(None), Some(("direto".into(), String::new())));
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
