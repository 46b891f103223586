//! Meta's Conversions API: one `Lead` event for each new lead, sent from the
//! server (the landing loads no pixel), so a campaign can optimise for leads
//! and Ads Manager can count a cost per lead.
//!
//! `POST {META_GRAPH_URL}/{GRAPH_VERSION}/{META_PIXEL_ID}/events` with the
//! token as its `access_token` parameter and a JSON body `{"data": [events],
//! "test_event_code"?}`; the answer says how many events it received, or
//! `{"error": {code, error_subcode, message}}`. Each event is the lead's:
//! `event_name` 'Lead', `event_time` (the lead's time, in seconds),
//! `event_id` (the lead's id: Meta counts one event per id, however many
//! times a retry sends it), `action_source` 'website', `event_source_url`
//! (the page) and `user_data`, normalised and hashed with SHA-256 as Meta's
//! customer information parameters say: `em` (trimmed, lower case), `ph`
//! (digits with the country code), `fn`/`ln` (the name's first and last
//! words, lower case, without punctuation, accents kept in UTF-8),
//! `country` ('br'), `external_id` (the lead's id); `fbc`, built from the
//! stored `fbclid`, and the visitor's IP and user agent, only on the first
//! attempt, while the request is at hand (never stored), are not hashed.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use worker::{Env, Url};

use crate::http::pace::Strain;
use crate::http::{self, outbound};
use crate::platform::config::setting;
use crate::platform::signing;

/// The destination's name, in `deliveries` and `cron_state`.
pub const DESTINATION: &str = "meta";

/// The Graph API version the events go to, and the insights come from
/// (`campaigns::spend::meta`). Meta keeps each version of the Conversions API
/// for at least two years after its release (v26.0: July 2026); a newer one
/// is this line.
pub const GRAPH_VERSION: &str = "v26.0";

/// Where the Graph API answers, unless `META_GRAPH_URL` says otherwise (tests).
pub const DEFAULT_GRAPH_URL: &str = "https://graph.facebook.com";

/// Meta takes at most this many events a request.
pub const MAX_EVENTS: usize = 1_000;

/// A request of up to [`MAX_EVENTS`] may take a while; longer is no answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);

const HOUR_MS: i64 = 60 * 60 * 1000;

/// Meta takes no event older than 7 days, and refuses a whole request that
/// carries one: an event goes within this of its lead (an hour to spare),
/// or is never sent ('expirado').
pub const WINDOW_MS: i64 = 7 * 24 * HOUR_MS - HOUR_MS;

/// The longest error kept on a delivery.
const LAST_ERROR_MAX_CHARS: usize = 300;

/// Everything needed to send. Only built when both the pixel and the token are set.
#[derive(Debug, Clone)]
pub struct Settings {
    pub graph_url: String,
    pub pixel_id: String,
    pub token: String,
    /// Events Manager's test code, while the agency tries the setup.
    pub test_event_code: Option<String>,
}

impl Settings {
    /// `None` unless `META_PIXEL_ID` and `META_ACCESS_TOKEN` are both set.
    pub fn from_env(env: &Env) -> Option<Self> {
        Some(Self {
            graph_url: setting(env, "META_GRAPH_URL").unwrap_or_else(|| DEFAULT_GRAPH_URL.into()),
            pixel_id: setting(env, "META_PIXEL_ID")?,
            token: setting(env, "META_ACCESS_TOKEN")?,
            test_event_code: setting(env, "META_TEST_EVENT_CODE"),
        })
    }

    /// `{graph}/{version}/{pixel}/events?access_token=…`; `None` unless the
    /// graph's address is an http(s) URL. The pixel is one path segment
    /// (escaped), whatever was pasted.
    pub fn endpoint(&self) -> Option<Url> {
        let mut url = http::web_address(&self.graph_url)?;
        url.path_segments_mut()
            .ok()?
            .pop_if_empty()
            .push(GRAPH_VERSION)
            .push(self.pixel_id.trim())
            .push("events");
        url.query_pairs_mut()
            .append_pair("access_token", self.token.trim());
        Some(url)
    }

