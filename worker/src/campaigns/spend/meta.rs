//! Meta's spend, read by the cron from the Marketing API's insights when
//! `META_AD_ACCOUNT_ID` is set with `META_ACCESS_TOKEN`: yesterday's and
//! today's spend per campaign and ad, a line per day and placement
//! (`publisher_platform`: Instagram, Facebook, Messenger, Audience Network),
//! at most once an hour. What changed since the last reading becomes an
//! import of its own ('Meta (automático)'), which staff can undo like any.

use std::time::Duration;

use serde::Deserialize;
use worker::{Env, Headers, Method, Request, RequestInit, RequestRedirect};

use super::parse::{Kind, SpendLine};
use super::store::{self, Importer, NewImport};
use crate::attribution::sources;
use crate::formats::dates::Day;
use crate::http::outbound::{self, Answer};
use crate::platform::db::{self, Count, D1Database, query};
use crate::platform::{self, config};

use crate::delivery::meta::{DEFAULT_GRAPH_URL, GRAPH_VERSION};
/// Lines asked per page, and the most pages read in a run.
const PAGE_LINES: u32 = 500;
const MAX_PAGES: usize = 20;
/// An insights page of 500 lines is some 200 KB.
const MAX_PAGE_BYTES: usize = 1024 * 1024;
const TIMEOUT: Duration = Duration::from_secs(20);
/// How often the cron reads: Meta refreshes its figures through the day,
/// and every call counts against the ad account's rate limit.
pub const EVERY_MS: i64 = 60 * 60 * 1000;

/// The settings the reading needs, if they are all there.
pub struct Settings {
    pub graph_url: String,
    pub account: String,
    pub token: String,
}

impl Settings {
    pub fn of(env: &Env) -> Option<Self> {
        let account = config::setting(env, "META_AD_ACCOUNT_ID")?;
        let token = config::setting(env, "META_ACCESS_TOKEN")?;
        let graph_url = config::setting(env, "META_GRAPH_URL")
            .unwrap_or_else(|| DEFAULT_GRAPH_URL.to_string())
            .trim_end_matches('/')
            .to_string();
        let account = account.trim_start_matches("act_").to_string();
        Some(Self {
            graph_url,
            account,
            token,
        })
    }

    /// The first page's address: the account's insights of `since`..=`until`.
    pub fn first_page(&self, since: &str, until: &str) -> String {
        let range = format!("{{\"since\":\"{since}\",\"until\":\"{until}\"}}");
        let query: String = worker::Url::parse_with_params(
            "https://x.invalid/",
            &[
                ("level", "ad"),
                ("time_increment", "1"),
                ("breakdowns", "publisher_platform"),
                (
                    "fields",
                    "campaign_id,campaign_name,ad_id,ad_name,spend,account_currency,date_start",
                ),
                ("time_range", &range),
                ("limit", &PAGE_LINES.to_string()),
            ],
        )
        .map(|u| u.query().unwrap_or_default().to_string())
        .unwrap_or_default();
        format!(
            "{}/{GRAPH_VERSION}/act_{}/insights?{query}",
            self.graph_url, self.account
        )
    }
}

