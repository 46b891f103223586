//! The campaign report of a period: visits beside leads per source,
//! campaign and ad, and the leads of each day by source. Read from the
//! counters kept per Brasília day and campaign (`campaign_daily`), never
//! from the leads or the visits themselves, so a month costs a row a day
//! and campaign; and the days a visit limit was reached (`visits`), with
//! what it left out of the lines.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::visits::OVERFLOW;
use crate::dates::Day;
use crate::db::{self, D1Database, query};
use crate::http::{ApiError, FieldErrors};
use crate::messages;

/// The days a period without dates covers, ending today.
pub const DEFAULT_DAYS: i64 = 30;
/// The longest period a report reads: two years of days.
pub const MAX_DAYS: i64 = 731;

/// Brasília days, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub from: Day,
    pub to: Day,
}

impl Period {
    /// From the address's `de=` and `ate=` (`yyyy-MM-dd`): without `de`, the
    /// [`DEFAULT_DAYS`] up to `ate`; without `ate`, up to `today`.
    pub fn parse(de: Option<&str>, ate: Option<&str>, today: Day) -> Result<Self, ApiError> {
        let mut fields = FieldErrors::new();
        let mut day = |name: &'static str, raw: Option<&str>| {
            let raw = raw.map(str::trim).filter(|r| !r.is_empty())?;
            let parsed = Day::parse(raw);
            if parsed.is_none() {
                fields.push((name, messages::PERIOD_DAY_INVALID.to_string()));
            }
            parsed
        };
        let (from, to) = (day("de", de), day("ate", ate));
        if !fields.is_empty() {
            return Err(ApiError::Unprocessable {
                message: messages::PERIOD_DAY_INVALID.into(),
                fields,
            });
        }
        let to = to.unwrap_or(today);
        let from = from.unwrap_or(to.plus(1 - DEFAULT_DAYS));
        let refuse = |message: &str| {
            Err(ApiError::Unprocessable {
                message: message.into(),
                fields: vec![("de", message.into())],
            })
        };
        if from > to {
            return refuse(messages::PERIOD_BACKWARDS);
        }
        if from.days_until(to) >= MAX_DAYS {
            return refuse(messages::PERIOD_TOO_LONG);
        }
        Ok(Self { from, to })
    }

    /// Its days, in order.
    fn days(self) -> impl Iterator<Item = Day> {
        (0..=self.from.days_until(self.to)).map(move |n| self.from.plus(n))
    }
}

/// A period's counters, a row a day and campaign.
const PERIOD_SQL: &str = "SELECT day, source, campaign, content, visits, leads, delivered, duplicates \
     FROM campaign_daily WHERE day BETWEEN ?1 AND ?2";
/// The first day anything was counted: the start of 'Todo o lançamento'.
const FIRST_DAY_SQL: &str = "SELECT min(day) AS day FROM campaign_daily";
/// The period's visits left uncounted by their network's limit, a row a day.
const UNCOUNTED_SQL: &str = "SELECT day, n FROM visits_uncounted WHERE day BETWEEN ?1 AND ?2";

/// One day's counters of one campaign.
#[derive(Debug, Deserialize)]
struct DayRow {
    day: String,
    source: String,
    campaign: String,
    content: String,
    #[serde(flatten)]
    figures: Figures,
}

#[derive(Debug, Deserialize)]
struct FirstDay {
    day: Option<String>,
}

#[derive(Debug, Deserialize)]
struct UncountedRow {
    day: String,
    n: i64,
}

/// What the counters say of one campaign (or of them all) in a period.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    pub visits: i64,
    pub leads: i64,
    /// Leads Jetimob has.
    pub delivered: i64,
    /// Leads marked 'Possível duplicado'.
    pub duplicates: i64,
}

impl Figures {
    fn add(&mut self, other: &Figures) {
        self.visits += other.visits;
        self.leads += other.leads;
        self.delivered += other.delivered;
        self.duplicates += other.duplicates;
    }

    fn is_empty(&self) -> bool {
        self == &Figures::default()
    }
}

