//! The campaign report of a period: visits beside leads and spend per
//! platform, source, campaign and ad, each beside the period of the same
//! length before it, and the leads of each day by source. Read from the
//! counters, never from the leads or the visits themselves: whole weeks
//! from the weekly sums (`campaign_weekly`, `spend_weekly`), the days at the
//! period's edges from the daily rows (`campaign_daily`, `campaign_spend`),
//! the chart from `source_daily`; so a month beside the month before costs
//! a few rows a campaign. And the days a visit limit was reached
//! (`visits`), with what it left out of the lines.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

use super::order::{self, Ranked};
use super::visits::OVERFLOW;
use crate::agency::messages;
use crate::attribution::sources::{self, Platform};
use crate::formats::dates::Day;
use crate::http::{ApiError, FieldErrors};
use crate::platform::db::{self, D1Database, query};

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

/// A first and a last day.
type Days = (Day, Day);

impl Period {
    /// The period of the same length just before it: what the report sets it beside.
    pub fn previous(self) -> Self {
        let length = self.from.days_until(self.to) + 1;
        Self {
            from: self.from.plus(-length),
            to: self.from.plus(-1),
        }
    }

    /// The whole weeks (Monday to Sunday) inside it, as their first and last
    /// Mondays, and the days at its edges outside them: a long period is
    /// read from the weekly sums and its edges from the daily rows.
    fn split(self) -> (Option<Days>, Vec<Days>) {
        let first_monday = match self.from.days_since_monday() {
            0 => self.from,
            n => self.from.plus(7 - n),
        };
        let last_sunday = self.to.plus(-((self.to.days_since_monday() + 1) % 7));
        if first_monday.plus(6) > last_sunday {
            return (None, vec![(self.from, self.to)]);
        }
        let mut edges = Vec::new();
        if self.from < first_monday {
            edges.push((self.from, first_monday.plus(-1)));
        }
        if last_sunday < self.to {
            edges.push((last_sunday.plus(1), self.to));
        }
        (Some((first_monday, last_sunday.plus(-6))), edges)
    }
}

/// The lines' sums of whole weeks (`?1`, `?2`: their Mondays).
const WEEKS_SQL: &str = "SELECT source, campaign, content, visits, leads, delivered, duplicates, meta_sent \
     FROM campaign_weekly WHERE week BETWEEN ?1 AND ?2";
/// The lines of days (`?1` to `?2`).
const DAYS_SQL: &str = "SELECT source, campaign, content, visits, leads, delivered, duplicates, meta_sent \
     FROM campaign_daily WHERE day BETWEEN ?1 AND ?2";
/// The spend of whole weeks, and of days.
const SPEND_WEEKS_SQL: &str = "SELECT source, campaign, content, campaign_id, content_id, cents, n \
     FROM spend_weekly WHERE week BETWEEN ?1 AND ?2 AND n > 0";
const SPEND_DAYS_SQL: &str = "SELECT source, campaign, content, campaign_id, content_id, cents, \
       1 AS n FROM campaign_spend WHERE day BETWEEN ?1 AND ?2";
/// Each day's visits and leads by source: the chart.
const CHART_SQL: &str =
    "SELECT day, source, visits, leads FROM source_daily WHERE day BETWEEN ?1 AND ?2";
/// The first day anything was counted: the start of 'Todo o lançamento'.
const FIRST_DAY_SQL: &str = "SELECT min(day) AS day FROM campaign_daily";
/// The period's visits left uncounted by their network's limit, a row a day.
const UNCOUNTED_SQL: &str = "SELECT day, n FROM visits_uncounted WHERE day BETWEEN ?1 AND ?2";

/// The CSV's rows: a period's lines and spend day by day.
const CSV_DAYS_SQL: &str = "SELECT day, source, campaign, content, visits, leads, delivered, duplicates, meta_sent \
     FROM campaign_daily WHERE day BETWEEN ?1 AND ?2";
const CSV_SPEND_SQL: &str = "SELECT day, source, campaign, content, campaign_id, content_id, cents, \
       1 AS n FROM campaign_spend WHERE day BETWEEN ?1 AND ?2";

