//! Outgoing e-mail through an HTTP API (Resend-style: `POST {base}/emails`
//! with a bearer key and a JSON body). Without a key, a deployed worker
//! sends nothing and the features that need e-mail say so; only where
//! `MAIL_LOG_ONLY` is set (local development: `make dev` sets it in
//! .dev.vars) is the message written to the worker's log instead, so
//! everything works offline. A link in a log is a link anyone with access to
//! the logs could use: production never does that.

pub mod escape;

use std::time::Duration;

use sha2::{Digest, Sha256};
use worker::Env;

use crate::cron_state::{self, mail_failed_at, mail_sent_at};
use crate::platform::{HostError, HostResult};
use crate::{agency, config, json, outbound, platform};

const DEFAULT_MAIL_API_BASE_URL: &str = "https://api.resend.com";

/// The person waiting on a sign-up should not wait longer than this for the
/// e-mail API; an answer that late is treated as a failure.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// A message in plain text and HTML.
#[derive(Debug)]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// What makes this message one message: sent again under the same key
    /// within a day (after an answer lost to the timeout), the e-mail API
    /// sends it once. `None`: the message's own words, so a retry of the same
    /// message is one and a different one is not.
    pub once: Option<String>,
}

impl Email {
    /// The `Idempotency-Key` the message is sent with (at most 256 characters,
    /// as the API allows).
    pub fn idempotency_key(&self) -> String {
        if let Some(once) = &self.once {
            return once.chars().take(256).collect();
        }
        let mut digest = Sha256::new();
        for part in [&self.to, &self.subject, &self.text, &self.html] {
            digest.update(part.as_bytes());
            digest.update([0]);
        }
        digest
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

/// A message written once for both its parts: paragraphs and links, each
/// value escaped for the part it goes in ([`escape`]).
#[derive(Debug, Default)]
pub struct Letter {
    parts: Vec<Part>,
}

#[derive(Debug)]
enum Part {
    Paragraph(String),
    Link { label: String, url: String },
}

impl Letter {
    pub fn new() -> Self {
        Self::default()
    }

    /// A paragraph of `text`.
    pub fn paragraph(mut self, text: impl Into<String>) -> Self {
        self.parts.push(Part::Paragraph(text.into()));
        self
    }

    /// A link: `label: url` in the text part, a link named `label` in the HTML.
    pub fn link(mut self, label: &str, url: &str) -> Self {
        self.parts.push(Part::Link {
            label: label.to_string(),
            url: url.to_string(),
        });
        self
    }

    /// The message to `to` under `subject` (a subject is one line, too).
    pub fn to(self, to: &str, subject: &str) -> Email {
        let text = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Paragraph(p) => escape::text(p),
                Part::Link { label, url } => {
                    format!("{}: {}", escape::text(label), escape::text(url))
                }
            })
            .collect::<Vec<_>>()
            .join("\n\n");
        let html = self
            .parts
            .iter()
            .map(|part| match part {
                Part::Paragraph(p) => format!("<p>{}</p>", escape::html(p)),
                Part::Link { label, url } => format!(
                    "<p><a href=\"{}\">{}</a></p>",
                    escape::html(url),
                    escape::html(label)
                ),
            })
            .collect();
        Email {
            to: to.to_string(),
            subject: escape::text(subject),
            text,
            html,
            once: None,
        }
    }
}

/// How this deployment sends e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Through the e-mail API, with this key.
    Api(String),
    /// Written to the log: local development only (`MAIL_LOG_ONLY`).
    Log,
    /// Not at all: no key and no local setting.
    Off,
}

impl Delivery {
    pub fn from_settings(key: Option<String>, log_only: Option<String>) -> Self {
        match (key, log_only) {
            (Some(key), _) => Delivery::Api(key),
            (None, Some(flag)) if matches!(flag.as_str(), "true" | "1" | "yes") => Delivery::Log,
            _ => Delivery::Off,
        }
    }
}

pub fn delivery(env: &Env) -> Delivery {
    Delivery::from_settings(
        config::setting(env, "MAIL_API_KEY"),
        config::setting(env, "MAIL_LOG_ONLY"),
    )
}

/// Whether e-mail can go out at all; features that depend on it refuse
/// up front, before anything is stored, when it cannot.
pub fn is_available(env: &Env) -> bool {
    delivery(env) != Delivery::Off
}

/// Sends `email`; an error means it was not accepted by the e-mail API (or
/// that e-mail is off here). What the API answered is noted (see [`note`]).
pub async fn send(env: &Env, email: &Email) -> HostResult<()> {
    let key = match delivery(env) {
        Delivery::Api(key) => key,
        Delivery::Log => {
            worker::console_log!(
                "[mail] MAIL_LOG_ONLY: not sending. To: {}\nSubject: {}\n\n{}",
                email.to,
                email.subject,
                email.text
            );
            return Ok(());
        }
        Delivery::Off => {
            return Err(HostError::new(
                "e-mail is off: MAIL_API_KEY is not set (MAIL_LOG_ONLY only in local development)",
            ));
        }
    };
    let outcome = post(env, &key, email).await;
    note(env, outcome.is_ok()).await;
    outcome
}

