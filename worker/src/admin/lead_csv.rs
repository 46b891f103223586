//! The leads' CSV export: a line per lead (the file's form is `crate::formats::csv`'s),
//! fit for the ad platforms' uploads as it is: the WhatsApp number in E.164
//! (`+5549999991234`) and every time in ISO 8601 with its offset, Brasília's.

use super::store::LeadRow;
use crate::agency::QUESTIONS;
use crate::attribution::{Attribution, Field, Kind};
use crate::formats::csv::line;
use crate::formats::dates::iso_brasilia;

/// The table's columns, then the lead's first touch (every field of its
/// attribution, `Attribution::FIELDS`' headers), its last touch (the newest
/// submission: when, its origin and its campaign fields), whether a
/// submission tied it to another lead, and where it came from as the
/// campaign report counts it; then (0022) whether its number is a landline,
/// one column per question of agency.json with the option chosen, and when
/// the answers last changed.
const LEAD_HEADER: [&str; 11] = [
    "Nome",
    "Email",
    "WhatsApp",
    "Origem",
    "Status Jetimob",
    "Data",
    "Tentativas de envio",
    "Último erro",
    "Enviado em",
    "Enviado por",
    "Envios do formulário",
];

/// The fields of the last touch the file repeats: the campaign's.
fn last_touch_fields() -> impl Iterator<Item = &'static Field> {
    Attribution::FIELDS
        .iter()
        .filter(|f| f.kind == Kind::Campaign)
}

pub fn header() -> String {
    let questions = QUESTIONS.iter().map(|q| q.label.to_string());
    line(
        LEAD_HEADER
            .iter()
            .map(|h| h.to_string())
            .chain(Attribution::FIELDS.iter().map(|f| f.header.to_string()))
            .chain([
                "Último cadastro em".to_string(),
                "Origem do último cadastro".to_string(),
            ])
            .chain(last_touch_fields().map(|f| format!("{} do último cadastro", f.header)))
            .chain(["Possível duplicado", "Fonte", "Site de origem", "Fixo"].map(String::from))
            .chain(questions)
            .chain(["Respostas em".to_string()])
            .chain(CONTACT_HEADER.iter().map(|h| h.to_string())),
    )
}

/// The first contact (0023): when, by whom, and the minutes it took from
/// the lead's arrival (empty for a lead that arrived before the panel
/// recorded contacts, whose wait nobody knows).
const CONTACT_HEADER: [&str; 3] = [
    "Primeiro contato em",
    "Primeiro contato por",
    "Minutos até o primeiro contato",
];

/// Whole minutes from the lead's arrival to its first contact, if it has one
/// and arrived once contacts were recorded.
pub fn minutes_to_first_contact(lead: &LeadRow) -> Option<i64> {
    lead.first_contact_at
        .filter(|_| lead.contact_tracked)
        .map(|at| (at - lead.created_at).max(0) / 60_000)
}

