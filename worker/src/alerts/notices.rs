//! New-lead notices: every minute, each staff member who has 'Receber aviso
//! de novos leads' on (owners by default) gets one e-mail listing every new
//! lead, and every lead whose visitor corrected their details, since the last
//! one they were told about. Switched-off accounts get nothing.
//!
//! Each person is claimed before their e-mail goes (a lease on their row), and
//! once it went the claim is held for a minute: however many cron runs
//! overlap, nobody gets more than one e-mail a minute, and nobody the same
//! lead twice (`notices_sent_through`, a submission id, moves only after a send).

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use serde::Deserialize;
use worker::Env;

use crate::agency;
use crate::agency::greeting::{greeting, whatsapp_chat};
use crate::formats::dates::format_date;
use crate::formats::whatsapp::{format_whatsapp, is_landline};
use crate::mail::{self, Block, Email, Letter, Span};
use crate::platform::db::{self, D1Database, query};
use crate::platform::{self, config};

/// At most one e-mail a minute per person.
const MIN_GAP_MS: i64 = 60 * 1000;
/// The most leads one e-mail lists; the rest go in the next minute's.
const MAX_PER_EMAIL: i64 = 200;
/// How long a claim holds a person while their e-mail is being sent.
const LEASE_MS: i64 = 30 * 1000;

const CLAIM_SQL: &str = "UPDATE staff_users SET notices_lease_until = ?2 \
     WHERE lead_notices = 1 AND disabled_at IS NULL AND confirmed_at IS NOT NULL \
       AND approved_at IS NOT NULL \
       AND (notices_lease_until IS NULL OR notices_lease_until < ?1) \
     RETURNING id, email, notices_sent_through";

/// Where a person told of new leads "from now on" starts: after the newest
/// submission (`notices_sent_through`), not at the first lead. Used wherever
/// notices start: switched on, a new owner, an account switched back on.
macro_rules! notices_from_now {
    () => {
        "(SELECT coalesce(max(id), 0) FROM lead_submissions)"
    };
}
pub(crate) use notices_from_now;

/// A person who just switched notices on starts from now, not from the first lead.
const START_SQL: &str = concat!(
    "UPDATE staff_users SET notices_lease_until = NULL, notices_sent_through = ",
    notices_from_now!(),
    " WHERE id = ?1"
);

/// After an e-mail went: told through `?2`, and held for a minute from `?3`.
const SENT_SQL: &str =
    "UPDATE staff_users SET notices_sent_through = ?2, notices_lease_until = ?3 WHERE id = ?1";

/// A person let go until `?2`: at once (NULL) when there was nothing to
/// tell, later when the e-mail API refused their notice.
const HOLD_SQL: &str = "UPDATE staff_users SET notices_lease_until = ?2 WHERE id = ?1";
/// The shortest and the longest hold after a refused notice.
const HOLD_MIN_MS: i64 = 60 * 1000;
const HOLD_MAX_MS: i64 = 60 * 60 * 1000;

/// How long a person whose notice was refused waits for the next try: half
/// as long as their oldest untold lead has waited, from a minute to an hour.
/// A blip of the e-mail API costs a minute; a mailbox it keeps refusing is
/// tried about once an hour, not every minute (each refusal noted as the
/// API failing, which `/api/health` and the panel's banner report).
pub fn hold_after_refusal(oldest_untold_at: i64, now: i64) -> i64 {
    ((now - oldest_untold_at) / 2).clamp(HOLD_MIN_MS, HOLD_MAX_MS)
}

/// New leads, corrections and changes waiting for staff after `?1`, oldest
/// first, with the lead's campaign and what a correction changed (the
/// details accepted before it) or a waiting change would change (the lead's
/// details now). A waiting change replaced by a newer one from its sender
/// before its notice went is no longer told (it is refused).
const NEWS_SQL: &str = "SELECT s.id, s.lead_id, s.submitted_at, s.kind, s.name, s.email, \
       s.whatsapp, s.origem, s.utm_campaign, \
       CASE WHEN s.kind = 'pending' \
         THEN (SELECT json_object('name', l.name, 'email', l.email, 'whatsapp', l.whatsapp) \
                 FROM leads l WHERE l.id = s.lead_id) \
         ELSE (SELECT json_object('name', p.name, 'email', p.email, 'whatsapp', p.whatsapp) \
                 FROM lead_submissions p WHERE p.lead_id = s.lead_id AND p.id < s.id \
                   AND p.kind NOT IN ('conflict', 'pending', 'refused') \
                 ORDER BY p.id DESC LIMIT 1) END AS before \
     FROM lead_submissions s \
     WHERE s.kind IN ('new', 'correction', 'pending') AND s.id > ?1 ORDER BY s.id LIMIT ?2";