/// Sends `email` after the answer (`wait_until`): what it says is news, not
/// something the request waits for; a failure is logged.
pub fn send_later(ctx: &worker::Context, env: &Env, email: Email) {
    let env = env.clone();
    ctx.wait_until(async move {
        if let Err(error) = send(&env, &email).await {
            worker::console_error!("mail: '{}' was not sent: {error}", email.subject);
        }
    });
}

/// Notes in `cron_state` that the API took a message now (`mail_sent_at`),
/// or did not (`mail_failed_at`): `/api/health` and the panel say e-mail is
/// failing while the later one is a failure (`alerts::heartbeat`). A note
/// that cannot be written is logged: the e-mail's own outcome is what the
/// caller acts on.
async fn note(env: &Env, sent: bool) {
    let state = if sent {
        mail_sent_at!()
    } else {
        mail_failed_at!()
    };
    let noted = match config::database(env) {
        Ok(db) => cron_state::note(&db, state, platform::now_ms()).await,
        Err(e) => Err(e),
    };
    if let Err(e) = noted {
        worker::console_error!("mail: noting {state} failed: {e}");
    }
}

async fn post(env: &Env, key: &str, email: &Email) -> HostResult<()> {
    let base = config::setting(env, "MAIL_API_BASE_URL")
        .unwrap_or_else(|| DEFAULT_MAIL_API_BASE_URL.into());
    let from = config::setting(env, "MAIL_FROM").unwrap_or_else(default_from);
    let body = json::object()
        .field("from", &from)
        .field("to", json::Json::strings([email.to.as_str()]))
        .field("subject", &email.subject)
        .field("text", &email.text)
        .field("html", &email.html)
        .end()
        .into_string();
    let authorization = format!("Bearer {key}");
    let once = email.idempotency_key();
    let headers = [
        ("Authorization", authorization.as_str()),
        ("Content-Type", "application/json"),
        ("Idempotency-Key", once.as_str()),
    ];
    let url = format!("{}/emails", base.trim_end_matches('/'));
    let request = outbound::post(&url, &headers, &body.into())?;
    let secrets = [key];
    match outbound::send(request, TIMEOUT).await {
        Ok(answer) if answer.is_success() => Ok(()),
        Ok(answer) => Err(HostError::new(format!(
            "the e-mail API answered {}: {}",
            answer.status,
            outbound::redact(&answer.body, &secrets, 200)
        ))),
        Err(failure) => Err(HostError::new(format!(
            "the e-mail API: {}",
            failure.describe(&secrets)
        ))),
    }
}

fn default_from() -> String {
    format!(
        "{} <nao-responda@{}>",
        agency::DEVELOPMENT_NAME,
        agency::STAFF_EMAIL_DOMAIN
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_writes_each_part_once_escaped_for_it() {
        let mail = Letter::new()
            .paragraph("A conta <b>ana@x</b> entrou.\u{2028}Ver no painel: https://mal.example")
            .link(
                "Abrir 'Equipe'",
                "https://site.example/admin/equipe?a=1&b=2",
            )
            .to("dono@agencia.com.br", "Novo acesso:\nfalso");
        assert_eq!(mail.subject, "Novo acesso: falso");
        assert_eq!(
            mail.text,
            "A conta <b>ana@x</b> entrou. Ver no painel: https://mal.example\n\n\
             Abrir 'Equipe': https://site.example/admin/equipe?a=1&b=2"
        );
        assert_eq!(
            mail.html,
            "<p>A conta &lt;b&gt;ana@x&lt;/b&gt; entrou. Ver no painel: https://mal.example</p>\
             <p><a href=\"https://site.example/admin/equipe?a=1&amp;b=2\">Abrir &#39;Equipe&#39;</a></p>"
        );
    }

    fn email(text: &str, once: Option<&str>) -> Email {
        Email {
            to: "ana@agencia.com.br".into(),
            subject: "Novo lead no site".into(),
            text: text.into(),
            html: format!("<p>{text}</p>"),
            once: once.map(Into::into),
        }
    }

    #[test]
    fn a_message_sent_again_carries_the_same_key_and_another_message_another() {
        let key = email("Ana Souza", None).idempotency_key();
        assert_eq!(key.len(), 64);
        assert_eq!(key, email("Ana Souza", None).idempotency_key());
        assert_ne!(key, email("Ana Souza, Bia Lima", None).idempotency_key());
        // A copy of an incident's e-mail is one message by its row, however its
        // words compare with another copy's.
        assert_eq!(
            email("a", Some("incident-mail-7")).idempotency_key(),
            email("b", Some("incident-mail-7")).idempotency_key()
        );
        assert_ne!(
            email("a", Some("incident-mail-7")).idempotency_key(),
            email("a", Some("incident-mail-8")).idempotency_key()
        );
    }

    #[test]
    fn a_key_sends_through_the_api_and_only_the_local_setting_writes_to_the_log() {
        assert_eq!(
            Delivery::from_settings(Some("k".into()), Some("true".into())),
            Delivery::Api("k".into())
        );
        assert_eq!(
            Delivery::from_settings(None, Some("true".into())),
            Delivery::Log
        );
        assert_eq!(Delivery::from_settings(None, None), Delivery::Off);
        assert_eq!(
            Delivery::from_settings(None, Some("false".into())),
            Delivery::Off
        );
    }
}