pub fn row(lead: &LeadRow) -> String {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let last = lead.last_touch.clone().unwrap_or_default();
    let last_values = last.attribution.values();
    let last_campaign = Attribution::FIELDS
        .iter()
        .zip(last_values)
        .filter(|(f, _)| f.kind == Kind::Campaign)
        .map(|(_, v)| v.unwrap_or_default().to_string());
    line(
        [
            lead.name.clone(),
            lead.email.clone(),
            lead.whatsapp.clone(),
            lead.origem.clone(),
            lead.delivery_status.label().to_string(),
            iso_brasilia(lead.created_at),
            lead.delivery_attempts.to_string(),
            text(&lead.last_error),
            lead.sent_at.map(iso_brasilia).unwrap_or_default(),
            match lead.sent_by.as_deref() {
                Some("crm") => "Integração".to_string(),
                Some("staff") => "Equipe".to_string(),
                _ => String::new(),
            },
            lead.submission_count.to_string(),
        ]
        .into_iter()
        .chain(
            lead.attribution
                .values()
                .into_iter()
                .map(|v| v.unwrap_or_default().to_string()),
        )
        .chain([
            if last.at > 0 {
                iso_brasilia(last.at)
            } else {
                String::new()
            },
            last.origem.clone(),
        ])
        .chain(last_campaign)
        .chain([
            if lead.duplicate_of.is_some() {
                "Sim"
            } else {
                ""
            }
            .to_string(),
            lead.source.clone(),
            text(&lead.referrer_host),
            if lead.landline { "Sim" } else { "" }.to_string(),
        ])
        .chain(QUESTIONS.iter().map(|q| {
            let answers = lead.answers.as_ref();
            answers
                .and_then(|a| a.get(q.id))
                .cloned()
                .unwrap_or_default()
        }))
        .chain([lead.answers_at.map(iso_brasilia).unwrap_or_default()])
        .chain([
            lead.first_contact_at.map(iso_brasilia).unwrap_or_default(),
            lead.contacted_by.clone().unwrap_or_default(),
            minutes_to_first_contact(lead)
                .map(|m| m.to_string())
                .unwrap_or_default(),
        ]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin::store::LastTouch;
    use crate::attribution::Attribution;
    use crate::crm::status::Delivery;

    fn lead() -> LeadRow {
        LeadRow {
            id: "id-1".into(),
            name: "Ana Souza".into(),
            email: "ana@example.com".into(),
            whatsapp: "+5549999998888".into(),
            origem: "instagram".into(),
            jetimob_enviado: 1,
            delivery_status: Delivery::Sent,
            delivery_attempts: 1,
            next_attempt_at: None,
            last_error: None,
            sent_at: Some(1_767_236_400_000),
            sent_by: Some("crm".into()),
            created_at: 1_767_225_600_000,
            submission_count: 2,
            last_submitted_at: 1_767_225_600_000,
            attribution: Attribution {
                utm_source: Some("instagram".into()),
                utm_campaign: Some("pre".into()),
                page_url: Some("https://x.example/?utm_source=instagram".into()),
                ..Attribution::default()
            },
            source: "instagram".into(),
            referrer_host: None,
            update_status: None,
            update_last_error: None,
            duplicate_of: None,
            pending_changes: 0,
            marked_by: None,
            landline: false,
            answers: None,
            answers_at: None,
            jetimob_lead_id: None,
            first_contact_at: None,
            contacted_by_id: None,
            contacted_by: None,
            contact_tracked: true,
            last_touch: Some(LastTouch {
                at: 1_767_236_400_000,
                origem: "google".into(),
                attribution: Attribution {
                    utm_source: Some("google".into()),
                    utm_medium: Some("cpc".into()),
                    utm_campaign: Some("verao".into()),
                    gclid: Some("g".into()),
                    ..Attribution::default()
                },
            }),
        }
    }

    #[test]
    fn a_row_has_the_table_columns_then_the_first_touch_then_the_last() {
        assert_eq!(
            row(&lead()),
            "Ana Souza;ana@example.com;+5549999998888;instagram;Enviado;2025-12-31T21:00:00-03:00;1;;\
             2026-01-01T00:00:00-03:00;Integração;2;instagram;;pre;;;;;;;;;;https://x.example/?utm_source=instagram;\
             2026-01-01T00:00:00-03:00;google;google;cpc;verao;;;;instagram;;;;;;;;\r\n"
        );
        assert!(header().starts_with(
            "Nome;Email;WhatsApp;Origem;Status Jetimob;Data;Tentativas de envio;Último erro;\
             Enviado em;Enviado por;Envios do formulário;UTM Source;UTM Medium;UTM Campaign;\
             UTM Term;UTM Content;GCLID;GBRAID;WBRAID;FBCLID;MSCLKID;TTCLID;Referência;Página;\
             Último cadastro em;Origem do último cadastro;UTM Source do último cadastro;\
             UTM Medium do último cadastro;UTM Campaign do último cadastro;\
             UTM Term do último cadastro;UTM Content do último cadastro;Possível duplicado;Fonte;\
             Site de origem;Fixo;"
        ));
    }

    #[test]
    fn a_landline_and_the_answers_close_the_row_one_column_per_question() {
        assert!(header().ends_with(
            "Site de origem;Fixo;Para morar ou investir?;Quando pretende comprar?;Respostas em;\
             Primeiro contato em;Primeiro contato por;Minutos até o primeiro contato\r\n"
        ));
        let answered = LeadRow {
            whatsapp: "+554833334444".into(),
            landline: true,
            answers: Some([("prazo".to_string(), "Em até 1 ano".to_string())].into()),
            answers_at: Some(1_767_236_400_000),
            ..lead()
        };
        assert!(
            row(&answered)
                .ends_with(";instagram;;Sim;;Em até 1 ano;2026-01-01T00:00:00-03:00;;;\r\n"),
            "{}",
            row(&answered)
        );
    }

    #[test]
    fn the_first_contact_closes_the_row_with_the_minutes_it_took() {
        let contacted = LeadRow {
            first_contact_at: Some(1_767_225_600_000 + 7 * 60_000 + 59_000),
            contacted_by: Some("bia@agencia.com.br".into()),
            ..lead()
        };
        assert!(
            row(&contacted).ends_with(";2025-12-31T21:07:59-03:00;bia@agencia.com.br;7\r\n"),
            "{}",
            row(&contacted)
        );
        // Arrived before contacts were recorded: nobody knows how long it waited.
        let untracked = LeadRow {
            contact_tracked: false,
            ..contacted
        };
        assert!(row(&untracked).ends_with(";bia@agencia.com.br;\r\n"));
    }
}
