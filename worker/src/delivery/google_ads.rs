//! Google Ads' offline click conversions, fetched by Google Ads itself:
//! `GET /api/conversions/google-ads.csv` is the click conversion import file
//! of Google's template, for a scheduled upload from an HTTPS address with a
//! user and password (HTTP Basic). One row per lead of the last 90 days
//! whose page's address carried a Google click id: Google counts a click's
//! conversion once (its id, its conversion's name and time never change), so
//! serving the whole window every day is safe.
//!
//! ```text
//! Parameters:TimeZone=America/Sao_Paulo
//! Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency
//! Cj0KCQ…,Lead do site,2026-11-28 10:32:07,1,BRL
//! ```
//!
//! The clicks of Google's apps on iOS carry `gbraid` or `wbraid` instead of
//! `gclid`; `?braids=1` adds their columns (`GBRAID`, `WBRAID`) and rows, for
//! an account whose template lists them (docs/campaigns.md). Off unless
//! `GOOGLE_ADS_IMPORT_USER` and `GOOGLE_ADS_IMPORT_PASSWORD` are both set:
//! 401 then, as for a wrong or missing password (compared in constant time),
//! every request counted per address before the file is read.

use base64ct::{Base64, Encoding};
use hmac::Mac;
use serde::Deserialize;
use worker::{Env, Request, Response};

use crate::agency::messages;
use crate::delivery::disclosure::AdsDisclosure;
use crate::formats::dates;
use crate::http::rate_limit::{self, CountRow, Limit};
use crate::http::{self, ApiError, ApiResult, HeaderText};
use crate::platform::config::setting;
use crate::platform::db::{self, query};
use crate::platform::{self, config, signing};

/// How far back a click may be: Google imports no conversion more than 90
/// days after its click.
pub const WINDOW_MS: i64 = 90 * 24 * 60 * 60 * 1000;

/// Requests per address an hour, right password or wrong: Google fetches
/// once a day; this leaves room for the agency's tries, none for guessing.
pub const FETCHES: Limit = Limit {
    name: "google-ads-import",
    max: 30,
    window_ms: 60 * 60 * 1000,
    binding: None,
};

/// Where Google Ads fetches the file.
pub const PATH: &str = "/api/conversions/google-ads.csv";

const DEFAULT_CONVERSION_NAME: &str = "Lead do site";
const DEFAULT_CONVERSION_VALUE: &str = "1";
const CURRENCY: &str = "BRL";
/// The time zone of every Conversion Time (Brasília: no daylight saving since 2019).
const TIME_ZONE: &str = "America/Sao_Paulo";

/// The file's settings, when the import is on.
struct Settings {
    user: String,
    password: String,
    conversion_name: String,
    conversion_value: String,
}

impl Settings {
    fn from_env(env: &Env) -> Option<Self> {
        Some(Self {
            user: setting(env, "GOOGLE_ADS_IMPORT_USER")?,
            password: setting(env, "GOOGLE_ADS_IMPORT_PASSWORD")?,
            conversion_name: setting(env, "GOOGLE_ADS_CONVERSION_NAME")
                .unwrap_or_else(|| DEFAULT_CONVERSION_NAME.into()),
            conversion_value: setting(env, "GOOGLE_ADS_CONVERSION_VALUE")
                .unwrap_or_else(|| DEFAULT_CONVERSION_VALUE.into()),
        })
    }
}

/// What 'Campanhas' shows owners of the import, when it is on: the user
/// Google Ads signs in with and the conversion's name (the password stays
/// in the worker's secrets, where the owner set it).
#[derive(Debug, Clone, serde::Serialize)]
pub struct ImportAccount {
    pub path: &'static str,
    pub user: String,
    pub conversion_name: String,
}

pub fn import_account(env: &Env) -> Option<ImportAccount> {
    Settings::from_env(env).map(|s| ImportAccount {
        path: PATH,
        user: s.user,
        conversion_name: s.conversion_name,
    })
}

