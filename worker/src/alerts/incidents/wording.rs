//! What an incident says: the banner's and the alerts' subjects and lines,
//! and the alert and recovery e-mails.

use serde::Serialize;

use super::rules::{Incident, Reason};
use crate::agency::{self, messages};
use crate::formats::dates::format_date;
use crate::mail::{Block, Letter, Span, Written};

/// What an open incident says: a line for the banner and the e-mail, and
/// for each reason what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    pub summary: String,
    pub details: Vec<(String, String)>,
    /// What became of the leads: all kept, or some visitors refused.
    pub kept: &'static str,
    /// Whether leads are not arriving at all, or a few were refused.
    pub standing: Standing,
}

/// What an open trouble means for the leads, which the panel's banner tells
/// apart: no lead reaches Jetimob, or Jetimob takes them and refused a few.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Leads are not reaching Jetimob: it is down (a backlog), refuses our
    /// keys, delivery is off, or the cron that sends them stopped.
    Down,
    /// Jetimob takes leads, but refused some for good: they wait for a person.
    Refused,
    /// Neither: corrections, the form, the webhook, e-mail.
    Other,
}

/// The [`Standing`] of an incident open for `reasons`.
pub fn standing(reasons: &[Reason]) -> Standing {
    let any = |wanted: &[Reason]| reasons.iter().any(|r| wanted.contains(r));
    if any(&[Reason::KeysRefused, Reason::Backlog, Reason::Off]) {
        Standing::Down
    } else if any(&[Reason::GivenUp]) {
        Standing::Refused
    } else {
        Standing::Other
    }
}

/// What an incident is about, which names its alert, its banner and its end.
enum Topic {
    /// Leads failing to reach Jetimob (its keys, a backlog, delivery off):
    /// whatever else is wrong beside it.
    Leads,
    Corrections,
    Form,
    Webhook,
    Meta,
    /// Several of the troubles above, none of them the leads (the alert lists each).
    Site,
}

fn topic(reasons: &[Reason]) -> Topic {
    let about_leads = reasons.iter().any(|r| {
        matches!(
            r,
            Reason::KeysRefused | Reason::Backlog | Reason::GivenUp | Reason::Off
        )
    });
    match reasons {
        _ if about_leads => Topic::Leads,
        [] => Topic::Leads,
        [Reason::Corrections] => Topic::Corrections,
        [Reason::FormBlocked] => Topic::Form,
        [Reason::WebhookFailing] => Topic::Webhook,
        [Reason::MetaRefused] => Topic::Meta,
        _ => Topic::Site,
    }
}

/// The alert's subject and the banner's first words.
pub fn headline(reasons: &[Reason]) -> &'static str {
    match topic(reasons) {
        Topic::Leads => messages::DELIVERY_ALERT_SUBJECT,
        Topic::Corrections => messages::CORRECTIONS_ALERT_SUBJECT,
        Topic::Form => messages::FORM_ALERT_SUBJECT,
        Topic::Webhook => messages::WEBHOOK_ALERT_SUBJECT,
        Topic::Meta => messages::META_ALERT_SUBJECT,
        Topic::Site => messages::SITE_ALERT_SUBJECT,
    }
}

/// The recovery's subject and line, speaking of what the alert named.
pub fn recovery(named: &[Reason], since: &str) -> (&'static str, String) {
    match topic(named) {
        Topic::Leads => (
            messages::DELIVERY_RECOVERED_SUBJECT,
            messages::delivery_recovered(since),
        ),
        Topic::Corrections => (
            messages::CORRECTIONS_RECOVERED_SUBJECT,
            messages::corrections_recovered(since),
        ),
        Topic::Form => (
            messages::FORM_RECOVERED_SUBJECT,
            messages::form_recovered(since),
        ),
        Topic::Webhook => (
            messages::WEBHOOK_RECOVERED_SUBJECT,
            messages::webhook_recovered(since),
        ),
        Topic::Meta => (
            messages::META_RECOVERED_SUBJECT,
            messages::meta_recovered(since),
        ),
        Topic::Site => (
            messages::SITE_RECOVERED_SUBJECT,
            messages::site_recovered(since),
        ),
    }
}

