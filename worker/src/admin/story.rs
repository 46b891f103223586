//! A lead's page, `GET /api/leads/{id}`: the lead, its submissions and the
//! changes waiting for staff, its delivery attempts and deliveries, the
//! actions on it, its possible duplicates, and what the person may do.

use serde::Serialize;
use worker::{Env, Response};

use super::shown::{Shown, shown, shown_lead};
use super::store::{self, ActionRow, AttemptRow, LeadRow, StoryTotals};
use crate::agency::messages;
use crate::auth::guard::{Rights, Staff};
use crate::formats::dates;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::{self, config};
use crate::{crm, delivery};

/// The answer of `GET /api/leads/{id}`.
#[derive(Serialize)]
struct StoryAnswer<'a> {
    lead: Shown<'a, LeadRow>,
    submissions: Vec<Shown<'a, store::SubmissionRow>>,
    /// The changes waiting for staff, oldest first, apart from the history.
    waiting_changes: Vec<Shown<'a, store::SubmissionRow>>,
    attempts: &'a [AttemptRow],
    actions: &'a [ActionRow],
    possible_duplicates: Vec<Shown<'a, store::LinkedRow>>,
    /// What the page leaves out (the oldest after the first submission, the
    /// oldest attempts and actions), for it to say so.
    hidden: StoryTotals,
    crm_configured: bool,
    /// Its deliveries besides Jetimob's, each destination's state (none: não se aplica).
    deliveries: Vec<DeliveryShown<'a>>,
    /// Whether Meta's Conversions API is configured.
    meta_configured: bool,
    /// What the person asking may do to it: the page shows only those buttons.
    rights: Rights,
}

/// A delivery as the lead's page shows it: its times as the panel reads them.
#[derive(Serialize)]
struct DeliveryShown<'a> {
    destination: &'a str,
    status: &'a str,
    attempts: i64,
    next_attempt_at: Option<String>,
    last_attempt_at: Option<String>,
    last_error: Option<&'a str>,
    sent_at: Option<String>,
    /// Whether 'Reenviar' can still send it (its event's window is open).
    can_resend: bool,
}

/// `GET /api/leads/{id}`: the lead's story (its newest entries, see
/// `store::STORY_NEWEST`).
pub(super) async fn story(env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    let db = config::database(env)?;
    let Some(story) = store::story(&db, id).await? else {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    };
    let totals = story.totals;
    http::success(&StoryAnswer {
        lead: shown_lead(&story.lead),
        submissions: story
            .submissions
            .iter()
            .map(|s| shown(s, &s.whatsapp))
            .collect(),
        waiting_changes: story
            .waiting
            .iter()
            .map(|s| shown(s, &s.whatsapp))
            .collect(),
        attempts: &story.attempts,
        actions: &story.actions,
        possible_duplicates: story.linked.iter().map(|l| shown(l, &l.whatsapp)).collect(),
        hidden: StoryTotals {
            submissions: totals.submissions - story.submissions.len() as i64,
            attempts: totals.attempts - story.attempts.len() as i64,
            actions: totals.actions - story.actions.len() as i64,
        },
        crm_configured: crm::is_configured(env),
        deliveries: story
            .deliveries
            .iter()
            .map(|d| DeliveryShown {
                destination: &d.destination,
                status: &d.status,
                attempts: d.attempts,
                next_attempt_at: d.next_attempt_at.and_then(dates::iso),
                last_attempt_at: d.last_attempt_at.and_then(dates::iso),
                last_error: d.last_error.as_deref(),
                sent_at: d.sent_at.and_then(dates::iso),
                // 'Reenviar ao Meta'; the answers go by themselves.
                can_resend: d.destination == delivery::meta::DESTINATION
                    && matches!(d.status.as_str(), "failed" | "pending")
                    && story.lead.created_at >= platform::now_ms() - delivery::meta::WINDOW_MS,
            })
            .collect(),
        meta_configured: delivery::meta::Settings::from_env(env).is_some(),
        rights: staff.rights,
    })
}

#[cfg(test)]
mod tests {
    use super::super::list::tests::ALL;
    use super::super::shown::tests::{lead_row, with_attribution};
    use super::*;
    use crate::attribution::{Attribution, Kind};
    use crate::formats::whatsapp::format_whatsapp;

    #[test]
    fn a_leads_story_reads_as_the_panel_expects() {
        // It came with a campaign's fields alone.
        let came_with = Attribution::from_each(|f| {
            (f.kind == Kind::Campaign).then(|| format!("{} do envio", f.name))
        });
        let submission: store::SubmissionRow = serde_json::from_value(with_attribution(
            serde_json::json!({
                "id": 7, "submitted_at": 1_767_225_600_000_i64, "name": "Ana", "email": "a@x.com",
                "whatsapp": "+5549999998888", "origem": "google", "kind": "new"
            }),
            &came_with,
        ))
        .unwrap();
        let attempt: AttemptRow = serde_json::from_value(serde_json::json!({
            "id": 3, "at": 1_767_225_600_000_i64, "kind": "lead", "outcome": "failed", "detail": null
        }))
        .unwrap();
        let action: ActionRow = serde_json::from_value(serde_json::json!({
            "id": 4, "at": 1_767_225_600_000_i64, "staff_email": "bia@x.com", "action": "resend"
        }))
        .unwrap();
        let linked: store::LinkedRow = serde_json::from_value(serde_json::json!({
            "id": "lead-0", "name": "Bia", "email": "b@x.com", "whatsapp": "+5548988776655"
        }))
        .unwrap();
        let lead = lead_row();
        let answer = StoryAnswer {
            lead: shown_lead(&lead),
            submissions: vec![shown(&submission, &submission.whatsapp)],
            waiting_changes: vec![],
            attempts: std::slice::from_ref(&attempt),
            actions: std::slice::from_ref(&action),
            possible_duplicates: vec![shown(&linked, &linked.whatsapp)],
            hidden: StoryTotals {
                submissions: 0,
                attempts: 2,
                actions: 0,
            },
            crm_configured: true,
            deliveries: vec![],
            meta_configured: false,
            rights: ALL,
        };
        let mut json = serde_json::to_value(&answer).unwrap();
        assert!(json["lead"]["whatsapp_display"].is_string());
        json["lead"] = serde_json::Value::Null;
        assert_eq!(
            json,
            serde_json::json!({
                "lead": null,
                "submissions": [with_attribution(
                    serde_json::json!({
                        "id": 7, "at": "2026-01-01T00:00:00.000Z", "name": "Ana",
                        "email": "a@x.com", "whatsapp": "+5549999998888",
                        "whatsapp_display": format_whatsapp("+5549999998888"),
                        "origem": "google", "kind": "new", "auto_refused": null
                    }),
                    &came_with,
                )],
                "waiting_changes": [],
                "attempts": [{
                    "id": 3, "at": "2026-01-01T00:00:00.000Z", "kind": "lead",
                    "outcome": "failed", "detail": null
                }],
                "actions": [{
                    "id": 4, "at": "2026-01-01T00:00:00.000Z", "staff_email": "bia@x.com",
                    "action": "resend"
                }],
                "possible_duplicates": [{
                    "id": "lead-0", "name": "Bia", "email": "b@x.com",
                    "whatsapp_display": format_whatsapp("+5548988776655")
                }],
                "hidden": { "submissions": 0, "attempts": 2, "actions": 0 },
                "crm_configured": true,
                "deliveries": [],
                "meta_configured": false,
                "rights": { "export": true, "delete": true, "mark_sent": true, "import_spend": true }
            })
        );
    }
}
