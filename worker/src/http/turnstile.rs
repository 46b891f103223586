//! Cloudflare Turnstile, the optional bot check on the lead form and on staff
//! sign-up. Off unless both `TURNSTILE_SITE_KEY` (a var) and
//! `TURNSTILE_SECRET_KEY` (a secret) are set; then every submission must carry
//! a fresh token (`turnstile_token`), which the worker checks with the
//! verification service before it stores or sends anything.

use serde::Deserialize;
use worker::Env;

use crate::agency::messages;
use crate::http::outbound;
use crate::http::{ApiError, ApiResult, Field, Fields};
use crate::platform::config;
use crate::platform::cron_state::{self, turnstile_failed_at};
use crate::platform::db::D1Database;

pub const DEFAULT_VERIFY_URL: &str = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/// Where the widget's script and frame come from; the CSP names it only when
/// Turnstile is on.
pub const CHALLENGES_ORIGIN: &str = "https://challenges.cloudflare.com";
/// The JSON field of the lead and sign-up bodies that carries the token.
pub const TOKEN_FIELD: &str = "turnstile_token";
/// Cloudflare's documented maximum token length; anything longer is forged.
const MAX_TOKEN_CHARS: usize = 2048;
/// The verification normally answers in tens of milliseconds; a visitor
/// should not wait longer than this for it.
const TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Turnstile's settings, present only when it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turnstile {
    site_key: String,
    secret: String,
    verify_url: String,
}

/// Which form a token was solved for: the widget is rendered with this
/// `action`, and the verification's answer must name it, so a token solved
/// for one form (or on another site sharing the site key) passes no other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Lead,
    Signup,
}

impl Form {
    /// The widget's `action` (pages/src/features/turnstile/useTurnstile.ts).
    pub fn action(self) -> &'static str {
        match self {
            Form::Lead => "lead",
            Form::Signup => "signup",
        }
    }
}

/// Where and for what a token must have been solved: this site's host, this form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected<'a> {
    pub hostname: &'a str,
    pub form: Form,
}

/// Cloudflare's documented test secrets (always passes, always fails, token
/// already spent): they answer for a fixed host (`example.com`) and no
/// action, and protect nothing, so no host or action is asked of them.
fn is_test_secret(secret: &str) -> bool {
    ["1x", "2x", "3x"]
        .iter()
        .any(|p| secret == format!("{p}0000000000000000000000000000000AA"))
}

/// What the verification of one submission decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The token is valid and was unused: go on.
    Passed,
    /// Missing, forged, expired or already used: refuse with this message.
    Refused(&'static str),
    /// A valid token, solved on another host or for another form: refused
    /// as any other, and the log says where it was solved.
    Elsewhere(String),
    /// The check could not be made (service down, our secret wrong): refuse,
    /// since letting it through would switch the defence off for any bot that
    /// can make the service slow.
    Unavailable(String),
}

impl Turnstile {
    /// Reads the settings; `None` means Turnstile is off.
    pub fn from_env(env: &Env) -> Option<Self> {
        let site_key = config::setting(env, "TURNSTILE_SITE_KEY");
        let secret = config::setting(env, "TURNSTILE_SECRET_KEY");
        if site_key.is_some() != secret.is_some() {
            worker::console_warn!(
                "turnstile: only one of TURNSTILE_SITE_KEY and TURNSTILE_SECRET_KEY is set; \
                 Turnstile stays off"
            );
        }
        Self::from_settings(
            site_key,
            secret,
            config::setting(env, "TURNSTILE_VERIFY_URL"),
        )
    }

    /// On only with both keys: a site key alone would show a widget whose
    /// tokens nobody checks, a secret alone would refuse every visitor.
    pub fn from_settings(
        site_key: Option<String>,
        secret: Option<String>,
        verify_url: Option<String>,
    ) -> Option<Self> {
        match (site_key, secret) {
            (Some(site_key), Some(secret)) => Some(Self {
                site_key,
                secret,
                verify_url: verify_url.unwrap_or_else(|| DEFAULT_VERIFY_URL.into()),
            }),
            _ => None,
        }
    }

    pub fn site_key(&self) -> &str {
        &self.site_key
    }

