//! The time-to-first-contact report as CSV (the file's form is
//! `crate::formats::csv`'s): a line per day, campaign and colleague, each with its
//! leads, those contacted, the median in minutes, and how many were
//! contacted within the target.

use super::report::{Figures, Report};
use crate::formats::csv::{BOM, line};

const HEADER: [&str; 8] = [
    "Por",
    "Dia, campanha ou colega",
    "Leads",
    "Contatados",
    "Aguardando contato",
    "Mediana até o primeiro contato (min)",
    "Meta (min)",
    "Contatados dentro da meta",
];

/// Minutes with one decimal as a spreadsheet set to Portuguese reads them (`4,5`).
pub fn minutes(ms: Option<f64>) -> String {
    let Some(ms) = ms else {
        return String::new();
    };
    let tenths = (ms / 6_000.0).round() as i64;
    match tenths % 10 {
        0 => format!("{}", tenths / 10),
        d => format!("{},{d}", tenths / 10),
    }
}

fn row(group: &str, name: &str, f: &Figures, target: i64) -> String {
    line([
        group.to_string(),
        name.to_string(),
        f.leads.to_string(),
        f.contacted.to_string(),
        f.waiting.to_string(),
        minutes(f.median_ms),
        target.to_string(),
        f.within_target.to_string(),
    ])
}

pub fn file(report: &Report) -> String {
    let target = report.target_minutes;
    let mut out = format!("{BOM}{}", line(HEADER.iter().map(|h| h.to_string())));
    out.push_str(&row(
        "Período",
        &format!("{} a {}", report.period.from, report.period.to),
        &report.overall,
        target,
    ));
    for d in &report.days {
        out.push_str(&row("Dia", &d.day, &d.figures, target));
    }
    for c in &report.campaigns {
        let name = match c.campaign.as_str() {
            "" => format!("{} (sem campanha)", c.source),
            campaign => format!("{} › {campaign}", c.source),
        };
        out.push_str(&row("Campanha", &name, &c.figures, target));
    }
    for c in &report.colleagues {
        out.push_str(&row("Colega", &c.email, &c.figures, target));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_read_with_one_decimal_comma() {
        assert_eq!(minutes(None), "");
        assert_eq!(minutes(Some(240_000.0)), "4");
        assert_eq!(minutes(Some(270_000.0)), "4,5");
        assert_eq!(minutes(Some(61_000.0)), "1");
    }
}