/// A line's figures in some days.
#[derive(Debug, Clone, Deserialize)]
struct LineRow {
    #[serde(default)]
    day: String,
    source: String,
    campaign: String,
    content: String,
    #[serde(flatten)]
    figures: Figures,
}

/// A line's spend in some days.
#[derive(Debug, Clone, Deserialize)]
struct SpendRow {
    #[serde(default)]
    day: String,
    source: String,
    campaign: String,
    content: String,
    campaign_id: String,
    content_id: String,
    cents: i64,
    n: i64,
}

#[derive(Debug, Deserialize)]
struct ChartRow {
    day: String,
    source: String,
    visits: i64,
    leads: i64,
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
    /// Leads whose event reached Meta's Conversions API (0025).
    #[serde(default)]
    pub meta_sent: i64,
}

impl Figures {
    fn add(&mut self, other: &Figures) {
        self.visits += other.visits;
        self.leads += other.leads;
        self.delivered += other.delivered;
        self.duplicates += other.duplicates;
        self.meta_sent += other.meta_sent;
    }

    fn is_empty(&self) -> bool {
        self == &Figures::default()
    }
}

/// A line's figures and what it spent (in cents; `None`: no spend known).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Costed {
    #[serde(flatten)]
    pub figures: Figures,
    pub spend: Option<i64>,
}

impl Costed {
    fn add(&mut self, other: &Costed) {
        self.figures.add(&other.figures);
        self.add_spend(other.spend);
    }

    fn add_spend(&mut self, cents: Option<i64>) {
        if let Some(cents) = cents {
            self.spend = Some(self.spend.unwrap_or(0) + cents);
        }
    }

    fn is_empty(&self) -> bool {
        self.figures.is_empty() && self.spend.is_none()
    }
}

/// A line of the report: its platform, a source, a campaign and an ad
/// (empty when the visits and leads carried none), its figures and spend in
/// the period, and the same in the period before.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    pub platform: Platform,
    pub source: String,
    pub campaign: String,
    pub content: String,
    #[serde(flatten)]
    pub now: Costed,
    pub previous: Costed,
}

/// Spend of the period that matched no line's campaign: its name is not
/// what the links carry (`utm_campaign`), or its ads brought nobody.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unmatched {
    pub source: String,
    pub campaign: String,
    pub content: String,
    pub spend: i64,
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
pub struct Span {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PeriodAnswer {
    pub from: String,
    pub to: String,
    pub today: String,
    pub first_day: Option<String>,
    /// The period of the same length before it, which each figure is set beside.
    pub previous: Span,
}

/// The whole report, as the panel reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub period: PeriodAnswer,
    pub totals: Costed,
    pub previous_totals: Costed,
    /// Every day of the period, in order.
    pub days: Vec<DayFigures>,
    /// Every source of the period, the most leads (then visits) first.
    pub sources: Vec<String>,
    /// The lines, by their platform's and source's place, then the most leads and visits.
    pub rows: Vec<Line>,
    /// The period's spend that matched no line.
    pub unmatched: Vec<Unmatched>,
    /// The days of the period a visit limit was reached, in order.
    pub limits: Vec<DayLimit>,
}

type Key = (String, String, String);

/// Names compared as staff type them: without case or surrounding spaces.
fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Where a line of spend goes: the line its campaign (and ad) names, by
/// name or by id, among the lines of its source, or of its platform's when
/// it names the platform whole ('Meta'); `None` when no line has its campaign.
///
/// A campaign Meta spent on whole whose leads came through one placement
/// only goes to that source's line; through several, it stays under 'Meta',
/// counted in the platform's total and cost per lead: splitting it between
/// them would be a guess.
fn resolve(spend: &SpendRow, lines: &[&Key]) -> Option<Key> {
    let whole = sources::whole_platform(&spend.source);
    let of_source = |line: &&&Key| match whole {
        Some(p) => sources::platform(&line.0) == p,
        None => line.0 == spend.source,
    };
    let campaign_matches = |line: &&&Key| {
        same_name(&line.1, &spend.campaign)
            || (!spend.campaign_id.is_empty() && line.1 == spend.campaign_id)
    };
    let ad_matches = |line: &&&Key| {
        same_name(&line.2, &spend.content)
            || (!spend.content_id.is_empty() && line.2 == spend.content_id)
    };
    let campaign_lines: Vec<&&Key> = lines
        .iter()
        .filter(of_source)
        .filter(campaign_matches)
        .collect();
    let first = campaign_lines.first()?;
    let one_source = campaign_lines.iter().all(|l| l.0 == first.0);
    let source = if one_source {
        first.0.clone()
    } else {
        spend.source.clone()
    };
    let content = campaign_lines
        .iter()
        .find(|l| l.0 == source && ad_matches(l))
        .map_or_else(|| spend.content.clone(), |l| l.2.clone());
    Some((source, first.1.clone(), content))
}