    /// What must never reach a log line or the database.
    fn secrets(&self) -> [&str; 1] {
        [self.token.as_str()]
    }
}

/// What an event needs of a lead.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct EventLead {
    pub id: String,
    pub name: String,
    pub email: String,
    /// E.164.
    pub whatsapp: String,
    pub created_at: i64,
    pub page_url: Option<String>,
    pub fbclid: Option<String>,
}

/// The visitor's request, at hand only while it is answered: its address
/// and browser go with the first attempt, and are never stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Visitor {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// One server event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    event_name: &'static str,
    event_time: i64,
    event_id: String,
    action_source: &'static str,
    event_source_url: String,
    user_data: UserData,
}

/// The customer information parameters: hashed where Meta says so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UserData {
    em: [String; 1],
    ph: [String; 1],
    #[serde(rename = "fn", skip_serializing_if = "Option::is_none")]
    first_name: Option<String>,
    #[serde(rename = "ln", skip_serializing_if = "Option::is_none")]
    last_name: Option<String>,
    country: String,
    external_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fbc: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_ip_address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_user_agent: Option<String>,
}

/// SHA-256 of `text` (as UTF-8) in lower-case hexadecimal.
pub fn sha256_hex(text: &str) -> String {
    signing::hex(&Sha256::digest(text.as_bytes()))
}

/// An e-mail as Meta hashes it: trimmed, in lower case.
pub fn normalised_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// A phone as Meta hashes it: its digits, with the country code, without
/// leading zeros (`+55 (49) 99999-8888` is `5549999998888`).
pub fn normalised_phone(phone: &str) -> String {
    let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
    digits.trim_start_matches('0').to_string()
}

/// A name's first and last words as Meta hashes them: lower case, no
/// punctuation (`D'Ávila` is `dávila`), accents kept (Meta's own example
/// hashes `valéry`). A one-word name has no last name.
pub fn name_parts(name: &str) -> (Option<String>, Option<String>) {
    let words: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first().cloned();
    let last = (words.len() > 1).then(|| words[words.len() - 1].clone());
    (first, last)
}

/// The click's `fbc`, from the `fbclid` the page's address carried:
/// `fb.1.<when, in ms>.<fbclid>` (1: made by the server), as it was
/// written, never changed in case. When the click happened is not known:
/// the lead's time, the closest known, is used.
pub fn fbc(fbclid: &str, created_at: i64) -> String {
    format!("fb.1.{created_at}.{fbclid}")
}

/// The `Lead` event of `lead`, from a page of the site at `site_origin`;
/// `visitor` on the first attempt only.
pub fn event(lead: &EventLead, site_origin: &str, visitor: Option<&Visitor>) -> Event {
    let (first, last) = name_parts(&lead.name);
    let visitor = visitor.cloned().unwrap_or_default();
    Event {
        event_name: "Lead",
        event_time: lead.created_at.div_euclid(1000),
        event_id: lead.id.clone(),
        action_source: "website",
        event_source_url: lead
            .page_url
            .clone()
            .unwrap_or_else(|| format!("{site_origin}/")),
        user_data: UserData {
            em: [sha256_hex(&normalised_email(&lead.email))],
            ph: [sha256_hex(&normalised_phone(&lead.whatsapp))],
            first_name: first.as_deref().map(sha256_hex),
            last_name: last.as_deref().map(sha256_hex),
            country: sha256_hex("br"),
            external_id: sha256_hex(&lead.id),
            fbc: lead
                .fbclid
                .as_deref()
                .map(str::trim)
                .filter(|f| !f.is_empty())
                .map(|f| fbc(f, lead.created_at)),
            client_ip_address: visitor.ip.filter(|ip| ip != "unknown" && !ip.is_empty()),
            client_user_agent: visitor.user_agent.filter(|ua| !ua.is_empty()),
        },
    }
}

/// The request's body.
#[derive(Serialize)]
struct Body<'a> {
    data: &'a [Event],
    #[serde(skip_serializing_if = "Option::is_none")]
    test_event_code: Option<&'a str>,
}

