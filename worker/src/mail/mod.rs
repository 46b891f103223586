//! Outgoing e-mail through an HTTP API (Resend-style: `POST {base}/emails`
//! with a bearer key and a JSON body). Without a key, a deployed worker
//! sends nothing and the features that need e-mail say so; only where
//! `MAIL_LOG_ONLY` is set (local development: `make dev` sets it in
//! .dev.vars) is the message written to the worker's log instead, so
//! everything works offline. A link in a log is a link anyone with access to
//! the logs could use: production never does that.

pub mod escape;

use std::time::Duration;

use serde::Serialize;
use sha2::{Digest, Sha256};
use worker::Env;

use crate::agency;
use crate::http::outbound;
use crate::platform::cron_state::{self, mail_failed_at, mail_sent_at};
use crate::platform::{self, config};

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
        crate::platform::signing::hex(&digest.finalize())
    }
}

/// A message before it has an address: what the owners' copies of an
/// incident's e-mails keep until they go (`alerts::owner_mails`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl Written {
    /// The message to `to`.
    pub fn to(self, to: &str) -> Email {
        Email {
            to: to.to_string(),
            subject: self.subject,
            text: self.text,
            html: self.html,
            once: None,
        }
    }
}

/// Every e-mail the worker sends is written here, once for both its parts:
/// blocks of lines, each value escaped for the part it goes in ([`escape`]),
/// the markup of the HTML part written nowhere else. A block or a stretch of
/// a line can be kept to one part, where the two say a thing their own way
/// (a button in the HTML, its address spelled out in the text).
#[derive(Debug, Default)]
pub struct Letter {
    framed: bool,
    blocks: Vec<Block>,
}

/// Which of a message's two parts shows something.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Text,
    Html,
}

/// A block of a [`Letter`]: its lines, one paragraph of the HTML part, set
/// apart by a blank line in the text part.
#[derive(Debug)]
pub struct Block {
    kind: BlockKind,
    only: Option<Part>,
    lines: Vec<Vec<Span>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Paragraph,
    /// An entry of a list: a bullet before its first line in the text part,
    /// the others indented under it.
    Item,
    /// The small print at the end.
    Note,
}

/// A stretch of a line.
#[derive(Debug)]
pub struct Span {
    kind: SpanKind,
    only: Option<Part>,
}

#[derive(Debug)]
enum SpanKind {
    Plain(String),
    Strong(String),
    Emphasis(String),
    /// `label: url` in the text part, a link named `label` in the HTML.
    Link {
        label: String,
        url: String,
    },
}

impl Span {
    pub fn plain(text: impl Into<String>) -> Self {
        Self::of(SpanKind::Plain(text.into()))
    }

    /// Bold in the HTML part, plain in the text.
    pub fn strong(text: impl Into<String>) -> Self {
        Self::of(SpanKind::Strong(text.into()))
    }

    /// In italics in the HTML part, plain in the text.
    pub fn emphasis(text: impl Into<String>) -> Self {
        Self::of(SpanKind::Emphasis(text.into()))
    }

    /// `label: url` in the text part, a link named `label` in the HTML.
    pub fn link(label: impl Into<String>, url: impl Into<String>) -> Self {
        Self::of(SpanKind::Link {
            label: label.into(),
            url: url.into(),
        })
    }

    /// Shown in the text part only.
    pub fn text_only(self) -> Self {
        Self {
            only: Some(Part::Text),
            ..self
        }
    }

    /// Shown in the HTML part only.
    pub fn html_only(self) -> Self {
        Self {
            only: Some(Part::Html),
            ..self
        }
    }

    fn of(kind: SpanKind) -> Self {
        Self { kind, only: None }
    }

    fn write(&self, part: Part, out: &mut String) {
        if self.only.is_some_and(|only| only != part) {
            return;
        }
        match (&self.kind, part) {
            (SpanKind::Plain(t) | SpanKind::Strong(t) | SpanKind::Emphasis(t), Part::Text) => {
                out.push_str(&escape::text(t))
            }
            (SpanKind::Link { label, url }, Part::Text) => {
                out.push_str(&format!("{}: {}", escape::text(label), escape::text(url)))
            }
            (SpanKind::Plain(t), Part::Html) => out.push_str(&escape::html(t)),
            (SpanKind::Strong(t), Part::Html) => {
                out.push_str(&format!("<strong>{}</strong>", escape::html(t)))
            }
            (SpanKind::Emphasis(t), Part::Html) => {
                out.push_str(&format!("<em>{}</em>", escape::html(t)))
            }
            (SpanKind::Link { label, url }, Part::Html) => out.push_str(&format!(
                "<a href=\"{}\">{}</a>",
                escape::html(url),
                escape::html(label)
            )),
        }
    }
}

