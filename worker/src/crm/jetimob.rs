//! Jetimob's lead API as public integrations use it:
//! `POST {base}/leads/{public key}`, header `Authorization-Key: {private key}`,
//! a multipart form body. A 2xx answer means the lead was accepted.

use std::time::Duration;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use worker::{Env, FormData};

use super::store::{ClaimedCorrection, ClaimedLead};
use crate::agency;
use crate::formats::whatsapp::format_whatsapp;
use crate::http::pace::Strain;
use crate::http::{self, outbound};
use crate::platform::config::setting;

/// A CRM that has not answered by then is treated as down, so one hanging
/// request never holds a whole cron run.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The longest `last_error` kept: enough for a status and the gist of the body.
pub const LAST_ERROR_MAX_CHARS: usize = 200;

/// Longest CRM id kept; anything longer is not an id.
const MAX_ID_CHARS: usize = 100;

const DEFAULT_BASE_URL: &str = "https://api.jetimob.com";
const DEFAULT_SUBJECT: &str = "Pré-lançamento";

/// How the CRM files our leads: `source` and `subject` of every lead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labels {
    pub source: String,
    pub subject: String,
}

/// Everything needed to call the CRM. Only built when both keys are set.
#[derive(Debug, Clone)]
pub struct Settings {
    pub base_url: String,
    pub public_key: String,
    pub private_key: String,
    pub labels: Labels,
}

impl Settings {
    /// `None` when either key is unset or blank: the integration is off.
    pub fn from_env(env: &Env) -> Option<Self> {
        let public_key = setting(env, "JETIMOB_PUBLIC_KEY")?;
        let private_key = setting(env, "JETIMOB_PRIVATE_KEY")?;
        Some(Self {
            base_url: setting(env, "JETIMOB_BASE_URL").unwrap_or_else(|| DEFAULT_BASE_URL.into()),
            public_key,
            private_key,
            labels: Labels {
                source: setting(env, "JETIMOB_SOURCE").unwrap_or_else(development_name),
                subject: setting(env, "JETIMOB_SUBJECT").unwrap_or_else(|| DEFAULT_SUBJECT.into()),
            },
        })
    }

    /// What must never reach a log line or the database.
    pub fn secrets(&self) -> [&str; 2] {
        [&self.public_key, &self.private_key]
    }
}

/// The development's name from `agency.json`, the file the pages read too.
fn development_name() -> String {
    agency::DEVELOPMENT_NAME.to_string()
}

/// The message of a new lead.
pub fn new_lead_message(lead: &ClaimedLead) -> String {
    format!("Cadastro no pré-lançamento (origem: {})", lead.origem)
}

/// The message of a correction: each detail the visitor changed, new and
/// old, e.g. "Dados atualizados pelo visitante: WhatsApp (49) 98888-7777
/// (antes (49) 99999-0001)".
pub fn correction_message(correction: &ClaimedCorrection) -> String {
    let lead = &correction.lead;
    let was = |sent: &Option<String>| sent.clone().unwrap_or_default();
    let mut changes = Vec::new();
    if correction.sent_name.as_deref() != Some(lead.name.as_str()) {
        changes.push(format!(
            "nome {} (antes {})",
            lead.name,
            was(&correction.sent_name)
        ));
    }
    if correction.sent_email.as_deref() != Some(lead.email.as_str()) {
        changes.push(format!(
            "e-mail {} (antes {})",
            lead.email,
            was(&correction.sent_email)
        ));
    }
    if correction.sent_whatsapp.as_deref() != Some(lead.whatsapp.as_str()) {
        changes.push(format!(
            "WhatsApp {} (antes {})",
            format_whatsapp(&lead.whatsapp),
            format_whatsapp(&was(&correction.sent_whatsapp))
        ));
    }
    format!("Dados atualizados pelo visitante: {}", changes.join("; "))
}

