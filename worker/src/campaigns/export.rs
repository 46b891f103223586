//! 'Exportar CSV' of the campaign report: its lines as a spreadsheet reads
//! them (the file's form is `crate::csv`'s).

use super::report::{Line, Report};
use crate::csv::{BOM, line};

const HEADER: [&str; 8] = [
    "Fonte",
    "Campanha",
    "Anúncio",
    "Visitas",
    "Leads",
    "Conversão",
    "Enviados ao Jetimob",
    "Possíveis duplicados",
];

/// Leads per visit as staff read a rate (`40%`, `3,3%`); empty without visits.
pub fn conversion(leads: i64, visits: i64) -> String {
    if visits <= 0 {
        return String::new();
    }
    let tenths = (leads * 1000 + visits / 2) / visits;
    match tenths % 10 {
        0 => format!("{}%", tenths / 10),
        d => format!("{},{d}%", tenths / 10),
    }
}

fn row(l: &Line) -> String {
    let f = &l.figures;
    line([
        l.source.clone(),
        l.campaign.clone(),
        l.content.clone(),
        f.visits.to_string(),
        f.leads.to_string(),
        conversion(f.leads, f.visits),
        f.delivered.to_string(),
        f.duplicates.to_string(),
    ])
}

/// The whole file: the mark Excel needs, the header, a line per campaign's ad.
pub fn file(report: &Report) -> String {
    let mut out = format!("{BOM}{}", line(HEADER.iter().map(|h| h.to_string())));
    out.extend(report.rows.iter().map(row));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaigns::report::Figures;

    #[test]
    fn conversion_reads_as_a_percentage_with_at_most_one_decimal() {
        assert_eq!(conversion(2, 5), "40%");
        assert_eq!(conversion(1, 30), "3,3%");
        assert_eq!(conversion(2, 3), "66,7%");
        assert_eq!(conversion(3, 2), "150%");
        assert_eq!(conversion(0, 9), "0%");
        assert_eq!(conversion(4, 0), "");
    }

    #[test]
    fn a_line_has_the_campaign_then_its_figures() {
        let l = Line {
            source: "instagram".into(),
            campaign: "lancamento".into(),
            content: "=video-1".into(),
            figures: Figures {
                visits: 5,
                leads: 2,
                delivered: 1,
                duplicates: 0,
            },
        };
        assert_eq!(row(&l), "instagram;lancamento;'=video-1;5;2;40%;1;0\r\n");
    }
}