    /// Checks the token of `body` for a visitor at `remote_ip`; `Ok` means the
    /// submission may go on.
    pub async fn check(
        &self,
        body: &Fields,
        remote_ip: &str,
        expected: Expected<'_>,
    ) -> ApiResult<()> {
        into_result(self.verdict(body, remote_ip, expected).await)
    }

    /// As [`Turnstile::check`], for the lead form: a check that could not be
    /// made refuses a visitor's lead, so it is also noted (at `now`, as
    /// `turnstile_failed_at` in `cron_state`) for the cron, which tells the
    /// owners.
    pub async fn check_lead(
        &self,
        db: &D1Database,
        body: &Fields,
        remote_ip: &str,
        hostname: &str,
        now: i64,
    ) -> ApiResult<()> {
        let expected = Expected {
            hostname,
            form: Form::Lead,
        };
        let verdict = self.verdict(body, remote_ip, expected).await;
        if matches!(verdict, Verdict::Unavailable(_))
            && let Err(error) = cron_state::note(db, turnstile_failed_at!(), now).await
        {
            worker::console_error!("turnstile: the failure was not recorded: {error}");
        }
        into_result(verdict)
    }

    async fn verdict(&self, body: &Fields, remote_ip: &str, expected: Expected<'_>) -> Verdict {
        let verdict = match token_of(body) {
            Err(message) => Verdict::Refused(message),
            Ok(token) => self.verify(token, remote_ip, expected).await,
        };
        match &verdict {
            Verdict::Unavailable(detail) => {
                worker::console_error!("turnstile: verification unavailable: {detail}");
            }
            Verdict::Elsewhere(detail) => {
                worker::console_warn!("turnstile: a token refused: {detail}");
            }
            Verdict::Passed | Verdict::Refused(_) => {}
        }
        verdict
    }

    async fn verify(&self, token: &str, remote_ip: &str, expected: Expected<'_>) -> Verdict {
        let form = verification_form(&self.secret, token, remote_ip);
        let request = match build_request(&self.verify_url, form) {
            Ok(request) => request,
            Err(e) => return Verdict::Unavailable(format!("bad TURNSTILE_VERIFY_URL: {e}")),
        };
        let expected = (!is_test_secret(&self.secret)).then_some(expected);
        match outbound::send(request, TIMEOUT).await {
            Ok(answer) => decide(answer.status, &answer.body, expected),
            Err(failure) => Verdict::Unavailable(failure.describe(&[&self.secret])),
        }
    }
}

/// The token of a submission: present, not blank, not absurdly long.
pub fn token_of(body: &Fields) -> Result<&str, &'static str> {
    match body.get(TOKEN_FIELD) {
        Some(Field::Text(t)) if t.trim().is_empty() => Err(messages::TURNSTILE_MISSING),
        Some(Field::Text(t)) if t.chars().count() > MAX_TOKEN_CHARS => {
            Err(messages::TURNSTILE_REFUSED)
        }
        Some(Field::Text(t)) => Ok(t.trim()),
        Some(_) => Err(messages::TURNSTILE_REFUSED),
        None => Err(messages::TURNSTILE_MISSING),
    }
}

/// The verification request's form body (`application/x-www-form-urlencoded`).
/// The address helps the service judge the visitor; an unknown one is left out.
pub fn verification_form(secret: &str, token: &str, remote_ip: &str) -> String {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("secret", secret);
    form.append_pair("response", token);
    if remote_ip != "unknown" && !remote_ip.is_empty() {
        form.append_pair("remoteip", remote_ip);
    }
    form.finish()
}

fn build_request(verify_url: &str, form: String) -> worker::Result<worker::Request> {
    let headers = [("Content-Type", "application/x-www-form-urlencoded")];
    outbound::post(verify_url, &headers, form)
}

/// The verification service's answer (the fields we use).
#[derive(Debug, Deserialize)]
struct Siteverify {
    success: bool,
    #[serde(rename = "error-codes", default)]
    error_codes: Vec<String>,
    /// The host of the page the token was solved on.
    #[serde(default)]
    hostname: Option<String>,
    /// The widget's `action`.
    #[serde(default)]
    action: Option<String>,
}