pub fn describe(incident: &Incident) -> Words {
    let since = format_date(incident.started_at);
    let reasons = incident.reasons();
    let details = reasons
        .iter()
        .map(|reason| match reason {
            Reason::KeysRefused => (
                messages::DELIVERY_KEYS_REFUSED.to_string(),
                messages::DELIVERY_KEYS_REFUSED_TODO.to_string(),
            ),
            Reason::Backlog => (
                messages::DELIVERY_BACKLOG.to_string(),
                messages::DELIVERY_BACKLOG_TODO.to_string(),
            ),
            Reason::GivenUp => (
                messages::DELIVERY_GIVEN_UP.to_string(),
                messages::DELIVERY_GIVEN_UP_TODO.to_string(),
            ),
            Reason::Corrections => (
                messages::DELIVERY_CORRECTIONS.to_string(),
                messages::DELIVERY_CORRECTIONS_TODO.to_string(),
            ),
            Reason::Off => (
                messages::DELIVERY_OFF.to_string(),
                messages::DELIVERY_OFF_TODO.to_string(),
            ),
            Reason::FormBlocked => (
                messages::FORM_BLOCKED.to_string(),
                messages::FORM_BLOCKED_TODO.to_string(),
            ),
            Reason::WebhookFailing => (
                messages::WEBHOOK_FAILING.to_string(),
                messages::WEBHOOK_FAILING_TODO.to_string(),
            ),
            Reason::MetaRefused => (
                messages::META_REFUSED.to_string(),
                messages::META_REFUSED_TODO.to_string(),
            ),
        })
        .collect();
    let kept = if reasons.contains(&Reason::FormBlocked) {
        messages::ALERT_VISITORS_REFUSED
    } else {
        messages::ALERT_LEADS_KEPT
    };
    // The count is of the leads not in Jetimob: not what Meta's trouble is about.
    let waiting = match topic(&reasons) {
        Topic::Meta => 0,
        _ => incident.waiting,
    };
    Words {
        summary: messages::delivery_incident(headline(&reasons), &since, waiting),
        details,
        kept,
        standing: standing(&reasons),
    }
}

/// The alert e-mail: what is wrong and what to do, with the panel of the
/// site at `origin`.
pub(super) fn alert_email(subject: &str, words: &Words, origin: &str) -> Written {
    let panel = format!("{origin}/admin");
    let development = agency::DEVELOPMENT_NAME;
    let mut letter = Letter::new()
        .framed()
        .block(Block::paragraph().line([Span::strong(&words.summary)]));
    for (what, todo) in &words.details {
        letter = letter.block(Block::item().line([what.as_str()]).line([
            Span::emphasis("O que fazer:"),
            Span::plain(format!(" {todo}")),
        ]));
    }
    letter
        .block(
            Block::note()
                .line([format!("{} Painel: {panel}", words.kept)])
                .line([""])
                .line([format!(
                    "Aviso automático do {development}; você o recebe por ser responsável pelo painel."
                )]),
        )
        .write(subject)
}

/// The recovery e-mail, with the panel of the site at `origin`.
pub(super) fn recovery_email(subject: &str, summary: &str, origin: &str) -> Written {
    let panel = format!("{origin}/admin");
    Letter::new()
        .framed()
        .paragraph(summary)
        .block(
            Block::paragraph()
                .text_only()
                .line([format!("Painel: {panel}")]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([Span::link("Abrir o painel", panel)]),
        )
        .write(subject)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_given_up_alone_are_refused_not_an_outage() {
        assert_eq!(standing(&[Reason::GivenUp]), Standing::Refused);
        assert_eq!(
            standing(&[Reason::GivenUp, Reason::WebhookFailing]),
            Standing::Refused
        );
        for down in [Reason::Backlog, Reason::KeysRefused, Reason::Off] {
            assert_eq!(standing(&[Reason::GivenUp, down]), Standing::Down);
        }
        assert_eq!(standing(&[Reason::FormBlocked]), Standing::Other);
        assert_eq!(standing(&[Reason::Corrections]), Standing::Other);
    }

    #[test]
    fn the_words_say_since_when_how_many_wait_and_what_to_do() {
        let incident = Incident {
            id: 1,
            started_at: 1_767_225_600_000,
            reasons: "keys_refused,backlog".into(),
            waiting: 4,
            alerted_at: None,
            alerted_reasons: None,
        };
        let words = describe(&incident);
        assert_eq!(
            words.summary,
            "Leads não estão chegando ao Jetimob desde 31/12/2025 21:00. 4 leads esperando envio."
        );
        assert_eq!(words.details.len(), 2);
        assert!(words.kept.starts_with("Nenhum lead se perde"));
        assert!(words.details[0].1.contains("JETIMOB_PRIVATE_KEY"));
        assert!(words.details[1].0.contains("mais de 15 minutos"));
    }

    #[test]
    fn several_troubles_none_about_leads_name_the_site_not_jetimob() {
        for reasons in [
            &[Reason::FormBlocked, Reason::WebhookFailing][..],
            &[Reason::Corrections, Reason::FormBlocked][..],
            &[Reason::Corrections, Reason::WebhookFailing][..],
        ] {
            assert_eq!(
                headline(reasons),
                "O site precisa de atenção",
                "{reasons:?}"
            );
            let (subject, line) = recovery(reasons, "24/11/2026 09:00");
            assert_eq!(subject, "Site normalizado", "{reasons:?}");
            assert!(!line.contains("Jetimob"), "{line}");
        }
        // A lead-level trouble among them names Jetimob, in the alert and its end.
        let keys = [Reason::KeysRefused, Reason::FormBlocked];
        assert_eq!(headline(&keys), messages::DELIVERY_ALERT_SUBJECT);
        assert_eq!(
            recovery(&keys, "24/11/2026 09:00").0,
            messages::DELIVERY_RECOVERED_SUBJECT
        );
    }
}
