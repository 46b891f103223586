//! The report: the period's leads (those whose contact is recorded), each
//! with when it arrived and, once contacted, how long that took; grouped by
//! the Brasília day it arrived, its campaign (source and campaign of its
//! first touch) and who contacted it first. Medians are taken here, over the
//! exact milliseconds (SQLite has no median), the middle one of an odd
//! number, the mean of the two middle ones of an even number.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::campaigns::report::Period;
use crate::platform::db::{self, D1Database, query};

/// The period's leads whose contact is recorded, a row each: only what the
/// report groups by, never a lead's personal data. Read through
/// `leads_newest`, in the period alone.
const LEADS_SQL: &str = "SELECT created_at, first_contact_at, coalesce(source, 'direto') AS source, \
       coalesce(utm_campaign, '') AS campaign, first_contact_by AS by_id, \
       (SELECT email FROM staff_users WHERE id = leads.first_contact_by) AS by_email \
     FROM leads WHERE created_at >= ?1 AND created_at < ?2 AND contact_tracked = 1";

#[derive(Debug, Clone, Deserialize)]
pub struct LeadTimes {
    pub created_at: i64,
    pub first_contact_at: Option<i64>,
    pub source: String,
    pub campaign: String,
    pub by_id: Option<String>,
    pub by_email: Option<String>,
}

/// A group's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Leads that arrived (for a colleague: those they contacted first).
    pub leads: i64,
    pub contacted: i64,
    /// The median time to first contact of the contacted ones, in ms.
    pub median_ms: Option<f64>,
    /// Contacted within the target.
    pub within_target: i64,
    /// Not contacted yet.
    pub waiting: i64,
}

#[derive(Debug, Serialize)]
pub struct DayLine {
    pub day: String,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Serialize)]
pub struct CampaignLine {
    pub source: String,
    pub campaign: String,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Serialize)]
pub struct ColleagueLine {
    pub email: String,
    #[serde(flatten)]
    pub figures: Figures,
}

#[derive(Debug, Serialize)]
pub struct PeriodAnswer {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Serialize)]
pub struct Report {
    pub period: PeriodAnswer,
    pub target_minutes: i64,
    pub overall: Figures,
    pub days: Vec<DayLine>,
    pub campaigns: Vec<CampaignLine>,
    pub colleagues: Vec<ColleagueLine>,
}

