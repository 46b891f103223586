//! 'Exportar CSV' of the campaign report: a row per day and line (platform,
//! source, campaign, ad) as a spreadsheet reads it (the file's form is
//! `crate::formats::csv`'s), with its spend and cost per lead in reais.

use super::report::DayLine;
use crate::formats::csv::{BOM, line};

const HEADER: [&str; 14] = [
    "Dia",
    "Plataforma",
    "Fonte",
    "Campanha",
    "Anúncio",
    "Visitas",
    "Leads",
    "Conversão",
    "Enviados ao Jetimob",
    "Possíveis duplicados",
    "Enviados ao Meta",
    "Investimento (R$)",
    "Custo por lead (R$)",
    "Custo por lead enviado (R$)",
];

/// Leads per visit as staff read a rate (`40%`, `3,3%`), in tenths of a
/// percent rounded half up; empty without visits; '—' above 100% (leads sent
/// straight to the endpoint, or a day's visits not counted: no rate to read);
/// `< 0,1%` for a rate that rounds to nothing but brought leads. 'Campanhas'
/// writes the same (`formatConversion` in pages/src/features/campaigns/report.ts).
pub fn conversion(leads: i64, visits: i64) -> String {
    if visits <= 0 {
        return String::new();
    }
    if leads > visits {
        return "—".to_string();
    }
    let tenths = (leads * 1000 + visits / 2) / visits;
    if tenths == 0 && leads > 0 {
        return "< 0,1%".to_string();
    }
    match tenths % 10 {
        0 => format!("{}%", tenths / 10),
        d => format!("{},{d}%", tenths / 10),
    }
}

/// Cents as reais are written in Brazil: `1.234,56`.
pub fn reais(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let cents = cents.abs();
    let units = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, digit) in units.chars().enumerate() {
        if i > 0 && (units.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(digit);
    }
    format!("{sign}{grouped},{:02}", cents % 100)
}

/// Spend per lead, in reais; empty without spend or without leads.
pub fn per_lead(spend: Option<i64>, leads: i64) -> String {
    match spend {
        Some(cents) if leads > 0 => reais((cents + leads / 2) / leads),
        _ => String::new(),
    }
}

fn row(l: &DayLine) -> String {
    let f = &l.figures;
    line([
        l.day.clone(),
        l.platform.name().to_string(),
        l.source.clone(),
        l.campaign.clone(),
        l.content.clone(),
        f.visits.to_string(),
        f.leads.to_string(),
        conversion(f.leads, f.visits),
        f.delivered.to_string(),
        f.duplicates.to_string(),
        f.meta_sent.to_string(),
        l.spend.map(reais).unwrap_or_default(),
        per_lead(l.spend, f.leads),
        per_lead(l.spend, f.delivered),
    ])
}

/// The whole file: the mark Excel needs, the header, a row per day and line.
pub fn file(lines: &[DayLine]) -> String {
    let mut out = format!("{BOM}{}", line(HEADER.iter().map(|h| h.to_string())));
    out.extend(lines.iter().map(row));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attribution::sources::Platform;
    use crate::campaigns::report::Figures;

    #[test]
    fn conversion_reads_as_a_percentage_with_at_most_one_decimal() {
        assert_eq!(conversion(2, 5), "40%");
        assert_eq!(conversion(1, 30), "3,3%");
        assert_eq!(conversion(2, 3), "66,7%");
        assert_eq!(conversion(3, 3), "100%");
        assert_eq!(conversion(3, 2), "—");
        assert_eq!(conversion(0, 9), "0%");
        assert_eq!(conversion(3, 80), "3,8%");
        assert_eq!(conversion(1, 2000), "0,1%");
        assert_eq!(conversion(1, 5000), "< 0,1%");
        assert_eq!(conversion(4, 0), "");
    }

    #[test]
    fn money_reads_the_brazilian_way() {
        assert_eq!(reais(0), "0,00");
        assert_eq!(reais(5), "0,05");
        assert_eq!(reais(5_000), "50,00");
        assert_eq!(reais(123_456), "1.234,56");
        assert_eq!(reais(123_456_789), "1.234.567,89");
        assert_eq!(per_lead(Some(10_000), 2), "50,00");
        assert_eq!(per_lead(Some(10_000), 3), "33,33");
        assert_eq!(per_lead(Some(10_000), 0), "");
        assert_eq!(per_lead(None, 2), "");
    }

    #[test]
    fn a_row_has_the_day_the_line_its_figures_and_its_costs() {
        let l = DayLine {
            day: "2026-11-26".into(),
            platform: Platform::Meta,
            source: "Instagram".into(),
            campaign: "lancamento".into(),
            content: "=video-1".into(),
            figures: Figures {
                visits: 5,
                leads: 2,
                delivered: 1,
                duplicates: 0,
                meta_sent: 2,
            },
            spend: Some(10_000),
        };
        assert_eq!(
            row(&l),
            "2026-11-26;Meta;Instagram;lancamento;'=video-1;5;2;40%;1;0;2;100,00;50,00;100,00\r\n"
        );
    }
}
