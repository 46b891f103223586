//! The CSV export: UTF-8 with a BOM and `;` between cells, as Excel set to
//! Portuguese expects, and no cell a spreadsheet could run as a formula.

use super::store::LeadRow;
use crate::dates::format_date;
use crate::leads::domain::format_whatsapp;

/// Excel reads the file as UTF-8 only with this mark first.
pub const BOM: &str = "\u{feff}";

/// The table's columns, the lead's first touch, then its last touch (the
/// newest submission) and whether a submission tied it to another lead.
const HEADER: [&str; 26] = [
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
    "UTM Source",
    "UTM Medium",
    "UTM Campaign",
    "UTM Term",
    "UTM Content",
    "GCLID",
    "FBCLID",
    "Referência",
    "Página",
    "Último cadastro em",
    "Origem do último cadastro",
    "UTM Source do último cadastro",
    "UTM Medium do último cadastro",
    "UTM Campaign do último cadastro",
    "Possível duplicado",
];

pub fn header() -> String {
    line(HEADER.iter().map(|h| h.to_string()))
}

pub fn row(lead: &LeadRow) -> String {
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let last = lead.last_touch().unwrap_or_default();
    line([
        lead.name.clone(),
        lead.email.clone(),
        format_whatsapp(&lead.whatsapp),
        lead.origem.clone(),
        status_label(&lead.delivery_status).to_string(),
        format_date(lead.created_at),
        lead.delivery_attempts.to_string(),
        text(&lead.last_error),
        lead.sent_at.map(format_date).unwrap_or_default(),
        match lead.sent_by.as_deref() {
            Some("crm") => "Integração".to_string(),
            Some("staff") => "Equipe".to_string(),
            _ => String::new(),
        },
        lead.submission_count.to_string(),
        text(&lead.utm_source),
        text(&lead.utm_medium),
        text(&lead.utm_campaign),
        text(&lead.utm_term),
        text(&lead.utm_content),
        text(&lead.gclid),
        text(&lead.fbclid),
        text(&lead.referrer),
        text(&lead.page_url),
        if last.at > 0 {
            format_date(last.at)
        } else {
            String::new()
        },
        last.origem.clone(),
        text(&last.utm_source),
        text(&last.utm_medium),
        text(&last.utm_campaign),
        if lead.duplicate_of.is_some() {
            "Sim"
        } else {
            ""
        }
        .to_string(),
    ])
}

/// The badge text of the panel.
pub fn status_label(delivery_status: &str) -> &'static str {
    match delivery_status {
        "sent" => "Enviado",
        "failed" => "Falhou",
        _ => "Pendente",
    }
}

fn line(cells: impl IntoIterator<Item = String>) -> String {
    let mut out = cells
        .into_iter()
        .map(|c| cell(&c))
        .collect::<Vec<_>>()
        .join(";");
    out.push_str("\r\n");
    out
}

/// What a spreadsheet runs as a formula when a cell starts with it.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// One cell: a `=`, `+`, `-`, `@`, tab or carriage return that starts it, or
/// starts a piece of it after a comma or a tab (spaces between), gets an
/// apostrophe, so the spreadsheet shows text and never runs a formula: also
/// one that reads the file split at commas or tabs (Excel in English, a
/// LibreOffice import), where `Ana,=HYPERLINK(…)` would be two cells. Cells
/// with `;`, quotes or line breaks are quoted.
fn cell(value: &str) -> String {
    let mut neutral = String::with_capacity(value.len() + 1);
    let mut piece_starts = true;
    for c in value.chars() {
        if piece_starts && FORMULA_STARTS.contains(&c) {
            neutral.push('\'');
        }
        neutral.push(c);
        piece_starts = matches!(c, ',' | '\t') || (c == ' ' && piece_starts);
    }
    if neutral.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", neutral.replace('"', "\"\""))
    } else {
        neutral
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead() -> LeadRow {
        LeadRow {
            id: "id-1".into(),
            name: "Ana Souza".into(),
            email: "ana@example.com".into(),
            whatsapp: "+5549999998888".into(),
            origem: "instagram".into(),
            jetimob_enviado: 1,
            delivery_status: "sent".into(),
            delivery_attempts: 1,
            next_attempt_at: None,
            last_error: None,
            sent_at: Some(1_767_236_400_000),
            sent_by: Some("crm".into()),
            created_at: 1_767_225_600_000,
            submission_count: 2,
            last_submitted_at: 1_767_225_600_000,
            utm_source: Some("instagram".into()),
            utm_medium: None,
            utm_campaign: Some("pre".into()),
            utm_term: None,
            utm_content: None,
            gclid: None,
            fbclid: None,
            referrer: None,
            page_url: Some("https://x.example/?utm_source=instagram".into()),
            update_status: None,
            update_last_error: None,
            duplicate_of: None,
            last_touch: Some(
                r#"{"at":1767236400000,"origem":"google","utm_source":"google","utm_medium":"cpc","utm_campaign":"verao","gclid":"g","fbclid":null}"#.into(),
            ),
        }
    }

    #[test]
    fn a_row_has_the_table_columns_then_the_first_touch_then_the_last() {
        assert_eq!(
            row(&lead()),
            "Ana Souza;ana@example.com;(49) 99999-8888;instagram;Enviado;31/12/2025 21:00;1;;01/01/2026 00:00;Integração;2;instagram;;pre;;;;;;https://x.example/?utm_source=instagram;01/01/2026 00:00;google;google;cpc;verao;\r\n"
        );
        assert!(header().starts_with("Nome;Email;WhatsApp;Origem;Status Jetimob;Data;"));
    }

    #[test]
    fn cells_that_a_spreadsheet_would_run_are_neutralised() {
        for (raw, safe) in [
            (
                "=HYPERLINK(\"http://x\")",
                "\"'=HYPERLINK(\"\"http://x\"\")\"",
            ),
            ("+5511", "'+5511"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "\"'\rcmd\""),
            ("Ana = Maria", "Ana = Maria"),
        ] {
            assert_eq!(cell(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn a_formula_after_a_comma_or_a_tab_is_neutralised_for_readers_that_split_there() {
        for (raw, safe) in [
            ("Ana,=1+1,", "Ana,'=1+1,"),
            (
                "x,=HYPERLINK(CHAR(104)&A2),",
                "x,'=HYPERLINK(CHAR(104)&A2),",
            ),
            ("p, -2+3", "p, '-2+3"),
            ("a\t@SUM(A1)", "a\t'@SUM(A1)"),
            ("  =1", "  '=1"),
            ("Silva, Ana", "Silva, Ana"),
            ("R$ 1.000,00", "R$ 1.000,00"),
            ("Maria-Clara, Zé", "Maria-Clara, Zé"),
        ] {
            assert_eq!(cell(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn separators_quotes_and_line_breaks_stay_inside_their_cell() {
        assert_eq!(cell("Silva; Souza"), "\"Silva; Souza\"");
        assert_eq!(cell("O \"Zé\""), "\"O \"\"Zé\"\"\"");
        assert_eq!(cell("linha\numa"), "\"linha\numa\"");
        assert_eq!(cell("José 🍇"), "José 🍇");
    }

    #[test]
    fn every_status_has_its_badge_text() {
        assert_eq!(status_label("sent"), "Enviado");
        assert_eq!(status_label("pending"), "Pendente");
        assert_eq!(status_label("failed"), "Falhou");
    }
}