/// Reads the verification service's answer: a pass must have been solved
/// on `expected`'s host, for its form (`None`: a test secret's answer).
pub fn decide(status: u16, body: &str, expected: Option<Expected<'_>>) -> Verdict {
    if !(200..300).contains(&status) {
        return Verdict::Unavailable(format!("the verification answered {status}"));
    }
    let Ok(answer) = serde_json::from_str::<Siteverify>(body) else {
        return Verdict::Unavailable("the verification's answer is not its JSON".into());
    };
    if answer.success {
        let Some(expected) = expected else {
            return Verdict::Passed;
        };
        let host_is_ours = answer
            .hostname
            .as_deref()
            .is_some_and(|h| h.eq_ignore_ascii_case(expected.hostname));
        let for_this_form = answer.action.as_deref() == Some(expected.form.action());
        if host_is_ours && for_this_form {
            return Verdict::Passed;
        }
        return Verdict::Elsewhere(format!(
            "solved on {:?} for {:?}, not on {} for {}",
            answer.hostname,
            answer.action,
            expected.hostname,
            expected.form.action()
        ));
    }
    let has = |code: &str| answer.error_codes.iter().any(|c| c == code);
    if has("missing-input-secret") || has("invalid-input-secret") {
        // Our configuration is wrong, not the visitor: say so in the log.
        Verdict::Unavailable(format!(
            "TURNSTILE_SECRET_KEY refused: {:?}",
            answer.error_codes
        ))
    } else if has("internal-error") {
        Verdict::Unavailable("the verification had an internal error".into())
    } else {
        Verdict::Refused(messages::TURNSTILE_REFUSED)
    }
}