/// One line of an insights page.
#[derive(Debug, Deserialize)]
struct Insight {
    date_start: String,
    #[serde(default)]
    campaign_id: String,
    #[serde(default)]
    campaign_name: String,
    #[serde(default)]
    ad_id: String,
    #[serde(default)]
    ad_name: String,
    #[serde(default)]
    spend: Option<String>,
    #[serde(default)]
    account_currency: Option<String>,
    #[serde(default)]
    publisher_platform: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Page {
    #[serde(default)]
    data: Vec<Insight>,
    #[serde(default)]
    paging: Option<Paging>,
}

#[derive(Debug, Deserialize)]
struct Paging {
    next: Option<String>,
}

/// Meta's spend (`"5339.5"`, account currency units) in cents.
fn api_cents(spend: &str) -> Option<i64> {
    let (whole, fraction) = spend.trim().split_once('.').unwrap_or((spend.trim(), ""));
    if whole.is_empty() || !whole.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut thousandths = fraction.chars().take(3).collect::<String>();
    while thousandths.len() < 3 {
        thousandths.push('0');
    }
    Some(whole.parse::<i64>().ok()? * 100 + (thousandths.parse::<i64>().ok()? + 5) / 10)
}

/// The lines of one page; an error for a currency other than reais.
fn lines_of(page: &Page) -> Result<Vec<SpendLine>, String> {
    let mut lines = Vec::new();
    for insight in &page.data {
        if let Some(currency) = insight.account_currency.as_deref()
            && currency != "BRL"
        {
            return Err(format!("the ad account's currency is {currency}, not BRL"));
        }
        let Some(day) = Day::parse(&insight.date_start) else {
            continue;
        };
        let cents = insight.spend.as_deref().and_then(api_cents).unwrap_or(0);
        let source = insight
            .publisher_platform
            .as_deref()
            .map_or_else(|| "Meta".to_string(), sources::canonical);
        lines.push(SpendLine {
            day: day.to_string(),
            source,
            campaign: insight.campaign_name.trim().to_string(),
            content: insight.ad_name.trim().to_string(),
            campaign_id: insight.campaign_id.clone(),
            content_id: insight.ad_id.clone(),
            cents,
        });
    }
    Ok(lines)
}

fn get(url: &str, token: &str) -> worker::Result<Request> {
    let headers = Headers::new();
    headers.set("Authorization", &format!("Bearer {token}"))?;
    let mut init = RequestInit::new();
    init.with_method(Method::Get)
        .with_redirect(RequestRedirect::Manual)
        .with_headers(headers);
    Request::new_with_init(url, &init)
}

/// Every line of the account's insights for `since`..=`until`, page after
/// page (a next page only at the Graph API's own address: the token goes
/// nowhere else).
pub async fn read(settings: &Settings, since: &str, until: &str) -> Result<Vec<SpendLine>, String> {
    let secrets = [settings.token.as_str()];
    let mut url = settings.first_page(since, until);
    let mut lines = Vec::new();
    for _ in 0..MAX_PAGES {
        let request = get(&url, &settings.token).map_err(|e| e.to_string())?;
        let Answer { status, body, .. } = outbound::send_up_to(request, TIMEOUT, MAX_PAGE_BYTES)
            .await
            .map_err(|f| f.describe(&secrets))?;
        if !(200..300).contains(&status) {
            return Err(format!(
                "HTTP {status}: {}",
                outbound::redact(&body, &secrets, 300)
            ));
        }
        let page: Page = serde_json::from_str(&body)
            .map_err(|e| format!("an answer that is not an insights page: {e}"))?;
        lines.extend(lines_of(&page)?);
        match page.paging.and_then(|p| p.next) {
            Some(next) if next.starts_with(&format!("{}/", settings.graph_url)) => url = next,
            _ => return Ok(lines),
        }
    }
    Ok(lines)
}

/// When the cron last asked Meta (a row of `cron_state`).
const READ_AT: &str = "meta_spend_read_at";
const LAST_READ_SQL: &str = "SELECT value AS n FROM cron_state WHERE name = ?1";

async fn last_read(db: &D1Database) -> worker::Result<Option<i64>> {
    Ok(db::first::<Count>(&query!(db, LAST_READ_SQL, READ_AT))
        .await?
        .map(|c| c.n))
}

/// The lines of `read` that change what is held: new ones, and those of
/// another amount. Lines of one day and line (ads of one name in several
/// ad sets) are added into one first.
fn changes(read: Vec<SpendLine>, held: &[SpendLine]) -> Vec<SpendLine> {
    let mut merged: Vec<SpendLine> = Vec::new();
    for line in read {
        match merged.iter_mut().find(|m| {
            (&m.day, &m.source, &m.campaign, &m.content)
                == (&line.day, &line.source, &line.campaign, &line.content)
        }) {
            Some(m) => m.cents += line.cents,
            None => merged.push(line),
        }
    }
    merged.retain(|line| {
        !held.iter().any(|h| {
            (&h.day, &h.source, &h.campaign, &h.content, h.cents)
                == (
                    &line.day,
                    &line.source,
                    &line.campaign,
                    &line.content,
                    line.cents,
                )
        })
    });
    merged
}

/// The cron's reading: once an hour, when both settings are there.
pub async fn run(env: &Env) {
    let Some(settings) = Settings::of(env) else {
        return;
    };
    let Ok(db) = config::database(env) else {
        return;
    };
    let now = platform::now_ms();
    match last_read(&db).await {
        Ok(Some(last)) if now - last < EVERY_MS => return,
        Err(e) => {
            worker::console_error!("cron: Meta spend: {e}");
            return;
        }
        _ => {}
    }
    let today = Day::in_brasilia(now);
    let (since, until) = (today.plus(-1).to_string(), today.to_string());
    // Noted before the call: a failing API is asked again in an hour, not every minute.
    if let Err(e) = crate::platform::cron_state::note(&db, READ_AT, now).await {
        worker::console_error!("cron: Meta spend: {e}");
        return;
    }
    let read = match read(&settings, &since, &until).await {
        Ok(lines) => lines,
        Err(e) => {
            worker::console_error!("cron: Meta spend not read: {e}");
            return;
        }
    };
    let held = match store::held(&db, &since, &until).await {
        Ok(held) => held,
        Err(e) => {
            worker::console_error!("cron: Meta spend: {e}");
            return;
        }
    };
    let lines = changes(read, &held);
    if lines.is_empty() {
        return;
    }
    let import = NewImport {
        kind: Kind::MetaApi,
        file_name: None,
        lines: &lines,
    };
    let token = platform::new_id();
    match store::import(&db, &Importer::Cron, &import, &token, now).await {
        Ok(_) => worker::console_log!("cron: Meta spend: {} lines imported", lines.len()),
        Err(e) => worker::console_error!("cron: Meta spend not kept: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_page_asks_for_each_day_and_placement_of_each_ad() {
        let settings = Settings {
            graph_url: "https://graph.facebook.com".into(),
            account: "123".into(),
            token: "t".into(),
        };
        let url = settings.first_page("2026-11-25", "2026-11-26");
        assert!(url.starts_with("https://graph.facebook.com/v26.0/act_123/insights?level=ad&"));
        assert!(url.contains("time_increment=1"));
        assert!(url.contains("breakdowns=publisher_platform"));
        assert!(url.contains(
            "time_range=%7B%22since%22%3A%222026-11-25%22%2C%22until%22%3A%222026-11-26%22%7D"
        ));
        assert!(!url.contains("access_token"));
    }

    #[test]
    fn meta_spend_is_read_in_cents() {
        assert_eq!(api_cents("5339.5"), Some(533_950));
        assert_eq!(api_cents("12"), Some(1_200));
        assert_eq!(api_cents("0.015"), Some(2));
        assert_eq!(api_cents("1,5"), None);
        assert_eq!(api_cents(""), None);
    }

    #[test]
    fn a_page_gives_a_line_per_day_placement_and_ad() {
        let page: Page = serde_json::from_str(
            r#"{"data":[
              {"date_start":"2026-11-25","date_stop":"2026-11-25","campaign_id":"1","campaign_name":"lancamento",
               "ad_id":"9","ad_name":"video-1","spend":"10.50","account_currency":"BRL","publisher_platform":"instagram"},
              {"date_start":"2026-11-25","campaign_name":"lancamento","ad_name":"video-1","spend":"2",
               "publisher_platform":"audience_network"}
            ],"paging":{"cursors":{"after":"x"}}}"#,
        )
        .unwrap();
        let lines = lines_of(&page).unwrap();
        assert_eq!(lines[0].source, "Instagram");
        assert_eq!(lines[0].cents, 1_050);
        assert_eq!(lines[0].campaign_id, "1");
        assert_eq!(lines[1].source, "Audience Network");
        let dollars: Page = serde_json::from_str(
            r#"{"data":[{"date_start":"2026-11-25","spend":"1","account_currency":"USD"}]}"#,
        )
        .unwrap();
        assert!(lines_of(&dollars).is_err());
    }

    #[test]
    fn only_what_changed_is_imported_again() {
        let line = |ad: &str, cents| SpendLine {
            day: "2026-11-25".into(),
            source: "Instagram".into(),
            campaign: "lancamento".into(),
            content: ad.into(),
            campaign_id: String::new(),
            content_id: String::new(),
            cents,
        };
        let held = vec![line("a", 100), line("b", 200)];
        let read = vec![line("a", 100), line("b", 150), line("b", 100), line("c", 5)];
        let changed = changes(read, &held);
        assert_eq!(changed, vec![line("b", 250), line("c", 5)]);
    }
}