/// Whether `authorization` (the request's header) carries `user` and
/// `password`. Compared as HMACs of both under one key, in constant time:
/// how much of a guess was right never shows in how long the answer takes.
pub fn authorized(authorization: Option<&str>, user: &str, password: &str) -> bool {
    let Some(given) = authorization
        .and_then(|h| h.trim().strip_prefix("Basic "))
        .and_then(|b| Base64::decode_vec(b.trim()).ok())
    else {
        return false;
    };
    let expected = format!("{user}:{password}");
    let key = platform::random_bytes::<32>();
    let mac = |bytes: &[u8]| {
        let mut mac = signing::keyed_mac(&signing::hex(&key), b"google-ads-import");
        mac.update(bytes);
        mac
    };
    let tag = mac(expected.as_bytes()).finalize().into_bytes();
    mac(&given).verify_slice(&tag).is_ok()
}

/// A lead with a Google click, as the file lists it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Click {
    pub gclid: Option<String>,
    pub gbraid: Option<String>,
    pub wbraid: Option<String>,
    pub created_at: i64,
}

/// Within the address's limit (`?3`, `?4`), the leads since `?1` with a
/// Google click, oldest first; with `?2`, only those who ticked the ads'
/// consent box.
const CLICKS_SQL: &str = "SELECT gclid, gbraid, wbraid, created_at \
     FROM leads INDEXED BY leads_google_clicks \
     WHERE created_at >= ?1 AND (gclid IS NOT NULL OR gbraid IS NOT NULL OR wbraid IS NOT NULL) \
       AND (?2 = 0 OR ads_consent = 1) \
       AND (SELECT count FROM rate_limits WHERE key = ?3) <= ?4 \
     ORDER BY created_at";

/// A Conversion Time as the template writes it: `yyyy-MM-dd HH:mm:ss`, in
/// [`TIME_ZONE`] (the file's first line names it).
pub fn conversion_time(ms: i64) -> String {
    dates::iso_brasilia(ms)
        .chars()
        .take(19)
        .map(|c| if c == 'T' { ' ' } else { c })
        .collect()
}

