//! Calls to services outside our control (Jetimob, Turnstile, the e-mail API):
//! one way to send them, with a deadline, a cap on how much of the answer is
//! read, and error texts that never carry a secret.

use std::time::Duration;

use futures_util::future::{Either, select};
use futures_util::pin_mut;
use worker::{
    AbortController, Delay, Fetch, Headers, Method, Request, RequestInit, RequestRedirect,
};

use crate::http::read_up_to;

/// The start of an answer is all any caller needs: an id in a small JSON
/// object, or the first words of an error.
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

/// What the other side answered, whatever the status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    /// At most [`MAX_ANSWER_BYTES`] of the body, as text.
    pub body: String,
    /// How long it asked to be left alone (`Retry-After`, in seconds), if it did.
    pub retry_after: Option<u64>,
}

impl Answer {
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// The seconds of a `Retry-After` header: a number of seconds (the form
/// APIs send); an HTTP date, or anything else, is `None` (the caller waits
/// its own default).
pub fn retry_after_seconds(header: &str) -> Option<u64> {
    header.trim().parse::<u64>().ok()
}

/// Why no answer came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// Nothing within the deadline; the request was aborted.
    Timeout(Duration),
    /// The request did not get through (DNS, connection, TLS, a bad URL…).
    Network(String),
}

impl Failure {
    /// One line for a log or a stored error, with every secret blanked out.
    pub fn describe(&self, secrets: &[&str]) -> String {
        match self {
            Failure::Timeout(limit) => format!("no answer within {} s", limit.as_secs()),
            Failure::Network(detail) => format!("network: {}", redact(detail, secrets, 300)),
        }
    }
}

/// A POST of `body` to `url`, with these headers. A redirect is answered
/// back, not followed: followed, a 301 or 302 turns the POST into a GET
/// without its body, and whatever answers that GET 200 (a login page, the
/// https side of an http address) would read as the lead, the e-mail or the
/// check taken.
///
/// The body is text (JSON, a URL-encoded form) or a `FormData` (Jetimob's
/// multipart form, its boundary in the Content-Type the runtime writes).
pub fn post(
    url: &str,
    headers: &[(&str, &str)],
    body: impl Into<wasm_bindgen::JsValue>,
) -> worker::Result<Request> {
    let sent = Headers::new();
    for (name, value) in headers {
        // Values come from settings too (the API keys): one pasted with a
        // line break inside is refused here, named but not shown.
        if sent.set(name, value).is_err() {
            return Err(worker::Error::from(format!(
                "the {name} header cannot carry its setting's value (a line break inside it?)"
            )));
        }
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_redirect(RequestRedirect::Manual)
        .with_headers(sent)
        .with_body(Some(body.into()));
    Request::new_with_init(url, &init)
}

/// Sends `request` and reads its answer, giving up after `timeout` (the
/// request is aborted then, so nothing keeps running after the caller moved on).
pub async fn send(request: Request, timeout: Duration) -> Result<Answer, Failure> {
    send_up_to(request, timeout, MAX_ANSWER_BYTES).await
}

/// [`send`], reading up to `max_bytes` of the answer: a page of data (Meta's
/// spend insights) rather than an id or an error.
pub async fn send_up_to(
    request: Request,
    timeout: Duration,
    max_bytes: usize,
) -> Result<Answer, Failure> {
    let network = |e: worker::Error| Failure::Network(e.to_string());
    let controller = AbortController::default();
    let signal = controller.signal();
    let fetch = Fetch::Request(request);
    let exchange = async {
        let mut response = fetch.send_with_signal(&signal).await.map_err(network)?;
        let status = response.status_code();
        let retry_after = response
            .headers()
            .get("Retry-After")
            .ok()
            .flatten()
            .and_then(|h| retry_after_seconds(&h));
        // An unreadable body does not change what the status said.
        let body = match response.stream() {
            Ok(stream) => read_up_to(stream, max_bytes)
                .await
                .map(|(bytes, _)| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default(),
            Err(_) => String::new(),
        };
        Ok(Answer {
            status,
            body,
            retry_after,
        })
    };
    let timer = Delay::from(timeout);
    pin_mut!(exchange, timer);
    match select(exchange, timer).await {
        Either::Left((answer, _)) => answer,
        Either::Right(((), _)) => {
            controller.abort();
            Err(Failure::Timeout(timeout))
        }
    }
}

/// `text` on one line, every non-empty secret replaced by `[chave]`, cut to
/// `max_chars`. Secrets go first, so a cut can never leave part of one behind.
pub fn redact(text: &str, secrets: &[&str], max_chars: usize) -> String {
    let mut clean = text.split_whitespace().collect::<Vec<_>>().join(" ");
    clean.retain(|c| !c.is_control());
    // Longest first: a short secret inside a longer one must not leave the
    // rest of the longer one readable.
    let mut secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    secrets.sort_unstable_by_key(|s| std::cmp::Reverse(s.len()));
    for secret in secrets {
        clean = clean.replace(secret, "[chave]");
    }
    if clean.chars().count() <= max_chars {
        return clean;
    }
    let mut cut: String = clean.chars().take(max_chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn an_answer_is_a_success_only_with_a_2xx_status() {
        let answer = |status| Answer {
            status,
            body: String::new(),
            retry_after: None,
        };
        assert!(answer(200).is_success());
        assert!(answer(204).is_success());
        assert!(!answer(301).is_success());
        assert!(!answer(401).is_success());
        assert!(!answer(500).is_success());
    }

    #[test]
    fn retry_after_is_read_in_seconds_and_a_date_is_left_to_the_caller() {
        assert_eq!(retry_after_seconds("30"), Some(30));
        assert_eq!(retry_after_seconds(" 120 "), Some(120));
        assert_eq!(retry_after_seconds("Wed, 21 Oct 2026 07:28:00 GMT"), None);
        assert_eq!(retry_after_seconds("-1"), None);
    }

    #[test]
    fn secrets_are_blanked_and_the_text_kept_on_one_line() {
        assert_eq!(
            redact(
                "bad key\n  s3cret for /x/pub-k3y",
                &["s3cret", "pub-k3y", ""],
                200
            ),
            "bad key [chave] for /x/[chave]"
        );
    }

    #[test]
    fn a_long_text_is_cut_with_an_ellipsis() {
        let cut = redact(&"a".repeat(500), &[], 200);
        assert_eq!(cut.chars().count(), 200);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn a_failure_names_its_deadline_or_the_network_error_without_secrets() {
        assert_eq!(
            Failure::Timeout(Duration::from_secs(5)).describe(&[]),
            "no answer within 5 s"
        );
        let network = Failure::Network("connect to https://x/leads/pub-k3y failed".into());
        assert_eq!(
            network.describe(&["pub-k3y"]),
            "network: connect to https://x/leads/[chave] failed"
        );
    }

    proptest! {
        #[test]
        fn no_secret_survives_however_the_text_is_shaped(
            before in ".{0,300}",
            after in ".{0,300}",
            secret in "[A-Za-z0-9_-]{8,40}",
            max in 20usize..400,
        ) {
            let text = format!("{before}{secret}{after}{secret}");
            let clean = redact(&text, &["pub", &secret], max);
            prop_assert!(!clean.contains(&secret));
            prop_assert!(clean.chars().count() <= max);
        }
    }
}