/// A refusal is the visitor's to fix (a new token) and names the widget as
/// the field to look at; an unavailable check is ours.
pub fn into_result(verdict: Verdict) -> ApiResult<()> {
    match verdict {
        Verdict::Passed => Ok(()),
        Verdict::Refused(message) => Err(ApiError::Unprocessable {
            message: message.to_string(),
            fields: vec![(TOKEN_FIELD, message.to_string())],
        }),
        Verdict::Elsewhere(_) => into_result(Verdict::Refused(messages::TURNSTILE_REFUSED)),
        Verdict::Unavailable(_) => {
            Err(ApiError::BadGateway(messages::TURNSTILE_UNAVAILABLE.into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> Fields {
        let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).unwrap();
        map.into_iter()
            .map(|(k, v)| {
                let field = match v {
                    serde_json::Value::String(t) => Field::Text(t),
                    serde_json::Value::Bool(b) => Field::Bool(b),
                    serde_json::Value::Null => Field::Null,
                    _ => Field::Other,
                };
                (k, field)
            })
            .collect()
    }

    #[test]
    fn is_on_only_with_both_keys_and_defaults_to_cloudflares_service() {
        let on = Turnstile::from_settings(Some("site".into()), Some("secret".into()), None);
        assert_eq!(on.map(|t| t.verify_url), Some(DEFAULT_VERIFY_URL.into()));
        assert!(Turnstile::from_settings(Some("site".into()), None, None).is_none());
        assert!(Turnstile::from_settings(None, Some("secret".into()), None).is_none());
        assert!(Turnstile::from_settings(None, None, Some("http://x".into())).is_none());
    }

    #[test]
    fn a_missing_or_blank_token_is_refused_without_asking_the_service() {
        assert_eq!(token_of(&body("{}")), Err(messages::TURNSTILE_MISSING));
        assert_eq!(
            token_of(&body(r#"{"turnstile_token":"  "}"#)),
            Err(messages::TURNSTILE_MISSING)
        );
        assert_eq!(
            token_of(&body(r#"{"turnstile_token":7}"#)),
            Err(messages::TURNSTILE_REFUSED)
        );
        let long = format!(r#"{{"turnstile_token":"{}"}}"#, "a".repeat(2049));
        assert_eq!(token_of(&body(&long)), Err(messages::TURNSTILE_REFUSED));
        assert_eq!(
            token_of(&body(r#"{"turnstile_token":"XXXX.DUMMY.TOKEN.XXXX"}"#)),
            Ok("XXXX.DUMMY.TOKEN.XXXX")
        );
    }

    #[test]
    fn the_form_carries_secret_token_and_a_known_address_url_encoded() {
        assert_eq!(
            verification_form(
                "1x0000000000000000000000000000000AA",
                "a+b/c=",
                "203.0.113.7"
            ),
            "secret=1x0000000000000000000000000000000AA&response=a%2Bb%2Fc%3D&remoteip=203.0.113.7"
        );
        assert_eq!(
            verification_form("s", "t", "unknown"),
            "secret=s&response=t"
        );
    }

    const HERE: Expected<'static> = Expected {
        hostname: "recantodasvideiras.com.br",
        form: Form::Lead,
    };

    #[test]
    fn a_success_passes_only_for_this_host_and_this_form() {
        let answer = |host: &str, action: &str| {
            format!(
                r#"{{"success":true,"error-codes":[],"challenge_ts":"2026-11-22T10:00:00Z","hostname":"{host}","action":"{action}"}}"#
            )
        };
        assert_eq!(
            decide(
                200,
                &answer("recantodasvideiras.com.br", "lead"),
                Some(HERE)
            ),
            Verdict::Passed
        );
        assert_eq!(
            decide(
                200,
                &answer("Recantodasvideiras.com.br", "lead"),
                Some(HERE)
            ),
            Verdict::Passed
        );
        for (host, action) in [
            ("evil.example", "lead"),
            ("recantodasvideiras.com.br", "signup"),
            ("recantodasvideiras.com.br", ""),
        ] {
            let verdict = decide(200, &answer(host, action), Some(HERE));
            assert!(matches!(verdict, Verdict::Elsewhere(_)), "{host} {action}");
            assert_eq!(into_result(verdict).unwrap_err().status(), 422);
        }
        let without = r#"{"success":true,"error-codes":[],"hostname":"recantodasvideiras.com.br"}"#;
        assert!(matches!(
            decide(200, without, Some(HERE)),
            Verdict::Elsewhere(_)
        ));
    }

    #[test]
    fn cloudflares_test_secrets_answer_for_example_com_and_are_asked_no_host() {
        assert!(is_test_secret("1x0000000000000000000000000000000AA"));
        assert!(is_test_secret("3x0000000000000000000000000000000AA"));
        assert!(!is_test_secret("0x4AAAAAAAB-real-secret"));
        let answer = r#"{"success":true,"error-codes":[],"challenge_ts":"2026-11-22T10:00:00Z","hostname":"example.com"}"#;
        assert_eq!(decide(200, answer, None), Verdict::Passed);
    }

    #[test]
    fn an_invalid_or_spent_token_is_the_visitors_to_fix() {
        for codes in [
            r#"["invalid-input-response"]"#,
            r#"["timeout-or-duplicate"]"#,
            r#"[]"#,
        ] {
            let answer = format!(r#"{{"success":false,"error-codes":{codes}}}"#);
            assert_eq!(
                decide(200, &answer, Some(HERE)),
                Verdict::Refused(messages::TURNSTILE_REFUSED),
                "{codes}"
            );
        }
    }

    #[test]
    fn a_wrong_secret_or_a_broken_service_is_unavailable_not_the_visitors_fault() {
        let wrong_secret = r#"{"success":false,"error-codes":["invalid-input-secret"]}"#;
        assert!(matches!(
            decide(200, wrong_secret, Some(HERE)),
            Verdict::Unavailable(_)
        ));
        let internal = r#"{"success":false,"error-codes":["internal-error"]}"#;
        assert!(matches!(
            decide(200, internal, Some(HERE)),
            Verdict::Unavailable(_)
        ));
        assert!(matches!(
            decide(503, "{}", Some(HERE)),
            Verdict::Unavailable(_)
        ));
        assert!(matches!(
            decide(200, "<html>oops</html>", Some(HERE)),
            Verdict::Unavailable(_)
        ));
    }

    #[test]
    fn a_refusal_is_a_422_naming_the_widget_and_an_outage_a_502() {
        let refused = into_result(Verdict::Refused(messages::TURNSTILE_REFUSED)).unwrap_err();
        assert_eq!(refused.status(), 422);
        assert_eq!(refused.message(), messages::TURNSTILE_REFUSED);
        let ApiError::Unprocessable { fields, .. } = refused else {
            panic!("not a 422")
        };
        assert!(fields.iter().any(|(name, _)| *name == TOKEN_FIELD));
        let down = into_result(Verdict::Unavailable("x".into())).unwrap_err();
        assert_eq!(down.status(), 502);
        assert_eq!(down.message(), messages::TURNSTILE_UNAVAILABLE);
    }
}
