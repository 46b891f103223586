//! A row as the panel shows it: its own members, and its WhatsApp number
//! written as people write it.

use serde::Serialize;

use super::store::LeadRow;
use crate::formats::whatsapp::format_whatsapp;

/// A row as the panel shows it: its members, and its WhatsApp number
/// formatted as people write it. A lead is a [`LeadRow`] so shown.
#[derive(Serialize)]
pub(super) struct Shown<'a, T> {
    #[serde(flatten)]
    row: &'a T,
    whatsapp_display: String,
}

/// `row`, whose WhatsApp number is `whatsapp`, as the panel shows it.
pub(super) fn shown<'a, T>(row: &'a T, whatsapp: &str) -> Shown<'a, T> {
    Shown {
        row,
        whatsapp_display: format_whatsapp(whatsapp),
    }
}

pub(super) fn shown_lead(lead: &LeadRow) -> Shown<'_, LeadRow> {
    shown(lead, &lead.whatsapp)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::attribution::{Attribution, Kind};
    use crate::formats::dates;

    /// `object` with the attribution's members added: every field of its one
    /// definition, by its name, null where `attribution` has no value.
    pub(crate) fn with_attribution(
        mut object: serde_json::Value,
        attribution: &Attribution,
    ) -> serde_json::Value {
        let members = Attribution::FIELDS.iter().zip(attribution.values());
        for (field, value) in members {
            object[field.name] = value.into();
        }
        object
    }

    /// The lead's first touch: each field a value of its own but the click ids.
    fn first_touch() -> Attribution {
        Attribution::from_each(|f| (f.kind != Kind::ClickId).then(|| format!("{} 1", f.name)))
    }

    /// Its newest submission's: each field a value of its own but the
    /// addresses, which its JSON text leaves out.
    fn last_touch() -> Attribution {
        Attribution::from_each(|f| (f.kind != Kind::Address).then(|| format!("{} 2", f.name)))
    }

    /// A lead as D1 answers its row (`last_touch` is SQLite's JSON text).
    pub(crate) fn lead_row() -> LeadRow {
        let mut touch = with_attribution(
            serde_json::json!({"at": 1_767_236_400_000_i64, "origem": "google"}),
            &last_touch(),
        );
        if let Some(members) = touch.as_object_mut() {
            members.retain(|_, value| !value.is_null());
        }
        let row = serde_json::json!({
            "id": "lead-1", "name": "Ana Souza", "email": "ana@example.com",
            "whatsapp": "+5549999998888", "origem": "instagram", "jetimob_enviado": 1,
            "delivery_status": "sent", "delivery_attempts": 2, "next_attempt_at": null,
            "last_error": "HTTP 502", "sent_at": 1_767_236_400_000_i64, "sent_by": "staff",
            "created_at": 1_767_225_600_000_i64, "submission_count": 3,
            "last_submitted_at": 1_767_225_600_000_i64, "source": "instagram",
            "referrer_host": null, "update_status": "failed",
            "update_last_error": "HTTP 400", "duplicate_of": "lead-0",
            "last_touch": touch.to_string(),
            "pending_changes": 1, "marked_by": "bia@example.com"
        });
        serde_json::from_value(with_attribution(row, &first_touch())).unwrap()
    }

    #[test]
    fn a_lead_reads_as_the_panel_expects() {
        let lead = lead_row();
        let last_touch = with_attribution(
            serde_json::json!({"at": "2026-01-01T03:00:00.000Z", "origem": "google"}),
            &last_touch(),
        );
        let expected = serde_json::json!({
            "id": "lead-1", "name": "Ana Souza", "email": "ana@example.com",
            "whatsapp": "+5549999998888", "whatsapp_display": format_whatsapp("+5549999998888"),
            "origem": "instagram", "jetimob_enviado": true, "delivery_status": "sent",
            "delivery_attempts": 2, "next_attempt_at": null, "last_error": "HTTP 502",
            "sent_at": "2026-01-01T03:00:00.000Z", "sent_by": "staff",
            "created_at": "2026-01-01T00:00:00.000Z", "submission_count": 3,
            "last_submitted_at": "2026-01-01T00:00:00.000Z", "source": "instagram",
            "referrer_host": null, "update_status": "failed",
            "update_last_error": "HTTP 400", "duplicate_of": "lead-0",
            "last_touch": last_touch,
            "pending_changes": 1, "marked_by": "bia@example.com",
            "landline": false, "answers": null, "answers_at": null,
            "jetimob_lead_id": null, "first_contact_at": null, "contacted_by_id": null,
            "contacted_by": null, "contact_tracked": false
        });
        assert_eq!(
            serde_json::to_value(shown_lead(&lead)).unwrap(),
            with_attribution(expected, &first_touch())
        );
        // A lead without a submission to show (or one SQLite could not
        // write) has no last touch; a row without the column reads the same.
        for text in [Some(serde_json::Value::Null), Some("{".into()), None] {
            let mut row = serde_json::to_value(shown_lead(&lead)).unwrap();
            row["created_at"] = 1_767_225_600_000_i64.into();
            row["last_submitted_at"] = 1_767_225_600_000_i64.into();
            row["sent_at"] = serde_json::Value::Null;
            row["jetimob_enviado"] = 0.into();
            match text {
                Some(text) => row["last_touch"] = text,
                None => drop(row.as_object_mut().and_then(|r| r.remove("last_touch"))),
            }
            let read: LeadRow = serde_json::from_value(row).unwrap();
            assert_eq!(read.last_touch, None);
            assert_eq!(
                serde_json::to_value(shown_lead(&read)).unwrap()["jetimob_enviado"],
                false
            );
        }
    }

    #[test]
    fn timestamps_are_iso_8601_in_utc() {
        assert_eq!(
            dates::iso(1_767_225_600_000).as_deref(),
            Some("2026-01-01T00:00:00.000Z")
        );
    }
}