#[derive(Debug, Deserialize)]
struct Recipient {
    id: String,
    email: String,
    notices_sent_through: Option<i64>,
}

/// A new lead, or a lead whose visitor sent new details.
#[derive(Debug, Clone, Deserialize)]
pub struct News {
    pub id: i64,
    pub lead_id: String,
    pub submitted_at: i64,
    /// 'new', 'correction' or 'pending' (a change waiting for staff).
    pub kind: String,
    pub name: String,
    pub email: String,
    pub whatsapp: String,
    pub origem: String,
    pub utm_campaign: Option<String>,
    /// For a correction: the details before, as JSON; for a waiting
    /// change: the lead's details now.
    pub before: Option<String>,
}

/// What a corrected lead had before (SQLite's `json_object` in [`NEWS_SQL`]).
#[derive(Debug, Deserialize)]
struct Before {
    name: String,
    email: String,
    whatsapp: String,
}

impl News {
    /// What the visitor changed, as "WhatsApp (49) 98888-7777 (antes (49) 99999-0001)".
    pub fn changes(&self) -> Vec<String> {
        let Some(before) = self
            .before
            .as_deref()
            .and_then(|b| serde_json::from_slice::<Before>(b.as_bytes()).ok())
        else {
            return Vec::new();
        };
        let was = if self.kind == "pending" {
            "hoje"
        } else {
            "antes"
        };
        let mut changes = Vec::new();
        if before.name != self.name {
            changes.push(format!("nome ({was} {})", quoted(&before.name)));
        }
        if before.email != self.email {
            changes.push(format!("e-mail ({was} {})", before.email));
        }
        if before.whatsapp != self.whatsapp {
            changes.push(format!(
                "WhatsApp ({was} {})",
                format_whatsapp(&before.whatsapp)
            ));
        }
        changes
    }
}

/// Sends every notice that is due. Errors on one person leave the others alone.
pub async fn send_due(env: &Env, db: &D1Database) -> worker::Result<usize> {
    if !mail::is_available(env) {
        return Ok(0);
    }
    // The leases from now, not from the run's start: the owners' alert
    // e-mails before this may have taken a while.
    let now = platform::now_ms();
    let recipients: Vec<Recipient> =
        db::rows_of(&query!(db, CLAIM_SQL, now, now + LEASE_MS)).await?;
    let (new, waiting): (Vec<_>, Vec<_>) = recipients
        .into_iter()
        .partition(|r| r.notices_sent_through.is_none());
    for person in &new {
        db::run(&query!(db, START_SQL, person.id)).await?;
    }
    // The news after each person's place, read once per place: all share one
    // while their e-mails go, and one whose mailbox keeps refusing falls
    // behind alone instead of holding everyone to its first 200 leads.
    let mut news_after: BTreeMap<i64, Vec<News>> = BTreeMap::new();
    let origin = config::site_origin(env);
    let mut sent = 0;
    for person in waiting {
        let through = person.notices_sent_through.unwrap_or_default();
        if let Entry::Vacant(place) = news_after.entry(through) {
            place.insert(db::rows_of(&query!(db, NEWS_SQL, through, MAX_PER_EMAIL)).await?);
        }
        let theirs: Vec<&News> = news_after[&through].iter().collect();
        let Some(last) = theirs.last().map(|n| n.id) else {
            db::run(&query!(db, HOLD_SQL, person.id, None::<i64>)).await?;
            continue;
        };
        match mail::send(env, &email(&person.email, &theirs, &origin)).await {
            Ok(()) => {
                db::run(&query!(db, SENT_SQL, person.id, last, now + MIN_GAP_MS)).await?;
                sent += 1;
            }
            Err(error) => {
                let oldest = theirs.first().map_or(now, |n| n.submitted_at);
                let until = now + hold_after_refusal(oldest, now);
                worker::console_error!(
                    "notices: the e-mail to {} was not sent: {error}; next try at {until}",
                    person.id
                );
                db::run(&query!(db, HOLD_SQL, person.id, until)).await?;
            }
        }
    }
    Ok(sent)
}