/// The median of `values` (sorted here), or none for none.
pub fn median(values: &mut [i64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    let n = values.len();
    Some(match n % 2 {
        1 => values[n / 2] as f64,
        _ => (values[n / 2 - 1] as f64 + values[n / 2] as f64) / 2.0,
    })
}

/// Leads and their times, gathered into one group's figures.
#[derive(Default)]
struct Group {
    leads: i64,
    waits: Vec<i64>,
}

impl Group {
    fn add(&mut self, lead: &LeadTimes) {
        self.leads += 1;
        if let Some(at) = lead.first_contact_at {
            self.waits.push((at - lead.created_at).max(0));
        }
    }

    fn figures(mut self, target_ms: i64) -> Figures {
        let contacted = self.waits.len() as i64;
        Figures {
            leads: self.leads,
            contacted,
            within_target: self.waits.iter().filter(|w| **w <= target_ms).count() as i64,
            waiting: self.leads - contacted,
            median_ms: median(&mut self.waits),
        }
    }
}

/// The report over `leads` (the period's), against `target_minutes`.
pub fn build(period: Period, target_minutes: i64, leads: &[LeadTimes]) -> Report {
    let target_ms = target_minutes * 60_000;
    let mut overall = Group::default();
    let mut days: BTreeMap<String, Group> = BTreeMap::new();
    let mut campaigns: BTreeMap<(String, String), Group> = BTreeMap::new();
    let mut colleagues: BTreeMap<String, Group> = BTreeMap::new();
    for lead in leads {
        overall.add(lead);
        days.entry(crate::formats::dates::brasilia_day(lead.created_at))
            .or_default()
            .add(lead);
        campaigns
            .entry((lead.source.clone(), lead.campaign.clone()))
            .or_default()
            .add(lead);
        if lead.first_contact_at.is_some() {
            let who = lead
                .by_email
                .clone()
                .or_else(|| lead.by_id.clone())
                .unwrap_or_default();
            colleagues.entry(who).or_default().add(lead);
        }
    }
    let mut campaigns: Vec<CampaignLine> = campaigns
        .into_iter()
        .map(|((source, campaign), g)| CampaignLine {
            source,
            campaign,
            figures: g.figures(target_ms),
        })
        .collect();
    // The campaigns that brought the most leads first.
    campaigns.sort_by(|a, b| {
        b.figures
            .leads
            .cmp(&a.figures.leads)
            .then_with(|| (&a.source, &a.campaign).cmp(&(&b.source, &b.campaign)))
    });
    let mut colleagues: Vec<ColleagueLine> = colleagues
        .into_iter()
        .map(|(email, g)| ColleagueLine {
            email,
            figures: g.figures(target_ms),
        })
        .collect();
    colleagues.sort_by(|a, b| {
        b.figures
            .contacted
            .cmp(&a.figures.contacted)
            .then_with(|| a.email.cmp(&b.email))
    });
    Report {
        period: PeriodAnswer {
            from: period.from.to_string(),
            to: period.to.to_string(),
        },
        target_minutes,
        overall: overall.figures(target_ms),
        // Newest day first, as the lead list reads.
        days: days
            .into_iter()
            .rev()
            .map(|(day, g)| DayLine {
                day,
                figures: g.figures(target_ms),
            })
            .collect(),
        campaigns,
        colleagues,
    }
}

/// The report of `period` and what it read (D1 rows).
pub async fn read(
    db: &D1Database,
    period: Period,
    target_minutes: i64,
) -> worker::Result<(Report, usize)> {
    let statement = query!(
        db,
        LEADS_SQL,
        period.from.start_ms(),
        period.to.plus(1).start_ms()
    );
    let result = db::all(&statement).await?;
    let rows_read = db::meta(&result).rows_read;
    let leads: Vec<LeadTimes> = result.results()?;
    Ok((build(period, target_minutes, &leads), rows_read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::dates::Day;

    #[test]
    fn the_median_is_the_middle_time_or_the_mean_of_the_two_middle_ones() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [7]), Some(7.0));
        assert_eq!(median(&mut [9, 1, 5]), Some(5.0));
        assert_eq!(median(&mut [4, 1, 3, 2]), Some(2.5));
    }

    fn lead(arrived_min: i64, waited_min: Option<i64>, campaign: &str, by: &str) -> LeadTimes {
        let created_at = Day::parse("2026-03-02").unwrap().start_ms() + arrived_min * 60_000;
        LeadTimes {
            created_at,
            first_contact_at: waited_min.map(|w| created_at + w * 60_000),
            source: "instagram".into(),
            campaign: campaign.into(),
            by_id: waited_min.map(|_| by.to_string()),
            by_email: waited_min.map(|_| format!("{by}@agencia.com.br")),
        }
    }

    #[test]
    fn each_day_campaign_and_colleague_has_its_median_against_the_target() {
        let day = Day::parse("2026-03-02").unwrap();
        let period = Period { from: day, to: day };
        let leads = [
            lead(0, Some(2), "verao", "ana"),
            lead(1, Some(4), "verao", "bia"),
            lead(2, Some(30), "inverno", "ana"),
            lead(3, None, "inverno", ""),
        ];
        let report = build(period, 5, &leads);
        assert_eq!(
            report.overall,
            Figures {
                leads: 4,
                contacted: 3,
                median_ms: Some(4.0 * 60_000.0),
                within_target: 2,
                waiting: 1,
            }
        );
        assert_eq!(report.days.len(), 1);
        assert_eq!(report.days[0].day, "2026-03-02");
        let verao = &report
            .campaigns
            .iter()
            .find(|c| c.campaign == "verao")
            .unwrap()
            .figures;
        assert_eq!(verao.median_ms, Some(3.0 * 60_000.0));
        let ana = &report.colleagues[0];
        assert_eq!(ana.email, "ana@agencia.com.br");
        assert_eq!(ana.figures.median_ms, Some(16.0 * 60_000.0));
        assert_eq!(ana.figures.within_target, 1);
    }
}