/// The figures of each line in `rows`.
fn lines_of(rows: Vec<LineRow>) -> HashMap<Key, Figures> {
    let mut lines: HashMap<Key, Figures> = HashMap::new();
    for row in rows {
        lines
            .entry((row.source, row.campaign, row.content))
            .or_default()
            .add(&row.figures);
    }
    lines
}

/// Everything the report reads, before it is added up.
struct Read {
    now: Vec<LineRow>,
    before: Vec<LineRow>,
    spend_now: Vec<SpendRow>,
    spend_before: Vec<SpendRow>,
    chart: Vec<ChartRow>,
    first_day: Option<String>,
    uncounted: Vec<UncountedRow>,
}

/// Adds up the rows per line, sets spend on the lines its names match, and
/// each line beside the period before.
fn assemble(period: Period, today: Day, read: Read) -> Report {
    let now = lines_of(read.now);
    let before = lines_of(read.before);
    let known: Vec<&Key> = now.keys().chain(before.keys()).collect();
    let mut unmatched: Vec<Unmatched> = Vec::new();
    let mut spend_now: HashMap<Key, i64> = HashMap::new();
    let mut spend_before: HashMap<Key, i64> = HashMap::new();
    for (rows, into, list) in [
        (&read.spend_now, &mut spend_now, true),
        (&read.spend_before, &mut spend_before, false),
    ] {
        for row in rows.iter().filter(|r| r.n > 0) {
            let key = resolve(row, &known).unwrap_or_else(|| {
                (
                    row.source.clone(),
                    row.campaign.clone(),
                    row.content.clone(),
                )
            });
            if list && resolve(row, &known).is_none() {
                match unmatched.iter_mut().find(|u| {
                    (&u.source, &u.campaign, &u.content)
                        == (&row.source, &row.campaign, &row.content)
                }) {
                    Some(u) => u.spend += row.cents,
                    None => unmatched.push(Unmatched {
                        source: row.source.clone(),
                        campaign: row.campaign.clone(),
                        content: row.content.clone(),
                        spend: row.cents,
                    }),
                }
            }
            *into.entry(key).or_default() += row.cents;
        }
    }
    let mut keys: Vec<Key> = now
        .keys()
        .chain(before.keys())
        .chain(spend_now.keys())
        .chain(spend_before.keys())
        .cloned()
        .collect();
    keys.sort();
    keys.dedup();
    let mut totals = Costed::default();
    let mut previous_totals = Costed::default();
    let lines: Vec<Line> = keys
        .into_iter()
        .map(|key| {
            let line = Line {
                platform: sources::platform(&key.0),
                now: Costed {
                    figures: now.get(&key).copied().unwrap_or_default(),
                    spend: spend_now.get(&key).copied(),
                },
                previous: Costed {
                    figures: before.get(&key).copied().unwrap_or_default(),
                    spend: spend_before.get(&key).copied(),
                },
                source: key.0,
                campaign: key.1,
                content: key.2,
            };
            totals.add(&line.now);
            previous_totals.add(&line.previous);
            line
        })
        .filter(|l| !l.now.is_empty() || !l.previous.is_empty())
        .collect();

    let mut per_source: HashMap<&str, Figures> = HashMap::new();
    for line in &lines {
        per_source
            .entry(&line.source)
            .or_default()
            .add(&line.now.figures);
    }
    let mut sources: Vec<(&str, Figures)> = per_source.into_iter().collect();
    sources.sort_by(|(a, fa), (b, fb)| {
        (fb.leads, fb.visits)
            .cmp(&(fa.leads, fa.visits))
            .then_with(|| order::by_name(a, b))
    });
    let sources: Vec<String> = sources.into_iter().map(|(s, _)| s.to_string()).collect();
    let places = order::places(
        &lines
            .iter()
            .map(|l| Ranked {
                platform: l.platform,
                source: &l.source,
                campaign: &l.campaign,
                content: &l.content,
                leads: l.now.figures.leads,
                visits: l.now.figures.visits,
            })
            .collect::<Vec<_>>(),
    );
    let mut lines: Vec<(usize, Line)> = places.into_iter().zip(lines).collect();
    lines.sort_by_key(|(place, _)| *place);
    let lines: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
    unmatched.sort_by(|a, b| b.spend.cmp(&a.spend).then(a.campaign.cmp(&b.campaign)));

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
    let mut limits: BTreeMap<String, DayLimit> = BTreeMap::new();
    for row in &read.chart {
        if let Some(d) = days.get_mut(&row.day) {
            d.visits += row.visits;
            if row.leads != 0 {
                *d.leads.entry(row.source.clone()).or_default() += row.leads;
            }
        }
        if row.source == OVERFLOW && row.visits > 0 {
            limits
                .entry(row.day.clone())
                .or_insert_with(|| DayLimit {
                    day: row.day.clone(),
                    overflow: 0,
                    uncounted: 0,
                })
                .overflow += row.visits;
        }
    }
    for row in &read.uncounted {
        limits
            .entry(row.day.clone())
            .or_insert_with(|| DayLimit {
                day: row.day.clone(),
                overflow: 0,
                uncounted: 0,
            })
            .uncounted += row.n;
    }
    let previous = period.previous();
    Report {
        period: PeriodAnswer {
            from: period.from.to_string(),
            to: period.to.to_string(),
            today: today.to_string(),
            first_day: read.first_day,
            previous: Span {
                from: previous.from.to_string(),
                to: previous.to.to_string(),
            },
        },
        totals,
        previous_totals,
        days: days.into_values().collect(),
        sources,
        rows: lines,
        unmatched,
        limits: limits
            .into_values()
            .filter(|d| d.overflow > 0 || d.uncounted > 0)
            .collect(),
    }
}