/// The form sent for a lead (its newest details) with `message`: its fields
/// in the order Jetimob documents them; optional ones only when the lead has them.
#[derive(Debug, Serialize)]
pub struct LeadForm<'a> {
    full_name: &'a str,
    email: &'a str,
    phone: &'a str,
    message: &'a str,
    subject: &'a str,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gclid: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    utm_source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    utm_medium: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    utm_campaign: Option<&'a str>,
}

/// The form of `lead` with `message`, filed under our `labels`.
pub fn lead_form<'a>(lead: &'a ClaimedLead, labels: &'a Labels, message: &'a str) -> LeadForm<'a> {
    LeadForm {
        full_name: &lead.name,
        email: &lead.email,
        phone: &lead.whatsapp,
        message,
        subject: &labels.subject,
        source: &labels.source,
        // A page address kept before only http(s) ones were (a `javascript:`
        // one among them) never reaches the CRM as a link.
        url: crate::attribution::web_address(lead.attribution.page_url.clone()),
        gclid: lead.attribution.gclid.as_deref(),
        utm_source: lead.attribution.utm_source.as_deref(),
        utm_medium: lead.attribution.utm_medium.as_deref(),
        utm_campaign: lead.attribution.utm_campaign.as_deref(),
    }
}

impl LeadForm<'_> {
    /// Its fields as the form's `name`/`value` pairs, in order.
    pub fn fields(&self) -> worker::Result<Vec<(String, String)>> {
        let encoded = serde_urlencoded::to_string(self)
            .map_err(|e| worker::Error::from(format!("the lead's form: {e}")))?;
        Ok(form_urlencoded::parse(encoded.as_bytes())
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect())
    }
}

/// `{base}/leads/{public key}`, the key as one path segment; `None` unless
/// the base is an http(s) URL with a host.
pub fn endpoint(base_url: &str, public_key: &str) -> Option<String> {
    let mut url = http::web_address(base_url)?;
    // Tabs and line breaks in a key pasted into a setting are not part of
    // it: a URL parser drops them wherever they are.
    let key: String = public_key
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    url.path_segments_mut()
        .ok()?
        // One trailing slash goes, so `https://x/v1/` gives `https://x/v1/leads/…`.
        .pop_if_empty()
        .push("leads")
        // Escaped to stay one segment; `.` or `..` would move up the path
        // instead of naming the key, and is left out.
        .push(&key);
    Some(url.into())
}

/// The id in a 2xx answer (`{"id": 123}` or `{"id": "abc"}`), if any.
pub fn accepted_id(body: &str) -> Option<String> {
    let id = serde_json::from_slice::<Accepted>(body.as_bytes())
        .ok()?
        .0?;
    (!id.is_empty() && id.chars().count() <= MAX_ID_CHARS).then_some(id)
}

/// A 2xx answer, an object: its `id` (the last one, if it says it twice),
/// text or number; anything else is no id.
struct Accepted(Option<String>);

impl<'de> Deserialize<'de> for Accepted {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = Accepted;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Accepted, A::Error> {
                let mut id = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == "id" {
                        id = map.next_value::<Option<CrmId>>()?.map(|i| i.0);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Accepted(id))
            }
        }
        deserializer.deserialize_map(ObjectVisitor)
    }
}

struct CrmId(String);