/// A line of the report: a source, a campaign and an ad (empty when the
/// visits and leads carried none), and its figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    pub source: String,
    pub campaign: String,
    pub content: String,
    #[serde(flatten)]
    pub figures: Figures,
}

/// One day of the chart: its visits and its leads by source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayFigures {
    pub day: String,
    pub visits: i64,
    pub leads: BTreeMap<String, i64>,
}

/// A day a visit limit was reached: its visits counted under [`OVERFLOW`]
/// (no room left for a new line: its network's or the day's) and those not
/// counted at all (their network had had its day's visits counted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayLimit {
    pub day: String,
    pub overflow: i64,
    pub uncounted: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PeriodAnswer {
    pub from: String,
    pub to: String,
    pub today: String,
    pub first_day: Option<String>,
}

/// The whole report, as the panel reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub period: PeriodAnswer,
    pub totals: Figures,
    /// Every day of the period, in order.
    pub days: Vec<DayFigures>,
    /// Every source of the period, the most leads (then visits) first.
    pub sources: Vec<String>,
    /// The lines, by their source's place, then the most leads and visits.
    pub rows: Vec<Line>,
    /// The days of the period a visit limit was reached, in order.
    pub limits: Vec<DayLimit>,
}

type Key = (String, String, String);

/// Adds up the counters' rows per line and per day.
fn assemble(
    period: Period,
    today: Day,
    first_day: Option<String>,
    rows: Vec<DayRow>,
    uncounted: Vec<UncountedRow>,
) -> Report {
    let limits = limits_of(&rows, uncounted);
    let mut lines: HashMap<Key, Figures> = HashMap::new();
    let mut days: BTreeMap<String, DayFigures> = period
        .days()
        .map(|d| {
            let day = d.to_string();
            (
                day.clone(),
                DayFigures {
                    day,
                    visits: 0,
                    leads: BTreeMap::new(),
                },
            )
        })
        .collect();
    for row in rows {
        if let Some(d) = days.get_mut(&row.day) {
            d.visits += row.figures.visits;
            if row.figures.leads != 0 {
                *d.leads.entry(row.source.clone()).or_default() += row.figures.leads;
            }
        }
        lines
            .entry((row.source, row.campaign, row.content))
            .or_default()
            .add(&row.figures);
    }
    lines.retain(|_, f| !f.is_empty());

    let mut totals = Figures::default();
    let mut per_source: HashMap<&str, Figures> = HashMap::new();
    for ((source, _, _), figures) in &lines {
        totals.add(figures);
        per_source.entry(source).or_default().add(figures);
    }
    let mut sources: Vec<(&str, Figures)> = per_source.into_iter().collect();
    sources.sort_by(|(a, fa), (b, fb)| {
        (fb.leads, fb.visits)
            .cmp(&(fa.leads, fa.visits))
            .then(a.cmp(b))
    });
    let sources: Vec<String> = sources.into_iter().map(|(s, _)| s.to_string()).collect();
    let place = |source: &str| sources.iter().position(|s| s == source);

    let mut lines: Vec<Line> = lines
        .into_iter()
        .map(|((source, campaign, content), figures)| Line {
            source,
            campaign,
            content,
            figures,
        })
        .collect();
    lines.sort_by(|a, b| {
        place(&a.source)
            .cmp(&place(&b.source))
            .then((b.figures.leads, b.figures.visits).cmp(&(a.figures.leads, a.figures.visits)))
            .then_with(|| (&a.campaign, &a.content).cmp(&(&b.campaign, &b.content)))
    });
    Report {
        period: PeriodAnswer {
            from: period.from.to_string(),
            to: period.to.to_string(),
            today: today.to_string(),
            first_day,
        },
        totals,
        days: days.into_values().collect(),
        sources,
        rows: lines,
        limits,
    }
}