/// Pushes the statements that read a period's lines (or spend): its whole
/// weeks from `weeks_sql`, its edges' days from `days_sql`.
fn span_statements<T>(
    batch: &mut db::Batch,
    db: &D1Database,
    period: Period,
    weeks_sql: &str,
    days_sql: &str,
) -> Vec<db::Handle<T>> {
    let (weeks, edges) = period.split();
    let mut statements = Vec::new();
    if let Some((first, last)) = weeks {
        statements.push(batch.push(query!(db, weeks_sql, first.to_string(), last.to_string())));
    }
    for (from, to) in edges {
        statements.push(batch.push(query!(db, days_sql, from.to_string(), to.to_string())));
    }
    statements
}

/// The rows of `statements`, one after the other.
fn rows_in<T: serde::de::DeserializeOwned>(
    results: &db::Results,
    statements: Vec<db::Handle<T>>,
) -> worker::Result<Vec<T>> {
    let mut rows = Vec::new();
    for statement in statements {
        rows.extend(results.rows(statement)?);
    }
    Ok(rows)
}

/// The report of `period` beside the period before, and the D1 rows it read.
pub async fn read(db: &D1Database, period: Period, today: Day) -> worker::Result<(Report, usize)> {
    let (from, to) = (period.from.to_string(), period.to.to_string());
    let previous = period.previous();
    let mut batch = db::Batch::new();
    let chart = batch.push(query!(db, CHART_SQL, from, to));
    let first_day = batch.push::<FirstDay>(db.prepare(FIRST_DAY_SQL));
    let uncounted = batch.push(query!(db, UNCOUNTED_SQL, from, to));
    let now = span_statements(&mut batch, db, period, WEEKS_SQL, DAYS_SQL);
    let before = span_statements(&mut batch, db, previous, WEEKS_SQL, DAYS_SQL);
    let spend_now = span_statements(&mut batch, db, period, SPEND_WEEKS_SQL, SPEND_DAYS_SQL);
    let spend_before = span_statements(&mut batch, db, previous, SPEND_WEEKS_SQL, SPEND_DAYS_SQL);
    let results = batch.run(db).await?;
    let read = Read {
        chart: results.rows(chart)?,
        first_day: results.first(first_day)?.and_then(|f| f.day),
        uncounted: results.rows(uncounted)?,
        now: rows_in(&results, now)?,
        before: rows_in(&results, before)?,
        spend_now: rows_in(&results, spend_now)?,
        spend_before: rows_in(&results, spend_before)?,
    };
    Ok((assemble(period, today, read), results.cost().read))
}