impl From<&str> for Span {
    fn from(text: &str) -> Self {
        Span::plain(text)
    }
}

impl From<String> for Span {
    fn from(text: String) -> Self {
        Span::plain(text)
    }
}

impl Block {
    pub fn paragraph() -> Self {
        Self::of(BlockKind::Paragraph)
    }

    /// An entry of a list: `• ` before its first line in the text part, its
    /// other lines indented under it.
    pub fn item() -> Self {
        Self::of(BlockKind::Item)
    }

    /// The small print at the end: in small grey letters in the HTML part.
    pub fn note() -> Self {
        Self::of(BlockKind::Note)
    }

    /// One more line, of these stretches.
    pub fn line<S: Into<Span>>(mut self, spans: impl IntoIterator<Item = S>) -> Self {
        self.lines.push(spans.into_iter().map(Into::into).collect());
        self
    }

    /// Shown in the text part only.
    pub fn text_only(self) -> Self {
        Self {
            only: Some(Part::Text),
            ..self
        }
    }

    /// Shown in the HTML part only.
    pub fn html_only(self) -> Self {
        Self {
            only: Some(Part::Html),
            ..self
        }
    }

    fn of(kind: BlockKind) -> Self {
        Self {
            kind,
            only: None,
            lines: Vec::new(),
        }
    }

    fn shown_in(&self, part: Part) -> bool {
        self.only.is_none_or(|only| only == part)
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            match (self.kind, i) {
                (BlockKind::Item, 0) => out.push_str("• "),
                (BlockKind::Item, _) => out.push_str("  "),
                _ => {}
            }
            for span in line {
                span.write(Part::Text, &mut out);
            }
        }
        out
    }

    fn html(&self) -> String {
        let mut out = String::from(match self.kind {
            BlockKind::Paragraph | BlockKind::Item => "<p>",
            BlockKind::Note => "<p style=\"color:#666;font-size:13px\">",
        });
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push_str("<br>");
            }
            for span in line {
                span.write(Part::Html, &mut out);
            }
        }
        out.push_str("</p>");
        out
    }
}

impl Letter {
    pub fn new() -> Self {
        Self::default()
    }

    /// The HTML part in the frame of the cron's e-mails (alerts and
    /// notices): sans-serif, with room between the lines.
    pub fn framed(mut self) -> Self {
        self.framed = true;
        self
    }

    /// A paragraph of `text`.
    pub fn paragraph(self, text: impl Into<String>) -> Self {
        self.block(Block::paragraph().line([Span::plain(text)]))
    }

    /// A link: `label: url` in the text part, a link named `label` in the HTML.
    pub fn link(self, label: &str, url: &str) -> Self {
        self.block(Block::paragraph().line([Span::link(label, url)]))
    }

    pub fn block(mut self, block: Block) -> Self {
        self.blocks.push(block);
        self
    }

    /// The message under `subject` (a subject is one line, too).
    pub fn write(self, subject: &str) -> Written {
        let text = self
            .blocks
            .iter()
            .filter(|b| b.shown_in(Part::Text))
            .map(Block::text)
            .collect::<Vec<_>>()
            .join("\n\n");
        let mut html: String = self
            .blocks
            .iter()
            .filter(|b| b.shown_in(Part::Html))
            .map(Block::html)
            .collect();
        if self.framed {
            html = format!("<div style=\"font-family:sans-serif;line-height:1.5\">{html}</div>");
        }
        Written {
            subject: escape::text(subject),
            text,
            html,
        }
    }