/// The e-mail listing `news` for `to`. Its subject says only how many: a
/// lead's words never reach a subject, where a name like 'AVISO DO PAINEL:
/// sua senha expira' would read as the site's own.
pub fn email(to: &str, news: &[&News], origin: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    let corrections = news.iter().filter(|n| n.kind == "correction").count();
    let waiting = news.iter().filter(|n| n.kind == "pending").count();
    let new = news.len() - corrections - waiting;
    let subject = match (new, corrections) {
        _ if waiting > 0 => subject_with_waiting(new, corrections, waiting),
        (1, 0) => "Novo lead no site".to_string(),
        (0, 1) => "Lead atualizou os dados".to_string(),
        (n, 0) => format!("{n} novos leads — {development}"),
        (0, c) => format!("{c} leads atualizaram os dados — {development}"),
        (n, c) => format!(
            "{n} {} e {c} {} — {development}",
            if n == 1 { "novo lead" } else { "novos leads" },
            if c == 1 {
                "atualização"
            } else {
                "atualizações"
            }
        ),
    };
    let mut letter = Letter::new().framed();
    for n in news {
        // The chat opens with the broker's greeting; a landline is called.
        let (label, chat) = if is_landline(&n.whatsapp) {
            ("Telefone (fixo): ", format!("tel:{}", n.whatsapp))
        } else {
            (
                "WhatsApp: ",
                whatsapp_chat(&n.whatsapp, &greeting(&n.name, to)),
            )
        };
        let panel = format!("{origin}/admin/leads/{}", n.lead_id);
        let changes = n.changes();
        let what = match (n.kind.as_str(), changes.is_empty()) {
            ("correction", true) => "dados atualizados pelo visitante".to_string(),
            ("correction", false) => {
                format!("dados atualizados pelo visitante: {}", changes.join("; "))
            }
            ("pending", true) => {
                "alteração pendente, enviada de outro navegador: aguarda a equipe".to_string()
            }
            ("pending", false) => format!(
                "alteração pendente, enviada de outro navegador: aguarda a equipe ({})",
                changes.join("; ")
            ),
            _ => "novo lead".to_string(),
        };
        // What a visitor or a link wrote is quoted: data, never the site's words.
        let origin_line = match &n.utm_campaign {
            Some(campaign) => format!("{} · campanha {}", quoted(&n.origem), quoted(campaign)),
            None => quoted(&n.origem),
        };
        let whatsapp = format_whatsapp(&n.whatsapp);
        letter = letter.block(
            Block::item()
                .line([
                    Span::strong(quoted(&n.name)),
                    Span::plain(" — "),
                    Span::plain(what),
                    Span::plain(", ").text_only(),
                    Span::plain(" · ").html_only(),
                    Span::plain(format_date(n.submitted_at)),
                ])
                .line([
                    Span::plain(label),
                    Span::plain(format!("{whatsapp} — {chat}")).text_only(),
                    Span::link(whatsapp, chat).html_only(),
                ])
                .line([format!("E-mail: {}", n.email)])
                .line([format!("Origem: {origin_line}")])
                .line([Span::link("Ver no painel", panel)]),
        );
    }
    letter
        .block(Block::note().line([format!(
            "Você recebe este aviso porque 'Receber aviso de novos leads' está ligado na sua conta \
             do painel do {development}. Para desligar: {origin}/admin"
        )]))
        .to(to, &subject)
}

/// A visitor's or a link's text as data: between quotation marks.
fn quoted(text: &str) -> String {
    format!("“{text}”")
}