/// A line of one day, for the CSV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayLine {
    pub day: String,
    pub platform: Platform,
    pub source: String,
    pub campaign: String,
    pub content: String,
    pub figures: Figures,
    pub spend: Option<i64>,
}

/// Each day's lines of `period` with their spend, matched as the report
/// matches it: the CSV, a row per day and line.
pub async fn read_days(db: &D1Database, period: Period) -> worker::Result<Vec<DayLine>> {
    let (from, to) = (period.from.to_string(), period.to.to_string());
    let mut batch = db::Batch::new();
    let lines = batch.push::<LineRow>(query!(db, CSV_DAYS_SQL, from, to));
    let spend = batch.push::<SpendRow>(query!(db, CSV_SPEND_SQL, from, to));
    let results = batch.run(db).await?;
    let (lines, spend) = (results.rows(lines)?, results.rows(spend)?);
    Ok(day_lines(lines, spend))
}

fn day_lines(lines: Vec<LineRow>, spend: Vec<SpendRow>) -> Vec<DayLine> {
    let keys: Vec<Key> = lines
        .iter()
        .map(|l| (l.source.clone(), l.campaign.clone(), l.content.clone()))
        .collect();
    let known: Vec<&Key> = keys.iter().collect();
    let mut out: HashMap<(String, Key), (Figures, Option<i64>)> = HashMap::new();
    for line in lines {
        let entry = out
            .entry((line.day, (line.source, line.campaign, line.content)))
            .or_default();
        entry.0.add(&line.figures);
    }
    for row in &spend {
        let key = resolve(row, &known).unwrap_or_else(|| {
            (
                row.source.clone(),
                row.campaign.clone(),
                row.content.clone(),
            )
        });
        let entry = out.entry((row.day.clone(), key)).or_default();
        entry.1 = Some(entry.1.unwrap_or(0) + row.cents);
    }
    let rows: Vec<DayLine> = out
        .into_iter()
        .filter(|(_, (f, s))| !f.is_empty() || s.is_some())
        .map(
            |((day, (source, campaign, content)), (figures, spend))| DayLine {
                day,
                platform: sources::platform(&source),
                source,
                campaign,
                content,
                figures,
                spend,
            },
        )
        .collect();
    // Within a day, the screen's order, by the line's figures over the whole period.
    let mut index: HashMap<(&str, &str, &str), usize> = HashMap::new();
    let mut period: Vec<Ranked> = Vec::new();
    for row in &rows {
        let key = (&*row.source, &*row.campaign, &*row.content);
        let at = *index.entry(key).or_insert_with(|| {
            period.push(Ranked {
                platform: row.platform,
                source: key.0,
                campaign: key.1,
                content: key.2,
                leads: 0,
                visits: 0,
            });
            period.len() - 1
        });
        period[at].leads += row.figures.leads;
        period[at].visits += row.figures.visits;
    }
    let place = order::places(&period);
    let place_of: Vec<usize> = rows
        .iter()
        .map(|r| place[index[&(&*r.source, &*r.campaign, &*r.content)]])
        .collect();
    let mut rows: Vec<(usize, DayLine)> = place_of.into_iter().zip(rows).collect();
    rows.sort_by(|(pa, a), (pb, b)| a.day.cmp(&b.day).then(pa.cmp(pb)));
    rows.into_iter().map(|(_, r)| r).collect()
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

    fn line(source: &str, campaign: &str, content: &str, visits: i64, leads: i64) -> LineRow {
        LineRow {
            day: String::new(),
            source: source.into(),
            campaign: campaign.into(),
            content: content.into(),
            figures: Figures {
                visits,
                leads,
                delivered: leads / 2,
                duplicates: 0,
                meta_sent: leads / 2,
            },
        }
    }

    fn spend(source: &str, campaign: &str, content: &str, cents: i64) -> SpendRow {
        SpendRow {
            day: String::new(),
            source: source.into(),
            campaign: campaign.into(),
            content: content.into(),
            campaign_id: String::new(),
            content_id: String::new(),
            cents,
            n: 1,
        }
    }

    fn nothing() -> Read {
        Read {
            now: vec![],
            before: vec![],
            spend_now: vec![],
            spend_before: vec![],
            chart: vec![],
            first_day: None,
            uncounted: vec![],
        }
    }

    fn period(from: &str, to: &str) -> Period {
        Period {
            from: day(from),
            to: day(to),
        }
    }

    #[test]
    fn a_period_is_read_in_whole_weeks_and_the_days_at_its_edges() {
        // Thursday 2026-10-29 to Thursday 2026-11-26.
        let (weeks, edges) = period("2026-10-29", "2026-11-26").split();
        assert_eq!(weeks, Some((day("2026-11-02"), day("2026-11-16"))));
        assert_eq!(
            edges,
            [
                (day("2026-10-29"), day("2026-11-01")),
                (day("2026-11-23"), day("2026-11-26"))
            ]
        );
        // A week exactly, and less than one.
        assert_eq!(
            period("2026-11-23", "2026-11-29").split(),
            (Some((day("2026-11-23"), day("2026-11-23"))), vec![])
        );
        assert_eq!(
            period("2026-11-24", "2026-11-29").split(),
            (None, vec![(day("2026-11-24"), day("2026-11-29"))])
        );
        assert_eq!(
            period("2026-11-26", "2026-11-26").previous(),
            period("2026-11-25", "2026-11-25")
        );
        assert_eq!(
            period("2026-10-28", "2026-11-26").previous(),
            period("2026-09-28", "2026-10-27")
        );
    }

    #[test]
    fn lines_meet_their_spend_and_the_period_before_under_their_platform() {
        let report = assemble(
            period("2026-11-20", "2026-11-26"),
            day("2026-11-26"),
            Read {
                now: vec![
                    line("Instagram", "lancamento", "video-1", 3, 2),
                    line("Instagram", "lancamento", "video-1", 2, 0),
                    line("Direto", "", "", 7, 0),
                    line("Google", "busca", "", 0, 3),
                ],
                before: vec![line("Instagram", "lancamento", "video-1", 10, 1)],
                spend_now: vec![
                    spend("Instagram", "Lancamento", "video-1", 10_000),
                    spend("Google", "busca", "", 4_500),
                    spend("Google", "outra", "", 100),
                ],
                spend_before: vec![spend("Instagram", "lancamento", "video-1", 3_000)],
                ..nothing()
            },
        );
        type Summary<'a> = (
            Platform,
            &'a str,
            &'a str,
            i64,
            i64,
            Option<i64>,
            i64,
            Option<i64>,
        );
        let summary: Vec<Summary> = report
            .rows
            .iter()
            .map(|l| {
                (
                    l.platform,
                    l.source.as_str(),
                    l.campaign.as_str(),
                    l.now.figures.visits,
                    l.now.figures.leads,
                    l.now.spend,
                    l.previous.figures.leads,
                    l.previous.spend,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                // Google brought 3 leads, Meta 2: each platform by its leads.
                (
                    Platform::Google,
                    "Google",
                    "busca",
                    0,
                    3,
                    Some(4_500),
                    0,
                    None
                ),
                (
                    Platform::Google,
                    "Google",
                    "outra",
                    0,
                    0,
                    Some(100),
                    0,
                    None
                ),
                (
                    Platform::Meta,
                    "Instagram",
                    "lancamento",
                    5,
                    2,
                    Some(10_000),
                    1,
                    Some(3_000)
                ),
                (Platform::Direct, "Direto", "", 7, 0, None, 0, None),
            ]
        );
        assert_eq!(report.totals.spend, Some(14_600));
        assert_eq!(report.totals.figures.leads, 5);
        assert_eq!(report.previous_totals.spend, Some(3_000));
        assert_eq!(report.previous_totals.figures.visits, 10);
        assert_eq!(
            report.unmatched,
            [Unmatched {
                source: "Google".into(),
                campaign: "outra".into(),
                content: "".into(),
                spend: 100
            }]
        );
    }

    #[test]
    fn spend_for_meta_whole_goes_to_the_one_placement_that_brought_its_leads() {
        let read = |lines: Vec<LineRow>| {
            assemble(
                period("2026-11-26", "2026-11-26"),
                day("2026-11-26"),
                Read {
                    now: lines,
                    spend_now: vec![spend("Meta", "lancamento", "video-1", 5_000)],
                    ..nothing()
                },
            )
        };
        let one = read(vec![line("Instagram", "lancamento", "video-1", 4, 2)]);
        assert_eq!(one.rows.len(), 1);
        assert_eq!(one.rows[0].now.spend, Some(5_000));
        assert!(one.unmatched.is_empty());
        // Through two placements it stays with Meta, whose total has it.
        let two = read(vec![
            line("Instagram", "lancamento", "video-1", 4, 2),
            line("Facebook", "lancamento", "video-1", 1, 1),
        ]);
        let meta: Vec<(&str, Option<i64>)> = two
            .rows
            .iter()
            .map(|l| (l.source.as_str(), l.now.spend))
            .collect();
        assert_eq!(
            meta,
            [
                ("Instagram", None),
                ("Facebook", None),
                ("Meta", Some(5_000))
            ]
        );
        assert!(two.rows.iter().all(|l| l.platform == Platform::Meta));
        assert!(two.unmatched.is_empty());
    }

    #[test]
    fn spend_matches_a_campaign_and_an_ad_by_their_ids_too() {
        let mut by_id = spend("Google", "Busca Marca", "Grupo 1", 700);
        by_id.campaign_id = "987654321".into();
        by_id.content_id = "555".into();
        let report = assemble(
            period("2026-11-26", "2026-11-26"),
            day("2026-11-26"),
            Read {
                now: vec![line("Google", "987654321", "555", 9, 1)],
                spend_now: vec![by_id],
                ..nothing()
            },
        );
        assert_eq!(report.rows.len(), 1);
        assert_eq!(report.rows[0].now.spend, Some(700));
    }

    #[test]
    fn the_answer_reads_as_the_panel_expects() {
        let report = assemble(
            period("2026-11-26", "2026-11-26"),
            day("2026-11-26"),
            Read {
                now: vec![line("Instagram", "lancamento", "video-1", 5, 2)],
                spend_now: vec![spend("Instagram", "lancamento", "video-1", 10_000)],
                chart: vec![ChartRow {
                    day: "2026-11-26".into(),
                    source: "Instagram".into(),
                    visits: 5,
                    leads: 2,
                }],
                ..nothing()
            },
        );
        assert_eq!(
            serde_json::to_value(&report).unwrap(),
            serde_json::json!({
                "period": {
                    "from": "2026-11-26", "to": "2026-11-26", "today": "2026-11-26", "first_day": null,
                    "previous": { "from": "2026-11-25", "to": "2026-11-25" }
                },
                "totals": { "visits": 5, "leads": 2, "delivered": 1, "duplicates": 0, "meta_sent": 1, "spend": 10000 },
                "previous_totals": {
                    "visits": 0, "leads": 0, "delivered": 0, "duplicates": 0, "meta_sent": 0, "spend": null
                },
                "days": [{ "day": "2026-11-26", "visits": 5, "leads": { "Instagram": 2 } }],
                "sources": ["Instagram"],
                "rows": [{
                    "platform": "Meta", "source": "Instagram", "campaign": "lancamento", "content": "video-1",
                    "visits": 5, "leads": 2, "delivered": 1, "duplicates": 0, "meta_sent": 1, "spend": 10000,
                    "previous": {
                        "visits": 0, "leads": 0, "delivered": 0, "duplicates": 0, "meta_sent": 0, "spend": null
                    }
                }],
                "unmatched": [],
                "limits": []
            })
        );
    }

    #[test]
    fn the_days_a_limit_was_reached_say_what_went_to_the_overflow_and_what_was_not_counted() {
        let chart = |day: &str, source: &str, visits, leads| ChartRow {
            day: day.into(),
            source: source.into(),
            visits,
            leads,
        };
        let uncounted = |day: &str, n| UncountedRow { day: day.into(), n };
        let report = assemble(
            period("2026-11-24", "2026-11-26"),
            day("2026-11-26"),
            Read {
                chart: vec![
                    chart("2026-11-24", OVERFLOW, 80, 0),
                    chart("2026-11-25", "Instagram", 9, 1),
                    // A lead whose link named the overflow: no visit, no limit.
                    chart("2026-11-25", OVERFLOW, 0, 1),
                    chart("2026-11-26", OVERFLOW, 3, 0),
                ],
                uncounted: vec![uncounted("2026-11-24", 400), uncounted("2026-11-25", 12)],
                ..nothing()
            },
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
        let visits: Vec<i64> = report.days.iter().map(|d| d.visits).collect();
        assert_eq!(visits, [80, 9, 3]);
    }

    #[test]
    fn the_csv_has_a_row_per_day_and_line_with_its_spend() {
        let on = |day: &str, mut l: LineRow| {
            l.day = day.into();
            l
        };
        let spent = |day: &str, mut s: SpendRow| {
            s.day = day.into();
            s
        };
        let rows = day_lines(
            vec![
                on("2026-11-25", line("Instagram", "lancamento", "", 3, 1)),
                on("2026-11-26", line("Instagram", "lancamento", "", 2, 1)),
            ],
            vec![
                spent("2026-11-25", spend("Instagram", "lancamento", "", 5_000)),
                spent("2026-11-26", spend("Google", "busca", "", 100)),
            ],
        );
        let summary: Vec<(&str, &str, i64, Option<i64>)> = rows
            .iter()
            .map(|r| (r.day.as_str(), r.source.as_str(), r.figures.leads, r.spend))
            .collect();
        assert_eq!(
            summary,
            [
                ("2026-11-25", "Instagram", 1, Some(5_000)),
                ("2026-11-26", "Instagram", 1, None),
                ("2026-11-26", "Google", 0, Some(100)),
            ]
        );
    }

    #[test]
    fn the_csv_lists_each_days_lines_in_the_screens_order_over_the_period() {
        let on = |day: &str, mut l: LineRow| {
            l.day = day.into();
            l
        };
        // Google brought more leads over the period, Instagram more on the 25th.
        let rows = day_lines(
            vec![
                on("2026-11-25", line("Instagram", "lancamento", "", 9, 1)),
                on("2026-11-25", line("Google", "busca", "", 10, 0)),
                on("2026-11-26", line("Instagram", "lancamento", "", 2, 1)),
                on("2026-11-26", line("Google", "busca", "", 8, 3)),
                on("2026-11-26", line("Google", "", "", 8, 3)),
            ],
            vec![],
        );
        let order: Vec<(&str, &str, &str)> = rows
            .iter()
            .map(|r| (r.day.as_str(), r.source.as_str(), r.campaign.as_str()))
            .collect();
        assert_eq!(
            order,
            [
                ("2026-11-25", "Google", "busca"),
                ("2026-11-25", "Instagram", "lancamento"),
                ("2026-11-26", "Google", "busca"),
                ("2026-11-26", "Google", ""),
                ("2026-11-26", "Instagram", "lancamento"),
            ]
        );
    }
}
