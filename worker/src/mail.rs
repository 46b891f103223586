//! Outgoing e-mail through an HTTP API (Resend-style: `POST {base}/emails`
//! with a bearer key and a JSON body). Without a key, local development
//! writes the message to the worker's log instead, so everything works offline.

use std::time::Duration;

use serde::Serialize;
use worker::{Env, Headers, Method, Request, RequestInit};

use crate::{agency, config, outbound};

const DEFAULT_MAIL_API_BASE_URL: &str = "https://api.resend.com";

/// The person waiting on a sign-up should not wait longer than this for the
/// e-mail API; an answer that late is treated as a failure.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// A message in plain text and HTML.
#[derive(Debug, Serialize)]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

#[derive(Serialize)]
struct ApiBody<'a> {
    from: &'a str,
    to: [&'a str; 1],
    subject: &'a str,
    text: &'a str,
    html: &'a str,
}

/// Sends `email`; an error means it was not accepted by the e-mail API.
pub async fn send(env: &Env, email: &Email) -> worker::Result<()> {
    let Some(key) = config::setting(env, "MAIL_API_KEY") else {
        worker::console_log!(
            "[mail] MAIL_API_KEY is not set; not sending. To: {}\nSubject: {}\n\n{}",
            email.to,
            email.subject,
            email.text
        );
        return Ok(());
    };
    let base = config::setting(env, "MAIL_API_BASE_URL")
        .unwrap_or_else(|| DEFAULT_MAIL_API_BASE_URL.into());
    let from = config::setting(env, "MAIL_FROM").unwrap_or_else(default_from);
    let body = serde_json::to_string(&ApiBody {
        from: &from,
        to: [&email.to],
        subject: &email.subject,
        text: &email.text,
        html: &email.html,
    })?;
    let headers = Headers::new();
    headers.set("Authorization", &format!("Bearer {key}"))?;
    headers.set("Content-Type", "application/json")?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(&format!("{}/emails", base.trim_end_matches('/')), &init)?;
    let secrets = [key.as_str()];
    match outbound::send(request, TIMEOUT).await {
        Ok(answer) if answer.is_success() => Ok(()),
        Ok(answer) => Err(worker::Error::RustError(format!(
            "the e-mail API answered {}: {}",
            answer.status,
            outbound::redact(&answer.body, &secrets, 200)
        ))),
        Err(failure) => Err(worker::Error::RustError(format!(
            "the e-mail API: {}",
            failure.describe(&secrets)
        ))),
    }
}

fn default_from() -> String {
    let c = agency::config();
    format!(
        "{} <nao-responda@{}>",
        c.development.name, c.agency.staff_email_domain
    )
}

/// Escapes text for an HTML e-mail body.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn html_special_characters_are_escaped() {
        assert_eq!(
            super::escape_html(r#"<a href="x">O'Brien & co</a>"#),
            "&lt;a href=&quot;x&quot;&gt;O&#39;Brien &amp; co&lt;/a&gt;"
        );
    }
}