/// One cell of a comma-separated file (RFC 4180): quoted when it holds a
/// comma, a quote or a line break.
fn cell(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// The file: its parameters line, its header and a row per click (with
/// `braids`, the iOS apps' click ids in their own columns, and their rows).
pub fn file(clicks: &[Click], name: &str, value: &str, braids: bool) -> String {
    let mut out = format!("Parameters:TimeZone={TIME_ZONE}\r\n");
    let header: &[&str] = if braids {
        &[
            "Google Click ID",
            "GBRAID",
            "WBRAID",
            "Conversion Name",
            "Conversion Time",
            "Conversion Value",
            "Conversion Currency",
        ]
    } else {
        &[
            "Google Click ID",
            "Conversion Name",
            "Conversion Time",
            "Conversion Value",
            "Conversion Currency",
        ]
    };
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for click in clicks {
        // A row carries one id: the gclid, else (listed with `braids`) a braid.
        let (gclid, gbraid, wbraid) = match (&click.gclid, &click.gbraid, &click.wbraid) {
            (Some(g), _, _) => (g.as_str(), "", ""),
            (None, Some(b), _) if braids => ("", b.as_str(), ""),
            (None, None, Some(w)) if braids => ("", "", w.as_str()),
            _ => continue,
        };
        let ids: Vec<&str> = if braids {
            vec![gclid, gbraid, wbraid]
        } else {
            vec![gclid]
        };
        let time = conversion_time(click.created_at);
        let row: Vec<String> = ids
            .into_iter()
            .chain([name, time.as_str(), value, CURRENCY])
            .map(cell)
            .collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

/// `GET /api/conversions/google-ads.csv[?braids=1]`.
pub async fn serve(req: &Request, env: &Env) -> ApiResult<Response> {
    let db = config::database(env)?;
    let now = platform::now_ms();
    let network = http::client_network(req);
    let hit = rate_limit::hit(&db, &FETCHES, &network, now);
    let settings = Settings::from_env(env);
    let authorization = req.header("Authorization");
    let allowed = settings
        .as_ref()
        .is_some_and(|s| authorized(authorization.as_deref(), &s.user, &s.password));
    let Some(settings) = settings.filter(|_| allowed) else {
        let mut batch = db::Batch::new();
        let hit = batch.push::<CountRow>(hit);
        let count = batch
            .run(&db)
            .await?
            .first(hit)?
            .map_or(i64::MAX, |r| r.count);
        if !FETCHES.allows(count) {
            return Err(ApiError::TooManyRequests(messages::TOO_MANY_FETCHES.into()));
        }
        let response = http::text(
            401,
            "text/plain; charset=utf-8",
            messages::GOOGLE_IMPORT_REFUSED,
        );
        response.headers().set(
            "WWW-Authenticate",
            "Basic realm=\"Google Ads\", charset=\"UTF-8\"",
        )?;
        return Ok(response);
    };
    let consent_only = i64::from(AdsDisclosure::from_env(env).asks_consent());
    let mut batch = db::Batch::new();
    let hit = batch.push::<CountRow>(hit);
    let clicks = batch.push::<Click>(query!(
        &db,
        CLICKS_SQL,
        now - WINDOW_MS,
        consent_only,
        FETCHES.key(&network),
        FETCHES.max
    ));
    let results = batch.run(&db).await?;
    let count = results.first(hit)?.map_or(i64::MAX, |r| r.count);
    if !FETCHES.allows(count) {
        return Err(ApiError::TooManyRequests(messages::TOO_MANY_FETCHES.into()));
    }
    let clicks = results.rows(clicks)?;
    let braids = req
        .url()?
        .query_pairs()
        .any(|(k, v)| k == "braids" && v == "1");
    let body = file(
        &clicks,
        &settings.conversion_name,
        &settings.conversion_value,
        braids,
    );
    let response = http::text(200, "text/csv; charset=utf-8", &body);
    response.headers().set(
        "Content-Disposition",
        "inline; filename=\"google-ads-conversoes.csv\"",
    )?;
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic(user: &str, password: &str) -> String {
        format!(
            "Basic {}",
            Base64::encode_string(format!("{user}:{password}").as_bytes())
        )
    }

    #[test]
    fn only_the_right_user_and_password_open_the_file() {
        assert!(authorized(
            Some(&basic("google", "s3nha:longa")),
            "google",
            "s3nha:longa"
        ));
        assert!(!authorized(
            Some(&basic("google", "errada")),
            "google",
            "s3nha:longa"
        ));
        assert!(!authorized(
            Some(&basic("outro", "s3nha:longa")),
            "google",
            "s3nha:longa"
        ));
        assert!(!authorized(None, "google", "s3nha:longa"));
        assert!(!authorized(Some("Bearer x"), "google", "s3nha:longa"));
        assert!(!authorized(Some("Basic ***"), "google", "s3nha:longa"));
    }

    #[test]
    fn a_conversion_time_is_brasilias_in_the_templates_form() {
        // 2026-01-01T00:00:00Z is 31 December 2025, 21:00 in Brasília.
        assert_eq!(conversion_time(1_767_225_600_000), "2025-12-31 21:00:00");
    }

    fn click(gclid: Option<&str>, gbraid: Option<&str>, wbraid: Option<&str>) -> Click {
        Click {
            gclid: gclid.map(Into::into),
            gbraid: gbraid.map(Into::into),
            wbraid: wbraid.map(Into::into),
            created_at: 1_767_225_600_000,
        }
    }

    #[test]
    fn the_file_is_googles_template_with_a_row_per_gclid() {
        let clicks = [
            click(Some("Cj0KCQ-a"), None, None),
            click(None, Some("0AAAA-b"), None),
            click(Some("Cj0KCQ-c"), Some("0AAAA-c"), None),
        ];
        assert_eq!(
            file(&clicks, "Lead do site", "1", false),
            "Parameters:TimeZone=America/Sao_Paulo\r\n\
             Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\r\n\
             Cj0KCQ-a,Lead do site,2025-12-31 21:00:00,1,BRL\r\n\
             Cj0KCQ-c,Lead do site,2025-12-31 21:00:00,1,BRL\r\n"
        );
        assert_eq!(
            file(&clicks[1..2], "Lead, do site", "1", true),
            "Parameters:TimeZone=America/Sao_Paulo\r\n\
             Google Click ID,GBRAID,WBRAID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\r\n\
             ,0AAAA-b,,\"Lead, do site\",2025-12-31 21:00:00,1,BRL\r\n"
        );
    }
}