/// Why Meta did not take a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Our token or pixel: every event is refused the same way, until an
    /// owner fixes the settings (an incident).
    Settings(String),
    /// Meta asks us to slow down (`429`, or its throttling codes).
    TooMany {
        message: String,
        retry_after: Option<u64>,
    },
    /// The request's events: one of them is not what Meta takes.
    Events(String),
    /// Meta is down, slow or answered something else: retried later.
    Unavailable(String),
}

impl Refusal {
    /// The text kept on the delivery and shown on the lead's page.
    pub fn message(&self) -> &str {
        match self {
            Refusal::Settings(m)
            | Refusal::TooMany { message: m, .. }
            | Refusal::Events(m)
            | Refusal::Unavailable(m) => m,
        }
    }

    /// What it says about Meta, for the run's pace.
    pub fn strain(&self) -> Strain {
        match self {
            Refusal::TooMany { retry_after, .. } => Strain::too_many(*retry_after),
            Refusal::Settings(_) | Refusal::Unavailable(_) => Strain::Stop,
            Refusal::Events(_) => Strain::None,
        }
    }
}

/// Meta's error, as its Graph API answers one.
#[derive(Debug, Deserialize)]
struct ErrorAnswer {
    error: GraphError,
}

#[derive(Debug, Deserialize)]
struct GraphError {
    #[serde(default)]
    message: String,
    #[serde(default)]
    code: Option<i64>,
    #[serde(default)]
    error_subcode: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct Received {
    events_received: Option<u64>,
}

/// Reads Meta's answer to a request of `sent` events; the messages say what
/// Meta said, without the token.
pub fn read_answer(
    status: u16,
    body: &str,
    retry_after: Option<u64>,
    sent: usize,
    secrets: &[&str],
) -> Result<(), Refusal> {
    let clean = |text: String| outbound::redact(&text, secrets, LAST_ERROR_MAX_CHARS);
    if (200..300).contains(&status) {
        let received = serde_json::from_str::<Received>(body)
            .ok()
            .and_then(|r| r.events_received);
        return match received {
            Some(n) if n as usize == sent => Ok(()),
            other => Err(Refusal::Unavailable(clean(format!(
                "Meta recebeu {} de {sent} eventos",
                other.map_or("?".to_string(), |n| n.to_string())
            )))),
        };
    }
    let error = serde_json::from_str::<ErrorAnswer>(body)
        .ok()
        .map(|a| a.error);
    let code = error.as_ref().and_then(|e| e.code);
    let subcode = error.as_ref().and_then(|e| e.error_subcode);
    let said = match &error {
        Some(e) => match (code, subcode) {
            (Some(c), Some(s)) => format!(
                "Meta recusou (HTTP {status}, código {c}/{s}): {}",
                e.message
            ),
            (Some(c), None) => format!("Meta recusou (HTTP {status}, código {c}): {}", e.message),
            _ => format!("Meta recusou (HTTP {status}): {}", e.message),
        },
        None if body.trim().is_empty() => format!("Meta recusou (HTTP {status})"),
        None => format!("Meta recusou (HTTP {status}): {body}"),
    };
    let message = clean(said);
    Err(match (status, code, subcode) {
        // The token (expired, revoked, of another app), its permissions, or
        // a pixel that does not exist for it.
        (_, Some(190 | 102 | 10 | 200..=299), _) | (_, Some(100), Some(33)) => {
            Refusal::Settings(message)
        }
        (429, _, _) | (_, Some(4 | 17 | 32 | 341 | 613 | 80004), _) => Refusal::TooMany {
            message,
            retry_after,
        },
        (_, Some(1 | 2), _) => Refusal::Unavailable(message),
        (500.., _, _) | (_, None, _) => Refusal::Unavailable(message),
        _ => Refusal::Events(message),
    })
}

/// Sends `events` in one request.
pub async fn send(settings: &Settings, events: &[Event]) -> Result<(), Refusal> {
    let secrets = settings.secrets();
    let Some(url) = settings.endpoint() else {
        return Err(Refusal::Settings(
            "META_GRAPH_URL não é um endereço http(s)".into(),
        ));
    };
    let body = Body {
        data: events,
        test_event_code: settings.test_event_code.as_deref(),
    };
    let json = serde_json::to_string(&body)
        .map_err(|e| Refusal::Unavailable(format!("o corpo do envio: {e}")))?;
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json"),
    ];
    let request = outbound::post(url.as_str(), &headers, json)
        .map_err(|e| Refusal::Unavailable(outbound::redact(&e.to_string(), &secrets, 300)))?;
    match outbound::send(request, TIMEOUT).await {
        Ok(answer) => read_answer(
            answer.status,
            &answer.body,
            answer.retry_after,
            events.len(),
            &secrets,
        ),
        Err(failure) => Err(Refusal::Unavailable(format!(
            "Sem resposta do Meta: {}",
            failure.describe(&secrets)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead() -> EventLead {
        EventLead {
            id: "0b6c7f1e-1111-4222-8333-944455556666".into(),
            name: "  João D'Ávila  da Silva ".into(),
            email: "Joao.Silva@Example.COM ".into(),
            whatsapp: "+5549999998888".into(),
            created_at: 1_795_000_000_123,
            page_url: Some("https://recantodasvideiras.com.br/?utm_source=facebook".into()),
            fbclid: Some("IwAR3xYz_ABC".into()),
        }
    }

    #[test]
    fn hashes_match_metas_own_examples() {
        // Meta's customer information parameters page, for each field.
        assert_eq!(
            sha256_hex(&normalised_email("John_Smith@gmail.com")),
            "62a14e44f765419d10fea99367361a727c12365e2520f32218d505ed9aa0f62f"
        );
        assert_eq!(
            sha256_hex(&normalised_phone("16505551212")),
            "e323ec626319ca94ee8bff2e4c87cf613be6ea19919ed1364124e16807ab3176"
        );
        assert_eq!(
            sha256_hex(&name_parts("Valéry").0.unwrap()),
            "08e1996b5dd49e62a4b4c010d44e4345592a863bb9f8e3976219bac29417149c"
        );
        assert_eq!(
            sha256_hex("us"),
            "79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621"
        );
    }

    #[test]
    fn an_email_a_masked_phone_and_an_accented_name_are_normalised_before_hashing() {
        assert_eq!(
            normalised_email("  Ana.Souza@Example.COM "),
            "ana.souza@example.com"
        );
        assert_eq!(normalised_phone("+55 (49) 99999-8888"), "5549999998888");
        assert_eq!(normalised_phone("0055 49 99999 8888"), "5549999998888");
        assert_eq!(
            name_parts("  João D'Ávila  da Silva "),
            (Some("joão".into()), Some("silva".into()))
        );
        assert_eq!(name_parts("Cecília"), (Some("cecília".into()), None));
        assert_eq!(
            name_parts("Maria-Clara Sá."),
            (Some("mariaclara".into()), Some("sá".into()))
        );
    }

    #[test]
    fn the_event_is_the_leads_with_its_fields_hashed_and_fbc_from_its_click() {
        let visitor = Visitor {
            ip: Some("203.0.113.7".into()),
            user_agent: Some("Mozilla/5.0 (iPhone)".into()),
        };
        let json = serde_json::to_value(event(&lead(), "https://site", Some(&visitor))).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "event_name": "Lead",
                "event_time": 1_795_000_000,
                "event_id": "0b6c7f1e-1111-4222-8333-944455556666",
                "action_source": "website",
                "event_source_url": "https://recantodasvideiras.com.br/?utm_source=facebook",
                "user_data": {
                    "em": [sha256_hex("joao.silva@example.com")],
                    "ph": [sha256_hex("5549999998888")],
                    "fn": sha256_hex("joão"),
                    "ln": sha256_hex("silva"),
                    "country": sha256_hex("br"),
                    "external_id": sha256_hex("0b6c7f1e-1111-4222-8333-944455556666"),
                    "fbc": "fb.1.1795000000123.IwAR3xYz_ABC",
                    "client_ip_address": "203.0.113.7",
                    "client_user_agent": "Mozilla/5.0 (iPhone)"
                }
            })
        );
        // A retry has no request at hand: no address, no browser; a lead
        // without a click has no fbc, and one without a page the site's.
        let mut plain = lead();
        plain.fbclid = None;
        plain.page_url = None;
        let retry = serde_json::to_value(event(&plain, "https://site", None)).unwrap();
        assert_eq!(retry["event_source_url"], "https://site/");
        for absent in ["fbc", "client_ip_address", "client_user_agent"] {
            assert!(retry["user_data"].get(absent).is_none(), "{absent}");
        }
    }

    #[test]
    fn the_endpoint_names_the_version_the_pixel_and_the_token() {
        let settings = Settings {
            graph_url: "http://127.0.0.1:9999/".into(),
            pixel_id: "1234567890".into(),
            token: "EAAB token+/=".into(),
            test_event_code: None,
        };
        assert_eq!(
            settings.endpoint().unwrap().as_str(),
            "http://127.0.0.1:9999/v26.0/1234567890/events?access_token=EAAB+token%2B%2F%3D"
        );
        let odd = Settings {
            pixel_id: "../x".into(),
            ..settings.clone()
        };
        assert_eq!(odd.endpoint().unwrap().path(), "/v26.0/..%2Fx/events");
        let broken = Settings {
            graph_url: "graph.facebook.com".into(),
            ..settings
        };
        assert!(broken.endpoint().is_none());
    }

    #[test]
    fn an_answer_is_read_by_its_code_never_its_words() {
        let secrets = ["EAAB-s3cret"];
        let read = |status, body: &str| read_answer(status, body, None, 3, &secrets);
        assert_eq!(
            read(
                200,
                r#"{"events_received":3,"messages":[],"fbtrace_id":"x"}"#
            ),
            Ok(())
        );
        assert!(matches!(
            read(200, r#"{"events_received":2}"#),
            Err(Refusal::Unavailable(_))
        ));
        let token = read(
            400,
            r#"{"error":{"message":"Error validating access token EAAB-s3cret","type":"OAuthException","code":190,"error_subcode":463,"fbtrace_id":"A"}}"#,
        );
        let Err(Refusal::Settings(message)) = token else {
            panic!("{token:?}")
        };
        assert_eq!(
            message,
            "Meta recusou (HTTP 400, código 190/463): Error validating access token [chave]"
        );
        assert!(matches!(
            read(
                400,
                r#"{"error":{"message":"Object with ID '1' does not exist","code":100,"error_subcode":33}}"#
            ),
            Err(Refusal::Settings(_))
        ));
        assert!(matches!(
            read(
                400,
                r#"{"error":{"message":"Invalid parameter","code":100,"error_subcode":2804003}}"#
            ),
            Err(Refusal::Events(_))
        ));
        assert!(matches!(
            read(
                400,
                r#"{"error":{"message":"User request limit reached","code":17}}"#
            ),
            Err(Refusal::TooMany { .. })
        ));
        assert!(matches!(read(429, "{}"), Err(Refusal::TooMany { .. })));
        assert!(matches!(read(503, "<html>"), Err(Refusal::Unavailable(_))));
        assert!(matches!(
            read(
                500,
                r#"{"error":{"message":"An unknown error occurred","code":1}}"#
            ),
            Err(Refusal::Unavailable(_))
        ));
    }

    #[test]
    fn a_refusal_of_our_settings_or_a_struggling_meta_stops_the_run_and_an_events_does_not() {
        assert_eq!(Refusal::Settings(String::new()).strain(), Strain::Stop);
        assert_eq!(Refusal::Unavailable(String::new()).strain(), Strain::Stop);
        assert_eq!(Refusal::Events(String::new()).strain(), Strain::None);
        assert_eq!(
            Refusal::TooMany {
                message: String::new(),
                retry_after: Some(20)
            }
            .strain(),
            Strain::Pause { ms: 20_000 }
        );
    }
}