impl<'de> Deserialize<'de> for CrmId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = CrmId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a text or a number")
            }
            fn visit_str<E>(self, v: &str) -> Result<CrmId, E> {
                Ok(CrmId(v.trim().to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<CrmId, E> {
                Ok(CrmId(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<CrmId, E> {
                Ok(CrmId(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<CrmId, E> {
                // As JSON wrote it: 1.0 stays "1.0".
                Ok(CrmId(format!("{v:?}")))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

/// Why an attempt did not reach the CRM, or why the CRM refused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The CRM answered with a status other than 2xx (a `429` may say when
    /// to come back: `Retry-After`, in seconds).
    Refused {
        status: u16,
        body: String,
        retry_after: Option<u64>,
    },
    /// No answer within [`TIMEOUT`].
    Timeout,
    /// The request did not get through (DNS, connection, TLS…).
    Network(String),
    /// `JETIMOB_BASE_URL` is not an http(s) URL.
    BadBaseUrl,
}

impl Failure {
    /// The text kept in `last_error` and shown to staff: the status and the
    /// start of the answer, in one line, with the keys blanked out.
    pub fn describe(&self, secrets: &[&str]) -> String {
        let text = match self {
            Failure::Refused { status, body, .. } => {
                let hint = match status {
                    401 | 403 => " (chaves recusadas)",
                    429 => " (limite de envios)",
                    300..=399 => " (redirecionado: confira JETIMOB_BASE_URL)",
                    _ => "",
                };
                if body.trim().is_empty() {
                    format!("HTTP {status}{hint}")
                } else {
                    format!("HTTP {status}{hint}: {body}")
                }
            }
            Failure::Timeout => format!("Sem resposta do Jetimob em {} s", TIMEOUT.as_secs()),
            Failure::Network(detail) => format!("Falha de conexão: {detail}"),
            Failure::BadBaseUrl => "JETIMOB_BASE_URL inválida".to_string(),
        };
        outbound::redact(&text, secrets, LAST_ERROR_MAX_CHARS)
    }

    /// What the failure says about Jetimob: asked to be left alone (`429`),
    /// struggling (a `5xx`, no answer, no connection, a wrong address) or
    /// refusing our keys (every lead would be refused the same way), or
    /// refusing this lead for itself (its data: `400`, `409`, `422`), which
    /// stops nothing.
    pub fn strain(&self) -> Strain {
        match self {
            Failure::Refused {
                status: 429,
                retry_after,
                ..
            } => Strain::too_many(*retry_after),
            Failure::Refused { status, .. } if *status >= 500 || matches!(status, 401 | 403) => {
                Strain::Stop
            }
            Failure::Refused { status, .. } if (300..400).contains(status) => Strain::Stop,
            Failure::Refused { .. } => Strain::None,
            Failure::Timeout | Failure::Network(_) | Failure::BadBaseUrl => Strain::Stop,
        }
    }
}

/// Sends one lead with `message`. `Ok` carries the CRM's id when its answer had one.
pub async fn send(
    settings: &Settings,
    lead: &ClaimedLead,
    message: &str,
) -> Result<Option<String>, Failure> {
    exchange(settings, lead, message).await
}

async fn exchange(
    settings: &Settings,
    lead: &ClaimedLead,
    message: &str,
) -> Result<Option<String>, Failure> {
    let url = endpoint(&settings.base_url, &settings.public_key).ok_or(Failure::BadBaseUrl)?;
    let form = lead_form(lead, &settings.labels, message);
    let request = build_request(&url, &settings.private_key, &form)
        .map_err(|e| Failure::Network(e.to_string()))?;

    match outbound::send(request, TIMEOUT).await {
        Ok(answer) if answer.is_success() => Ok(accepted_id(&answer.body)),
        Ok(answer) => Err(Failure::Refused {
            status: answer.status,
            body: answer.body,
            retry_after: answer.retry_after,
        }),
        Err(outbound::Failure::Timeout(_)) => Err(Failure::Timeout),
        Err(outbound::Failure::Network(detail)) => Err(Failure::Network(detail)),
    }
}

fn build_request(url: &str, private_key: &str, form: &LeadForm) -> worker::Result<worker::Request> {
    let body = FormData::new();
    for (name, value) in form.fields()? {
        body.append(&name, &value)?;
    }
    // Content-Type (with the multipart boundary) comes from the FormData body.
    let headers = [
        ("Authorization-Key", private_key),
        ("Accept", "application/json"),
    ];
    outbound::post(url, &headers, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attribution::Attribution;
    use proptest::prelude::*;

    fn labels() -> Labels {
        Labels {
            source: "Recanto das Videiras".into(),
            subject: "Pré-lançamento".into(),
        }
    }

    fn lead() -> ClaimedLead {
        ClaimedLead {
            id: "0b6c7f1e-1111-4222-8333-444455556666".into(),
            name: "Maria da Silva".into(),
            email: "maria@example.com".into(),
            whatsapp: "+5549988887777".into(),
            origem: "instagram".into(),
            created_at: 1_760_000_000_000,
            attribution: Attribution::default(),
            delivery_attempts: 1,
            lease_until: 1_760_000_060_000,
            first_tried_at: None,
        }
    }

    /// The form fields sent for `lead` with `message`.
    fn form_fields(lead: &ClaimedLead, labels: &Labels, message: &str) -> Vec<(String, String)> {
        lead_form(lead, labels, message).fields().unwrap()
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn a_lead_without_attribution_sends_the_required_fields_and_our_labels() {
        assert_eq!(
            form_fields(&lead(), &labels(), &new_lead_message(&lead())),
            pairs(&[
                ("full_name", "Maria da Silva"),
                ("email", "maria@example.com"),
                ("phone", "+5549988887777"),
                ("message", "Cadastro no pré-lançamento (origem: instagram)"),
                ("subject", "Pré-lançamento"),
                ("source", "Recanto das Videiras"),
            ])
        );
    }

    #[test]
    fn every_character_reaches_the_form_as_written() {
        let lead = ClaimedLead {
            name: "José D'Ávila & Cia + 100% = ok?".into(),
            attribution: Attribution {
                utm_campaign: Some("a=b&c d/é".into()),
                ..Attribution::default()
            },
            ..lead()
        };
        let fields = form_fields(&lead, &labels(), "linha 1; (antes +55)");
        assert_eq!(fields[0].1, "José D'Ávila & Cia + 100% = ok?");
        assert_eq!(fields[3].1, "linha 1; (antes +55)");
        assert_eq!(fields[6], ("utm_campaign".into(), "a=b&c d/é".into()));
    }

    #[test]
    fn the_page_url_click_id_and_campaign_go_in_jetimobs_own_fields() {
        let lead = ClaimedLead {
            attribution: Attribution {
                page_url: Some("https://site.example/?utm_source=google".into()),
                gclid: Some("g-123".into()),
                utm_source: Some("google".into()),
                utm_medium: Some("cpc".into()),
                utm_campaign: Some("pre-lancamento".into()),
                // Jetimob takes none of these.
                gbraid: Some("gb".into()),
                fbclid: Some("fb".into()),
                ..Attribution::default()
            },
            ..lead()
        };
        let fields = form_fields(&lead, &labels(), "m");
        assert_eq!(
            &fields[6..],
            pairs(&[
                ("url", "https://site.example/?utm_source=google"),
                ("gclid", "g-123"),
                ("utm_source", "google"),
                ("utm_medium", "cpc"),
                ("utm_campaign", "pre-lancamento"),
            ])
        );
    }

    #[test]
    fn a_page_address_of_another_scheme_kept_by_an_older_release_is_not_sent() {
        for stored in ["javascript:alert(1)", "data:text/html,x", "/relative"] {
            let lead = ClaimedLead {
                attribution: Attribution {
                    page_url: Some(stored.into()),
                    ..Attribution::default()
                },
                ..lead()
            };
            let fields = form_fields(&lead, &labels(), "m");
            assert!(fields.iter().all(|(name, _)| *name != "url"), "{stored}");
        }
    }

    #[test]
    fn no_field_is_sent_twice_and_none_is_sent_empty() {
        let fields = form_fields(&lead(), &labels(), "m");
        let mut names: Vec<_> = fields.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), fields.len());
        assert!(fields.iter().all(|(_, v)| !v.is_empty()));
    }

    #[test]
    fn a_correction_says_what_the_visitor_changed_and_what_it_was_before() {
        let correction = |name: &str, email: &str, whatsapp: &str| ClaimedCorrection {
            lead: lead(),
            sent_name: Some(name.into()),
            sent_email: Some(email.into()),
            sent_whatsapp: Some(whatsapp.into()),
        };
        assert_eq!(
            correction_message(&correction(
                "Maria da Silva",
                "maria@example.com",
                "+5549999990001"
            )),
            "Dados atualizados pelo visitante: WhatsApp (49) 98888-7777 (antes (49) 99999-0001)"
        );
        assert_eq!(
            correction_message(&correction(
                "Maria Silva",
                "m@example.com",
                "+5549988887777"
            )),
            "Dados atualizados pelo visitante: nome Maria da Silva (antes Maria Silva); \
             e-mail maria@example.com (antes m@example.com)"
        );
    }

    #[test]
    fn the_source_defaults_to_the_development_named_in_agency_json() {
        assert_eq!(development_name(), "Recanto das Videiras");
    }

    #[test]
    fn the_endpoint_puts_the_public_key_in_the_path() {
        let url = endpoint;
        assert_eq!(
            url("https://api.jetimob.com", "abc123"),
            Some("https://api.jetimob.com/leads/abc123".into())
        );
        assert_eq!(
            url("http://127.0.0.1:4010/", "pub-test"),
            Some("http://127.0.0.1:4010/leads/pub-test".into())
        );
        assert_eq!(
            url("http://127.0.0.1:4010/v1/", "a/b?c"),
            Some("http://127.0.0.1:4010/v1/leads/a%2Fb%3Fc".into())
        );
        assert_eq!(url("api.jetimob.com", "abc"), None);
        assert_eq!(url("ftp://api.jetimob.com", "abc"), None);
    }

    /// The endpoint as the `url` crate's path API builds it from the
    /// parsed base: what the endpoint always was, before and since the
    /// worker read URLs by hand.
    fn endpoint_by_the_url_crate(base_url: &str, public_key: &str) -> Option<worker::Url> {
        let mut url = worker::Url::parse(base_url).ok()?;
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        url.path_segments_mut()
            .ok()?
            .pop_if_empty()
            .push("leads")
            .push(public_key);
        Some(url)
    }

    /// What the runtime's URL parser makes of the endpoint when it sends the request.
    fn as_sent(endpoint: Option<String>) -> Option<worker::Url> {
        Some(worker::Url::parse(&endpoint?).expect("the runtime can read the endpoint"))
    }

    #[test]
    fn odd_but_valid_base_urls_reach_the_same_endpoint_as_before() {
        for base in [
            "HTTPS://API.Jetimob.com:443",
            "https://api.jetimob.com//",
            "https://api.jetimob.com/v1//",
            "https://api.jetimob.com/v1/./",
            "https://api.jetimob.com/v1/../v2",
            "https://api.jetimob.com/v1\\",
            "https://api.jetimob.com/my path/",
            "https://user:pw@api.jetimob.com/?token=1#x",
            "http://[::1]:4010/",
        ] {
            for key in ["abc123", ".", "..", "a b/c?d#e%f\\g", "chave-ção"] {
                assert_eq!(
                    as_sent(endpoint(base, key)),
                    endpoint_by_the_url_crate(base, key),
                    "{base} {key}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn the_endpoint_is_the_one_the_url_crate_built(
            scheme in prop::sample::select(vec!["http", "https", "HTTPS", "ftp"]),
            host in "[a-zA-Z][a-zA-Z0-9-]{0,8}(\\.[a-zA-Z][a-zA-Z0-9-]{0,8}){0,2}",
            port in prop::option::of(1u32..65_536),
            path in prop::sample::select(vec!["", "/", "//", "/v1", "/v1/", "/v1//", "/a/b/", "/v1/.", "/%7Ex/"]),
            suffix in prop::sample::select(vec!["", "?a=1", "#f", "?a=b%20c#f"]),
            key in "[^\\t\\n\\r]{0,24}",
        ) {
            let port = port.map(|p| format!(":{p}")).unwrap_or_default();
            let base = format!("{scheme}://{host}{port}{path}{suffix}");
            prop_assert_eq!(as_sent(endpoint(&base, &key)), endpoint_by_the_url_crate(&base, &key));
        }
    }

    #[test]
    fn the_crm_id_is_kept_whether_it_is_a_number_or_a_string() {
        assert_eq!(accepted_id(r#"{"id": 98765}"#), Some("98765".into()));
        assert_eq!(
            accepted_id(r#"{"id": " L-42 ", "ok": true}"#),
            Some("L-42".into())
        );
        assert_eq!(accepted_id(r#"{"ok": true}"#), None);
        assert_eq!(accepted_id(r#"{"id": null}"#), None);
        assert_eq!(accepted_id(r#"{"id": ""}"#), None);
        assert_eq!(accepted_id(r#"{"id": 1, "id": 2}"#), Some("2".into()));
        assert_eq!(accepted_id(r#"{"id": 1.0}"#), Some("1.0".into()));
        assert_eq!(accepted_id(r#"{"id": {"n": 1}}"#), None);
        assert_eq!(accepted_id("[42]"), None);
        assert_eq!(accepted_id("<html>OK</html>"), None);
        assert_eq!(accepted_id(""), None);
    }

    #[test]
    fn a_refusal_is_described_by_its_status_and_the_start_of_the_answer() {
        let failure = Failure::Refused {
            status: 500,
            body: "{\"error\":\n  \"Internal Server Error\"}".into(),
            retry_after: None,
        };
        assert_eq!(
            failure.describe(&[]),
            "HTTP 500: {\"error\": \"Internal Server Error\"}"
        );
        let empty = Failure::Refused {
            status: 401,
            body: String::new(),
            retry_after: None,
        };
        assert_eq!(empty.describe(&[]), "HTTP 401 (chaves recusadas)");
        let moved = Failure::Refused {
            status: 301,
            body: String::new(),
            retry_after: None,
        };
        assert_eq!(
            moved.describe(&[]),
            "HTTP 301 (redirecionado: confira JETIMOB_BASE_URL)"
        );
        assert_eq!(
            Failure::Timeout.describe(&[]),
            "Sem resposta do Jetimob em 5 s"
        );
    }

    #[test]
    fn an_answer_that_echoes_the_keys_is_recorded_without_them() {
        let failure = Failure::Refused {
            status: 401,
            body: "invalid Authorization-Key priv-s3cret for /leads/pub-k3y".into(),
            retry_after: None,
        };
        let described = failure.describe(&["pub-k3y", "priv-s3cret"]);
        assert_eq!(
            described,
            "HTTP 401 (chaves recusadas): invalid Authorization-Key [chave] for /leads/[chave]"
        );
        let network = Failure::Network("connect to https://x/leads/pub-k3y failed".into());
        assert!(!network.describe(&["pub-k3y", ""]).contains("pub-k3y"));
    }

    #[test]
    fn a_long_answer_is_cut_to_two_hundred_characters() {
        let failure = Failure::Refused {
            status: 502,
            body: "<html>".repeat(100),
            retry_after: None,
        };
        let described = failure.describe(&[]);
        assert_eq!(described.chars().count(), LAST_ERROR_MAX_CHARS);
        assert!(described.starts_with("HTTP 502: <html><html>"));
        assert!(described.ends_with('…'));
    }

    proptest! {
        #[test]
        fn no_key_survives_in_an_error_however_the_answer_is_shaped(
            before in ".{0,300}",
            after in ".{0,300}",
            key in "[A-Za-z0-9_-]{8,40}",
        ) {
            let body = format!("{before}{key}{after}{key}");
            let described = Failure::Refused {
                status: 400,
                body,
                retry_after: None,
            }
            .describe(&["pub", &key]);
            prop_assert!(!described.contains(&key));
            prop_assert!(described.chars().count() <= LAST_ERROR_MAX_CHARS);
        }
    }
}
