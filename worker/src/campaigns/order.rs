//! The one order of 'Campanhas': the screen's before a column is chosen
//! (`groupRows` in pages/src/features/campaigns/report.ts, under its default
//! sort) and the CSV's within each day. At each level (platform, source,
//! campaign, ad) what brought the most leads over the period comes first,
//! then the most visits, then the name ([`by_name`]). Written twice, like the
//! conversion's rounding, and tested with the same cases on both sides.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::attribution::sources::Platform;
use crate::formats::characters::unaccented;

/// A line as the order reads it: its names, and its leads and visits over the period.
pub struct Ranked<'a> {
    pub platform: Platform,
    pub source: &'a str,
    pub campaign: &'a str,
    pub content: &'a str,
    pub leads: i64,
    pub visits: i64,
}

impl Ranked<'_> {
    /// Its names down to `level` (1: the platform … 4: the ad).
    fn names(&self, level: usize) -> [&str; 4] {
        let all = [
            self.platform.name(),
            self.source,
            self.campaign,
            self.content,
        ];
        std::array::from_fn(|i| if i < level { all[i] } else { "" })
    }
}

/// Each line's place in the order shown (0 first), in the order `lines` came.
pub fn places(lines: &[Ranked]) -> Vec<usize> {
    // Each level's sums: a platform's leads and visits, a source's under it…
    let mut sums: HashMap<(usize, [&str; 4]), (i64, i64)> = HashMap::new();
    for line in lines {
        for level in 1..=4 {
            let sum = sums.entry((level, line.names(level))).or_default();
            sum.0 += line.leads;
            sum.1 += line.visits;
        }
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&lines[a], &lines[b]);
        for level in 1..=4 {
            let (na, nb) = (a.names(level), b.names(level));
            if na == nb {
                continue;
            }
            let (wa, wb) = (sums[&(level, na)], sums[&(level, nb)]);
            return wb
                .cmp(&wa)
                .then_with(|| by_name(na[level - 1], nb[level - 1]));
        }
        Ordering::Equal
    });
    let mut places = vec![0; lines.len()];
    for (place, line) in order.into_iter().enumerate() {
        places[line] = place;
    }
    places
}

/// Names among equals: the unnamed ('(sem campanha)') after the named, then
/// without case or accents (`lançamento` beside `Lancamento`), then as written.
pub fn by_name(a: &str, b: &str) -> Ordering {
    a.is_empty()
        .cmp(&b.is_empty())
        .then_with(|| unaccented(a).cmp(&unaccented(b)))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked<'a>(
        source: &'a str,
        campaign: &'a str,
        content: &'a str,
        leads: i64,
        visits: i64,
    ) -> Ranked<'a> {
        Ranked {
            platform: crate::attribution::sources::platform(source),
            source,
            campaign,
            content,
            leads,
            visits,
        }
    }

    /// The same cases as `report.test.ts`'s "one order with the CSV".
    #[test]
    fn each_level_goes_by_leads_then_visits_then_name() {
        let lines = [
            ranked("Google", "busca", "", 2, 50),
            ranked("Instagram", "verao", "video-2", 1, 10),
            ranked("Facebook", "verao", "", 2, 10),
            ranked("Instagram", "verao", "video-1", 1, 30),
            ranked("Instagram", "", "", 1, 30),
            ranked("Instagram", "Lançamento", "", 1, 30),
            ranked("Instagram", "lancamento", "", 1, 30),
            ranked("WhatsApp", "amigos", "", 0, 3),
        ];
        let mut names: Vec<(usize, String)> = places(&lines)
            .into_iter()
            .zip(&lines)
            .map(|(place, l)| (place, format!("{} {} {}", l.source, l.campaign, l.content)))
            .collect();
        names.sort();
        let names: Vec<String> = names.into_iter().map(|(_, name)| name).collect();
        assert_eq!(
            names,
            [
                // Meta, 6 leads: Instagram (5) before Facebook (2); 'verao' (2 leads) first,
                // its ads by visits; the two names equal but for case and accent, as written;
                // the unnamed last among equals.
                "Instagram verao video-1",
                "Instagram verao video-2",
                "Instagram Lançamento ",
                "Instagram lancamento ",
                "Instagram  ",
                "Facebook verao ",
                // Google, 2 leads; then Orgânico, none.
                "Google busca ",
                "WhatsApp amigos ",
            ]
        );
    }

    #[test]
    fn names_go_without_case_or_accents_and_the_unnamed_last() {
        assert_eq!(by_name("Ônibus", "outono"), Ordering::Less);
        assert_eq!(by_name("ação", "acaso"), Ordering::Less);
        assert_eq!(by_name("Peña", "penca"), Ordering::Less);
        assert_eq!(by_name("", "zebra"), Ordering::Greater);
        assert_eq!(by_name("Verão", "verao"), Ordering::Less);
    }
}