/// The subject of an e-mail that tells of changes waiting for staff, with
/// the new leads and corrections beside them.
fn subject_with_waiting(new: usize, corrections: usize, waiting: usize) -> String {
    let development = agency::DEVELOPMENT_NAME;
    if new == 0 && corrections == 0 && waiting == 1 {
        return "Alteração pendente em um lead".to_string();
    }
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if new > 0 {
        parts.push(count(new, "novo lead", "novos leads"));
    }
    if corrections > 0 {
        parts.push(count(corrections, "atualização", "atualizações"));
    }
    parts.push(count(waiting, "alteração pendente", "alterações pendentes"));
    let last = parts.pop().unwrap_or_default();
    if parts.is_empty() {
        format!("{last} — {development}")
    } else {
        format!("{} e {last} — {development}", parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_notice_waits_half_as_long_as_its_news_from_a_minute_to_an_hour() {
        const MINUTE: i64 = 60 * 1000;
        let now = 1_790_000_000_000;
        assert_eq!(hold_after_refusal(now - 30 * 1000, now), MINUTE);
        assert_eq!(hold_after_refusal(now - 20 * MINUTE, now), 10 * MINUTE);
        assert_eq!(hold_after_refusal(now - 5 * 60 * MINUTE, now), 60 * MINUTE);
    }

    fn news(id: i64, kind: &str, before: Option<&str>) -> News {
        News {
            id,
            lead_id: format!("lead-{id}"),
            submitted_at: 1_767_225_600_000,
            kind: kind.into(),
            name: format!("Pessoa {id}"),
            email: format!("p{id}@example.com"),
            whatsapp: "+5549988887777".into(),
            origem: "instagram".into(),
            utm_campaign: Some("verao".into()),
            before: before.map(str::to_string),
        }
    }

    #[test]
    fn one_lead_is_told_with_its_chat_link_campaign_time_and_page_under_a_fixed_subject() {
        let n = news(1, "new", None);
        let mail = email("ana@agencia.com.br", &[&n], "https://site.example");
        assert_eq!(mail.subject, "Novo lead no site");
        assert!(mail.text.starts_with("• “Pessoa 1” — novo lead"));
        let chat = whatsapp_chat(
            "+5549988887777",
            &greeting("Pessoa 1", "ana@agencia.com.br"),
        );
        assert!(chat.starts_with("https://wa.me/5549988887777?text=Ol%C3%A1%2C%20Pessoa!"));
        assert!(
            mail.text
                .contains(&format!("WhatsApp: (49) 98888-7777 — {chat}"))
        );
        assert!(mail.html.contains(&chat.replace('&', "&amp;")));
        assert!(mail.text.contains("Origem: “instagram” · campanha “verao”"));
        assert!(mail.text.contains("31/12/2025 21:00"));
        assert!(
            mail.text
                .contains("https://site.example/admin/leads/lead-1")
        );
    }

    #[test]
    fn a_landline_is_told_as_a_number_to_call() {
        let mut n = news(1, "new", None);
        n.whatsapp = "+554833334444".into();
        let mail = email("ana@agencia.com.br", &[&n], "https://s");
        assert!(
            mail.text
                .contains("Telefone (fixo): (48) 3333-4444 — tel:+554833334444"),
            "{}",
            mail.text
        );
        assert!(!mail.text.contains("wa.me"));
    }

    #[test]
    fn many_are_counted_and_a_correction_says_what_changed() {
        let a = news(1, "new", None);
        let b = news(
            2,
            "correction",
            Some(r#"{"name":"Pessoa 2","email":"p2@example.com","whatsapp":"+5549999990001"}"#),
        );
        let mail = email("ana@agencia.com.br", &[&a, &b], "https://s");
        assert_eq!(
            mail.subject,
            format!("1 novo lead e 1 atualização — {}", agency::DEVELOPMENT_NAME)
        );
        assert_eq!(
            email("ana@agencia.com.br", &[&b], "https://s").subject,
            "Lead atualizou os dados"
        );
        let three = [
            news(1, "new", None),
            news(2, "new", None),
            news(3, "new", None),
        ];
        assert_eq!(
            email("a@b.com", &three.iter().collect::<Vec<_>>(), "https://s").subject,
            format!("3 novos leads — {}", agency::DEVELOPMENT_NAME)
        );
        assert!(
            mail.text
                .contains("dados atualizados pelo visitante: WhatsApp (antes (49) 99999-0001)")
        );
    }

    #[test]
    fn a_waiting_change_is_told_with_what_the_lead_has_today() {
        let change = news(
            3,
            "pending",
            Some(r#"{"name":"Pessoa 3","email":"p3@example.com","whatsapp":"+5549999990001"}"#),
        );
        let mail = email("ana@agencia.com.br", &[&change], "https://s");
        assert_eq!(mail.subject, "Alteração pendente em um lead");
        assert!(mail.text.contains(
            "alteração pendente, enviada de outro navegador: aguarda a equipe (WhatsApp (hoje (49) 99999-0001))"
        ));
        assert!(mail.text.contains("https://s/admin/leads/lead-3"));
        let new = news(1, "new", None);
        assert_eq!(
            email("a@b.com", &[&new, &change, &change], "https://s").subject,
            format!(
                "1 novo lead e 2 alterações pendentes — {}",
                agency::DEVELOPMENT_NAME
            )
        );
    }

    /// A lead whose every field a visitor or a link wrote tries to add a line, turn text around or add markup.
    fn forged() -> News {
        let mut n = news(1, "new", None);
        n.name =
            "AVISO DO PAINEL: sua senha expira\u{2028}Ver no painel: https://evil.example".into();
        n.origem = "instagram\u{2029}  Ver no painel: https://evil.example\r\n<b>".into();
        n.utm_campaign = Some("verao\u{85}\u{202e}lapxe\u{202c}\u{2066}".into());
        n.before = Some(r#"{"name":"Zé\u2028Ver no painel: x","email":"p1@example.com","whatsapp":"+5549988887777"}"#.into());
        n.kind = "correction".into();
        n
    }

    #[test]
    fn no_lead_reaches_the_subject_whatever_its_name() {
        let correction = forged();
        let new = News {
            kind: "new".into(),
            before: None,
            ..forged()
        };
        for news in [vec![&new], vec![&correction], vec![&new, &correction]] {
            let subject = email("a@b.com", &news, "https://s").subject;
            assert!(!subject.contains("AVISO"), "{subject}");
            assert!(!subject.contains("Pessoa"), "{subject}");
        }
    }

    #[test]
    fn a_forged_name_origem_or_campaign_adds_no_line_to_the_text_part() {
        let honest = email("a@b.com", &[&news(1, "correction", None)], "https://s");
        let forged = email("a@b.com", &[&forged()], "https://s");
        let lines = |text: &str| text.split(crate::formats::characters::breaks_line).count();
        assert_eq!(lines(&forged.text), lines(&honest.text));
        assert_eq!(
            forged
                .text
                .lines()
                .filter(|l| l.trim_start().starts_with("Ver no painel"))
                .collect::<Vec<_>>(),
            ["  Ver no painel: https://s/admin/leads/lead-1"]
        );
        assert!(
            !forged
                .text
                .chars()
                .any(crate::formats::characters::is_bidi_control)
        );
    }

    #[test]
    fn a_forged_name_origem_or_campaign_adds_no_markup_or_line_to_the_html_part() {
        let mail = email("a@b.com", &[&forged()], "https://s");
        assert!(!mail.html.contains("<b>"));
        assert!(mail.html.contains("&lt;b&gt;"));
        assert!(
            !mail
                .html
                .chars()
                .any(crate::formats::characters::breaks_line)
        );
        assert!(
            !mail
                .html
                .chars()
                .any(crate::formats::characters::is_bidi_control)
        );
        assert_eq!(mail.html.matches("<a href=").count(), 2);
    }

    #[test]
    fn names_with_html_are_escaped_in_the_html_part() {
        let mut n = news(1, "new", None);
        n.name = "<b>Zé</b>".into();
        let mail = email("a@b.com", &[&n], "https://s");
        assert!(mail.html.contains("&lt;b&gt;Zé&lt;/b&gt;"));
        assert!(!mail.html.contains("<b>Zé"));
    }
}
