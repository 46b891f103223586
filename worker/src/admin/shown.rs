//! A row as the panel shows it: its own members, and its WhatsApp number
//! written as people write it.

use serde::Serialize;

use super::store::LeadRow;
use crate::whatsapp::format_whatsapp;

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
    use crate::dates;

    /// A lead as D1 answers its row (`last_touch` is SQLite's JSON text).
    pub(crate) fn lead_row() -> LeadRow {
        serde_json::from_value(serde_json::json!({
            "id": "lead-1", "name": "Ana Souza", "email": "ana@example.com",
            "whatsapp": "+5549999998888", "origem": "instagram", "jetimob_enviado": 1,
            "delivery_status": "sent", "delivery_attempts": 2, "next_attempt_at": null,
            "last_error": "HTTP 502", "sent_at": 1_767_236_400_000_i64, "sent_by": "staff",
            "created_at": 1_767_225_600_000_i64, "submission_count": 3,
            "last_submitted_at": 1_767_225_600_000_i64, "utm_source": "instagram",
            "utm_medium": null, "utm_campaign": "pre", "utm_term": null, "utm_content": null,
            "gclid": null, "fbclid": "fb", "referrer": null, "source": "instagram",
            "referrer_host": null, "page_url": "https://x.example/", "update_status": "failed",
            "update_last_error": "HTTP 400", "duplicate_of": "lead-0",
            "last_touch": r#"{"at":1767236400000,"origem":"google","utm_source":"google","utm_medium":"cpc","utm_campaign":"verao","gclid":"g","fbclid":null}"#,
            "pending_changes": 1, "marked_by": "bia@example.com"
        }))
        .unwrap()
    }

    #[test]
    fn a_lead_reads_as_the_panel_expects() {
        let lead = lead_row();
        assert_eq!(
            serde_json::to_value(shown_lead(&lead)).unwrap(),
            serde_json::json!({
                "id": "lead-1", "name": "Ana Souza", "email": "ana@example.com",
                "whatsapp": "+5549999998888", "whatsapp_display": format_whatsapp("+5549999998888"),
                "origem": "instagram", "jetimob_enviado": true, "delivery_status": "sent",
                "delivery_attempts": 2, "next_attempt_at": null, "last_error": "HTTP 502",
                "sent_at": "2026-01-01T03:00:00.000Z", "sent_by": "staff",
                "created_at": "2026-01-01T00:00:00.000Z", "submission_count": 3,
                "last_submitted_at": "2026-01-01T00:00:00.000Z", "utm_source": "instagram",
                "utm_medium": null, "utm_campaign": "pre", "utm_term": null, "utm_content": null,
                "gclid": null, "gbraid": null, "wbraid": null, "fbclid": "fb", "msclkid": null,
                "ttclid": null, "referrer": null, "source": "instagram",
                "referrer_host": null, "page_url": "https://x.example/", "update_status": "failed",
                "update_last_error": "HTTP 400", "duplicate_of": "lead-0",
                "last_touch": {
                    "at": "2026-01-01T03:00:00.000Z", "origem": "google", "utm_source": "google",
                    "utm_medium": "cpc", "utm_campaign": "verao", "utm_term": null,
                    "utm_content": null, "gclid": "g", "gbraid": null, "wbraid": null,
                    "fbclid": null, "msclkid": null, "ttclid": null, "referrer": null,
                    "page_url": null
                },
                "pending_changes": 1, "marked_by": "bia@example.com",
                "landline": false, "answers": null, "answers_at": null,
                "jetimob_lead_id": null, "first_contact_at": null, "contacted_by_id": null,
                "contacted_by": null, "contact_tracked": false
            })
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