/// The days a limit left visits out of their lines: those counted on the
/// day's [`OVERFLOW`] row, and those not counted.
fn limits_of(rows: &[DayRow], uncounted: Vec<UncountedRow>) -> Vec<DayLimit> {
    let mut days: BTreeMap<&str, DayLimit> = BTreeMap::new();
    let day = |d: &str| DayLimit {
        day: d.to_string(),
        overflow: 0,
        uncounted: 0,
    };
    for row in rows {
        if row.source == OVERFLOW && row.campaign.is_empty() && row.content.is_empty() {
            days.entry(&row.day)
                .or_insert_with(|| day(&row.day))
                .overflow += row.figures.visits;
        }
    }
    for row in &uncounted {
        days.entry(&row.day)
            .or_insert_with(|| day(&row.day))
            .uncounted += row.n;
    }
    days.into_values()
        .filter(|d| d.overflow > 0 || d.uncounted > 0)
        .collect()
}

/// The report of `period`, and the D1 rows it read.
pub async fn read(db: &D1Database, period: Period, today: Day) -> worker::Result<(Report, usize)> {
    let (from, to) = (period.from.to_string(), period.to.to_string());
    let results = db::batch(
        db,
        vec![
            query!(db, PERIOD_SQL, from, to),
            db.prepare(FIRST_DAY_SQL),
            query!(db, UNCOUNTED_SQL, from, to),
        ],
    )
    .await?;
    let rows = db::rows::<DayRow>(&results, 0)?;
    let first_day = db::first_row::<FirstDay>(&results, 1)?.and_then(|f| f.day);
    let uncounted = db::rows::<UncountedRow>(&results, 2)?;
    Ok((
        assemble(period, today, first_day, rows, uncounted),
        db::cost(&results).read,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> Day {
        Day::parse(text).unwrap()
    }

    fn status(error: ApiError) -> (u16, String) {
        (error.status(), error.message().to_string())
    }

    #[test]
    fn a_period_without_dates_is_the_last_thirty_days() {
        let today = day("2026-11-26");
        assert_eq!(
            Period::parse(None, None, today).unwrap(),
            Period {
                from: day("2026-10-28"),
                to: today
            }
        );
        assert_eq!(
            Period::parse(Some("2026-11-20"), Some(""), today).unwrap(),
            Period {
                from: day("2026-11-20"),
                to: today
            }
        );
        assert_eq!(
            Period::parse(Some("2026-11-26"), Some("2026-11-26"), today)
                .unwrap()
                .days()
                .count(),
            1
        );
    }

    #[test]
    fn a_bad_period_is_refused_with_the_field_to_fix() {
        let today = day("2026-11-26");
        let refused = |de, ate| status(Period::parse(de, ate, today).unwrap_err());
        assert_eq!(
            refused(Some("26/11/2026"), None),
            (422, messages::PERIOD_DAY_INVALID.to_string())
        );
        assert_eq!(
            refused(Some("2026-11-20"), Some("2026-11-01")),
            (422, messages::PERIOD_BACKWARDS.to_string())
        );
        assert_eq!(
            refused(Some("2024-01-01"), Some("2026-11-26")),
            (422, messages::PERIOD_TOO_LONG.to_string())
        );
        assert!(Period::parse(Some("2024-11-26"), Some("2026-11-26"), today).is_ok());
    }

    fn row(
        day: &str,
        source: &str,
        campaign: &str,
        content: &str,
        visits: i64,
        leads: i64,
    ) -> DayRow {
        DayRow {
            day: day.into(),
            source: source.into(),
            campaign: campaign.into(),
            content: content.into(),
            figures: Figures {
                visits,
                leads,
                delivered: leads / 2,
                duplicates: 0,
            },
        }
    }

    #[test]
    fn visits_and_leads_of_a_campaign_meet_on_one_line_and_every_day_is_listed() {
        let period = Period {
            from: day("2026-11-24"),
            to: day("2026-11-26"),
        };
        let report = assemble(
            period,
            day("2026-11-26"),
            Some("2026-10-01".into()),
            vec![
                row("2026-11-24", "instagram", "lancamento", "video-1", 3, 0),
                row("2026-11-26", "instagram", "lancamento", "video-1", 2, 2),
                row("2026-11-26", "direto", "", "", 7, 0),
                row("2026-11-25", "google", "busca", "", 0, 3),
                // A lead deleted since: nothing left to show.
                row("2026-11-25", "facebook", "x", "", 0, 0),
            ],
            vec![],
        );
        assert_eq!(
            report.rows,
            vec![
                Line {
                    source: "google".into(),
                    campaign: "busca".into(),
                    content: "".into(),
                    figures: Figures {
                        visits: 0,
                        leads: 3,
                        delivered: 1,
                        duplicates: 0
                    }
                },
                Line {
                    source: "instagram".into(),
                    campaign: "lancamento".into(),
                    content: "video-1".into(),
                    figures: Figures {
                        visits: 5,
                        leads: 2,
                        delivered: 1,
                        duplicates: 0
                    }
                },
                Line {
                    source: "direto".into(),
                    campaign: "".into(),
                    content: "".into(),
                    figures: Figures {
                        visits: 7,
                        leads: 0,
                        delivered: 0,
                        duplicates: 0
                    }
                },
            ]
        );
        assert_eq!(report.sources, ["google", "instagram", "direto"]);
        assert_eq!(
            report.totals,
            Figures {
                visits: 12,
                leads: 5,
                delivered: 2,
                duplicates: 0
            }
        );
        let days: Vec<String> = report
            .days
            .iter()
            .map(|d| format!("{} {} {:?}", d.day, d.visits, d.leads))
            .collect();
        assert_eq!(
            days,
            [
                "2026-11-24 3 {}",
                "2026-11-25 0 {\"google\": 3}",
                "2026-11-26 9 {\"instagram\": 2}",
            ]
        );
    }

    #[test]
    fn the_answer_reads_as_the_panel_expects() {
        let period = Period {
            from: day("2026-11-26"),
            to: day("2026-11-26"),
        };
        let report = assemble(
            period,
            day("2026-11-26"),
            None,
            vec![row(
                "2026-11-26",
                "instagram",
                "lancamento",
                "video-1",
                5,
                2,
            )],
            vec![],
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({
                "period": { "from": "2026-11-26", "to": "2026-11-26", "today": "2026-11-26", "first_day": null },
                "totals": { "visits": 5, "leads": 2, "delivered": 1, "duplicates": 0 },
                "days": [{ "day": "2026-11-26", "visits": 5, "leads": { "instagram": 2 } }],
                "sources": ["instagram"],
                "rows": [{
                    "source": "instagram", "campaign": "lancamento", "content": "video-1",
                    "visits": 5, "leads": 2, "delivered": 1, "duplicates": 0
                }],
                "limits": []
            })
        );
    }

    #[test]
    fn the_days_a_limit_was_reached_say_what_went_to_the_overflow_and_what_was_not_counted() {
        let period = Period {
            from: day("2026-11-24"),
            to: day("2026-11-26"),
        };
        let uncounted = |day: &str, n| UncountedRow { day: day.into(), n };
        let report = assemble(
            period,
            day("2026-11-26"),
            None,
            vec![
                row("2026-11-24", OVERFLOW, "", "", 80, 0),
                row("2026-11-25", "instagram", "verao", "", 9, 1),
                // A lead whose link named the overflow: no visit, no limit.
                row("2026-11-25", OVERFLOW, "", "", 0, 1),
                row("2026-11-26", OVERFLOW, "", "", 3, 0),
            ],
            vec![uncounted("2026-11-24", 400), uncounted("2026-11-25", 12)],
        );
        let limits: Vec<(&str, i64, i64)> = report
            .limits
            .iter()
            .map(|l| (l.day.as_str(), l.overflow, l.uncounted))
            .collect();
        assert_eq!(
            limits,
            [
                ("2026-11-24", 80, 400),
                ("2026-11-25", 0, 12),
                ("2026-11-26", 3, 0),
            ]
        );
        // The overflow's visits stay on its line and in the totals.
        assert_eq!(report.totals.visits, 92);
    }
}