    /// The message to `to` under `subject`.
    pub fn to(self, to: &str, subject: &str) -> Email {
        self.write(subject).to(to)
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
pub async fn send(env: &Env, email: &Email) -> worker::Result<()> {
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
            return Err(worker::Error::from(
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

async fn post(env: &Env, key: &str, email: &Email) -> worker::Result<()> {
    let base = config::setting(env, "MAIL_API_BASE_URL")
        .unwrap_or_else(|| DEFAULT_MAIL_API_BASE_URL.into());
    let from = config::setting(env, "MAIL_FROM").unwrap_or_else(default_from);
    let body = ApiBody {
        from: &from,
        to: [&email.to],
        subject: &email.subject,
        text: &email.text,
        html: &email.html,
    };
    let authorization = format!("Bearer {key}");
    let once = email.idempotency_key();
    let headers = [
        ("Authorization", authorization.as_str()),
        ("Content-Type", "application/json"),
        ("Idempotency-Key", once.as_str()),
    ];
    let url = format!("{}/emails", base.trim_end_matches('/'));
    let request = outbound::post(&url, &headers, serde_json::to_string(&body)?)?;
    let secrets = [key];
    match outbound::send(request, TIMEOUT).await {
        Ok(answer) if answer.is_success() => Ok(()),
        Ok(answer) => Err(worker::Error::from(format!(
            "the e-mail API answered {}: {}",
            answer.status,
            outbound::redact(&answer.body, &secrets, 200)
        ))),
        Err(failure) => Err(worker::Error::from(format!(
            "the e-mail API: {}",
            failure.describe(&secrets)
        ))),
    }
}

/// The e-mail API's request body.
#[derive(Serialize)]
struct ApiBody<'a> {
    from: &'a str,
    to: [&'a str; 1],
    subject: &'a str,
    text: &'a str,
    html: &'a str,
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

    #[test]
    fn a_list_its_small_print_and_what_one_part_says_its_own_way() {
        let mail = Letter::new()
            .framed()
            .block(Block::paragraph().line([Span::strong("Resumo <1>")]))
            .block(
                Block::item()
                    .line([
                        Span::plain("Ana"),
                        Span::plain(", ").text_only(),
                        Span::plain(" · ").html_only(),
                        Span::plain("hoje"),
                    ])
                    .line([Span::emphasis("O que fazer:"), Span::plain(" nada")])
                    .line([Span::link("Ver no painel", "https://s/a?b=1&c=2")]),
            )
            .block(Block::paragraph().text_only().line(["Painel: https://s"]))
            .block(
                Block::paragraph()
                    .html_only()
                    .line([Span::link("Abrir o painel", "https://s")]),
            )
            .block(Block::note().line(["linha 1"]).line([""]).line(["linha 3"]))
            .write("Assunto");
        assert_eq!(
            mail.text,
            "Resumo <1>\n\n\
             • Ana, hoje\n  O que fazer: nada\n  Ver no painel: https://s/a?b=1&c=2\n\n\
             Painel: https://s\n\n\
             linha 1\n\nlinha 3"
        );
        assert_eq!(
            mail.html,
            "<div style=\"font-family:sans-serif;line-height:1.5\">\
             <p><strong>Resumo &lt;1&gt;</strong></p>\
             <p>Ana · hoje<br><em>O que fazer:</em> nada<br>\
             <a href=\"https://s/a?b=1&amp;c=2\">Ver no painel</a></p>\
             <p><a href=\"https://s\">Abrir o painel</a></p>\
             <p style=\"color:#666;font-size:13px\">linha 1<br><br>linha 3</p></div>"
        );
        let to = mail.clone().to("ana@agencia.com.br");
        assert_eq!(
            (to.to.as_str(), to.subject.as_str()),
            ("ana@agencia.com.br", "Assunto")
        );
    }

    #[test]
    fn the_e_mail_api_gets_the_message_as_its_json() {
        let body = ApiBody {
            from: "Site <nao-responda@x.com>",
            to: ["ana@agencia.com.br"],
            subject: "Novo lead no site",
            text: "• \"Ana\"\n  Ver",
            html: "<p>Ana</p>",
        };
        assert_eq!(
            serde_json::to_string(&body).unwrap(),
            r#"{"from":"Site <nao-responda@x.com>","to":["ana@agencia.com.br"],"subject":"Novo lead no site","text":"• \"Ana\"\n  Ver","html":"<p>Ana</p>"}"#
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
