//! The leads table: each query once.
//!
//! A submission is stored in one D1 batch (one round trip, one transaction):
//! the per-address counter when it lives in D1, then statements that each
//! apply only in their own case, so whatever the state of the table the
//! batch does the one right thing:
//!
//! - nobody has the e-mail or the WhatsApp: a new lead;
//! - one lead has the e-mail, the WhatsApp or both, and the submission
//!   repeats its details, or comes from the browser that proved it sent
//!   that lead (`proof`): the lead takes the newest name, e-mail and
//!   WhatsApp (its attribution stays the first touch);
//! - one lead has them and the submission changes its details without that
//!   proof: nothing of the lead changes; the submission waits for staff
//!   ('pending', 'Alteração pendente'), who accept or refuse it;
//! - one lead has the e-mail and another the WhatsApp: nothing is merged or
//!   overwritten; the submission goes on the e-mail's lead and each of the
//!   two points at the other ('Possível duplicado');
//!
//! and in every case the submission itself is kept, on the lead it belongs to.
//!
//! Changes waiting for staff stay few: a newer one to a lead from the same
//! sender (a keyed hash of their network, [`super::proof::sender_of`])
//! replaces the older, which is kept in the story as refused ('replaced');
//! and a lead keeps at most [`MAX_WAITING_CHANGES`] waiting from other
//! senders: one past them is kept in the story as refused too ('limit'), so
//! a flood never hides the changes already waiting, nor grows the list staff
//! must read.
//!
//! Every statement binds the same twelve values:
//! `?1` a new lead's id, `?2` name, `?3` e-mail, `?4` WhatsApp, `?5` origem,
//! `?6` now, `?7` the visit's attribution (a JSON object, read by
//! `attribution_from_json!`), `?8`/`?9` its source and referrer host (the
//! campaign report's), `?10` the lead the browser proved it sent (NULL
//! without proof), `?11`/`?12` the rate-limit counter's key and maximum (NULL
//! when the counter lives at the edge). The two statements that keep a
//! waiting change also bind `?13`, its sender (NULL without a signing key),
//! and `?14`, [`MAX_WAITING_CHANGES`]; a new lead's `?13`, whether its
//! visitor ticked the ads' consent box; its deliveries' `?13`, the
//! destinations it is for (a JSON array, `delivery::destinations_for`).

use serde::Deserialize;
use wasm_bindgen::JsValue;

use super::domain::NewLead;
use crate::attribution::{attribution_columns, attribution_from_json};
use crate::crm::store::take_details;
use crate::http::rate_limit::{self, CountRow, Limit};
use crate::platform;
use crate::platform::db::{self, D1Database, D1PreparedStatement, Param};

/// Within the per-address limit (or counted at the edge).
macro_rules! within_limit {
    () => {
        "(?11 IS NULL OR (SELECT count FROM rate_limits WHERE key = ?11) <= ?12)"
    };
}

/// A new lead, when nobody has its e-mail or WhatsApp.
const INSERT_SQL: &str = concat!(
    "INSERT INTO leads (id, name, email, whatsapp, origem, created_at, last_submitted_at, \
       next_attempt_at, source, referrer_host, ads_consent, ",
    attribution_columns!(),
    ") SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6, ?8, ?9, ?13, ",
    attribution_from_json!("?7"),
    " WHERE ",
    within_limit!(),
    " AND NOT EXISTS (SELECT 1 FROM leads WHERE email = ?3 OR whatsapp = ?4) \
     RETURNING id"
);

/// A new lead's deliveries besides Jetimob's, one row per destination it is
/// for (`?13`), made with it: in this batch, only if it was.
const DELIVERIES_SQL: &str = "INSERT INTO deliveries (lead_id, destination, event_at, next_attempt_at) \
     SELECT ?1, value, ?6, ?6 FROM json_each(?13) \
     WHERE EXISTS (SELECT 1 FROM leads WHERE id = ?1 AND created_at = ?6)";

/// The e-mail is one lead's and the WhatsApp another's: each points at the other.
const LINK_SQL: &str = concat!(
    "INSERT OR IGNORE INTO lead_links (lead_id, other_id, created_at) \
     SELECT e.id, w.id, ?6 FROM leads e JOIN leads w ON w.whatsapp = ?4 AND w.id != e.id \
     WHERE e.email = ?3 AND ",
    within_limit!(),
    " UNION ALL \
     SELECT w.id, e.id, ?6 FROM leads e JOIN leads w ON w.whatsapp = ?4 AND w.id != e.id \
     WHERE e.email = ?3 AND ",
    within_limit!()
);

/// The one lead that has the e-mail, the WhatsApp or both takes the newest
/// details ([`crate::crm::store::take_details`]), when they are its own again or its browser
/// proved it sent it (`?10`).
const UPDATE_SQL: &str = concat!(
    "UPDATE leads SET ",
    take_details!(),
    ", submission_count = submission_count + 1, last_submitted_at = ?6 \
     WHERE ",
    within_limit!(),
    " AND id != ?1 AND id IN (SELECT id FROM leads WHERE email = ?3 OR whatsapp = ?4) \
       AND (SELECT count(*) FROM leads WHERE email = ?3 OR whatsapp = ?4) = 1 \
       AND (id IS ?10 OR (name IS ?2 AND email IS ?3 AND whatsapp IS ?4)) \
     RETURNING id, (update_status IS 'pending' AND update_requested_at IS ?6) AS corrected"
);

/// The e-mail's lead, when the WhatsApp is another lead's: only counted.
const CONFLICT_SQL: &str = concat!(
    "UPDATE leads SET submission_count = submission_count + 1, last_submitted_at = ?6 \
     WHERE ",
    within_limit!(),
    " AND email = ?3 AND id != ?1 \
       AND EXISTS (SELECT 1 FROM leads w WHERE w.whatsapp = ?4 AND w.email != ?3) \
     RETURNING id"
);

/// Changes a lead keeps waiting for staff from different senders.
pub const MAX_WAITING_CHANGES: i64 = 5;

/// The lead a submission belongs to: the one that has its e-mail, else the
/// one that has its WhatsApp (after the statements above, there always is one).
macro_rules! its_lead {
    () => {
        "coalesce((SELECT id FROM leads WHERE email = ?3), (SELECT id FROM leads WHERE whatsapp = ?4))"
    };
}

/// The submission, kept on [`its_lead`], with what it was: a new lead, a
/// conflict (the WhatsApp is another lead's), a change waiting for staff
/// (the lead kept other details), one set aside because the lead already
/// keeps [`MAX_WAITING_CHANGES`] from other senders ('refused', 'limit'), a
/// repeat of the lead's last accepted details, or a correction. A waiting
/// change keeps its sender (`?13`).
const SUBMISSION_SQL: &str = concat!(
    "INSERT INTO lead_submissions (lead_id, submitted_at, name, email, whatsapp, origem, kind, \
       sender, auto_refused, ",
    attribution_columns!(),
    ") SELECT lead_id, ?6, ?2, ?3, ?4, ?5, kind, \
       CASE WHEN kind = 'pending' THEN ?13 END, CASE WHEN kind = 'refused' THEN 'limit' END, ",
    attribution_from_json!("?7"),
    " FROM (SELECT l.id AS lead_id, \
       CASE WHEN l.id = ?1 THEN 'new' \
            WHEN EXISTS (SELECT 1 FROM leads w WHERE w.whatsapp = ?4 AND w.id != l.id) THEN 'conflict' \
            WHEN l.name IS NOT ?2 OR l.email IS NOT ?3 OR l.whatsapp IS NOT ?4 THEN \
              CASE WHEN (SELECT count(*) FROM lead_submissions c \
                         WHERE c.lead_id = l.id AND c.kind = 'pending' \
                           AND (?13 IS NULL OR c.sender IS NOT ?13)) < ?14 \
                   THEN 'pending' ELSE 'refused' END \
            WHEN EXISTS (SELECT 1 FROM lead_submissions p WHERE p.lead_id = l.id \
                           AND p.id = (SELECT max(id) FROM lead_submissions \
                                       WHERE lead_id = l.id \
                                         AND kind NOT IN ('conflict', 'pending', 'refused')) \
                           AND p.name IS ?2 AND p.email IS ?3 AND p.whatsapp IS ?4) THEN 'repeat' \
            ELSE 'correction' END AS kind \
       FROM leads l WHERE l.id = ",
    its_lead!(),
    " AND ",
    within_limit!(),
    ") RETURNING lead_id, kind"
);

/// A change that waits from the sender `?13` replaces the ones they sent
/// before to the same lead: those stay in the story, refused ('replaced').
const REPLACE_SQL: &str = concat!(
    "UPDATE lead_submissions SET kind = 'refused', auto_refused = 'replaced', sender = NULL \
     WHERE ?13 IS NOT NULL AND kind = 'pending' AND sender = ?13 AND lead_id = ",
    its_lead!(),
    " AND id < (SELECT max(id) FROM lead_submissions s WHERE s.kind = 'pending' \
                AND s.sender = ?13 AND s.lead_id = lead_submissions.lead_id) \
       AND ?14 > 0 AND ",
    within_limit!()
);

#[derive(Debug, Deserialize)]
struct IdRow {
    id: String,
}

#[derive(Debug, Deserialize)]
struct SubmissionRow {
    lead_id: String,
    kind: String,
}

#[derive(Debug, Deserialize)]
struct UpdatedRow {
    id: String,
    corrected: i64,
}

/// What happened to a submission.
#[derive(Debug, PartialEq, Eq)]
pub enum Saved {
    /// A new lead, committed.
    Created { id: String },
    /// A known person again; `corrected` when the CRM must now learn new details.
    Repeated { id: String, corrected: bool },
    /// The e-mail and the WhatsApp belong to two leads; kept on the e-mail's.
    Conflict { id: String },
    /// New details for a lead, from a browser that did not prove it sent it:
    /// kept aside for staff; the lead is unchanged. `set_aside` when the lead
    /// already kept as many waiting as it may: this one is in its story only.
    Pending { id: String, set_aside: bool },
    /// The sender is over the limit; nothing was written.
    Limited,
}

/// Who sent a submission, as far as storing it goes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Sender<'a> {
    /// The lead the browser proved it sent, if any.
    pub proof: Option<&'a str>,
    /// The sender's keyed hash, kept on a change while it waits.
    pub key: Option<&'a str>,
    /// Where a new lead of theirs is delivered besides Jetimob.
    pub destinations: &'a [&'a str],
}

/// Stores the submission in one D1 round trip. `limit` is `Some` when the
/// per-address count lives in D1 (no Rate Limiting binding): the count and
/// the writes go in one batch, and the writes only happen within the limit.
pub async fn save(
    db: &D1Database,
    lead: &NewLead,
    sender: Sender<'_>,
    limit: Option<(&Limit, &str)>,
    now_ms: i64,
) -> worker::Result<Saved> {
    let a = &lead.attribution;
    let limit_key = limit.map(|(l, subject)| l.key(subject));
    let limit_max = limit.map(|(l, _)| l.max);
    let new_id = platform::new_id();
    let values: Vec<JsValue> = vec![
        new_id.value(),
        lead.name.as_str().value(),
        lead.email.as_str().value(),
        lead.whatsapp.as_str().value(),
        lead.origem.value(),
        now_ms.value(),
        a.to_json().value(),
        lead.source.name.value(),
        lead.source.referrer_host.value(),
        sender.proof.value(),
        limit_key.value(),
        limit_max.value(),
    ];
    let waiting = [sender.key.value(), MAX_WAITING_CHANGES.value()];
    let consent = i64::from(lead.ads_consent);
    let destinations = serde_json::to_string(sender.destinations)?;
    let bind = |sql: &str| -> D1PreparedStatement { db::bind(db, sql, &values) };
    let bind_with = |sql: &str, extra: &[JsValue]| -> D1PreparedStatement {
        db::bind(db, sql, &[&values[..], extra].concat())
    };
    let mut batch = db::Batch::new();
    let hit = limit.map(|(l, subject)| {
        (
            l,
            batch.push::<CountRow>(rate_limit::hit(db, l, subject, now_ms)),
        )
    });
    let created = batch.push::<IdRow>(bind_with(INSERT_SQL, &[consent.value()]));
    batch.add(bind(LINK_SQL));
    let updated = batch.push::<UpdatedRow>(bind(UPDATE_SQL));
    let conflict = batch.push::<IdRow>(bind(CONFLICT_SQL));
    let submission = batch.push::<SubmissionRow>(bind_with(SUBMISSION_SQL, &waiting));
    batch.add(bind_with(REPLACE_SQL, &waiting));
    batch.add(bind_with(DELIVERIES_SQL, &[destinations.value()]));
    let results = batch.run(db).await?;
    if let Some((l, hit)) = hit {
        let count = results.first(hit)?.map_or(i64::MAX, |r| r.count);
        if !l.allows(count) {
            return Ok(Saved::Limited);
        }
    }
    if let Some(row) = results.first(created)? {
        return Ok(Saved::Created { id: row.id });
    }
    if let Some(row) = results.first(submission)?
        && matches!(row.kind.as_str(), "pending" | "refused")
    {
        return Ok(Saved::Pending {
            id: row.lead_id,
            set_aside: row.kind == "refused",
        });
    }
    if let Some(row) = results.first(updated)? {
        return Ok(Saved::Repeated {
            id: row.id,
            corrected: row.corrected == 1,
        });
    }
    if let Some(row) = results.first(conflict)? {
        return Ok(Saved::Conflict { id: row.id });
    }
    Err(worker::Error::from(
        "the submission matched no case: no lead was created or updated",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crm::store::{given_up_and_moot, needs_correction};

    /// Every statement of the batch binds `?1`…`?12` (those that keep a
    /// waiting change, `?14`); D1 refuses a statement whose highest
    /// placeholder is not the last value bound.
    #[test]
    fn every_statement_uses_its_last_value() {
        for sql in [LINK_SQL, UPDATE_SQL, CONFLICT_SQL] {
            assert!(sql.contains("?12"), "{sql}");
            assert!(!sql.contains("?13"), "{sql}");
        }
        for sql in [INSERT_SQL, DELIVERIES_SQL] {
            assert!(sql.contains("?13"), "{sql}");
            assert!(!sql.contains("?14"), "{sql}");
        }
        for sql in [SUBMISSION_SQL, REPLACE_SQL] {
            assert!(sql.contains("?12") && sql.contains("?14"), "{sql}");
            assert!(!sql.contains("?15"), "{sql}");
        }
    }

    #[test]
    fn a_correction_is_only_for_a_lead_the_crm_has() {
        assert!(needs_correction!().starts_with("(delivery_status = 'sent'"));
        assert!(UPDATE_SQL.contains(concat!(
            "update_status = CASE WHEN ",
            needs_correction!(),
            " THEN 'pending'"
        )));
    }

    #[test]
    fn only_a_given_up_correction_is_dropped_when_it_becomes_moot() {
        // A pending one may be on its way: the cron drops it under its lease.
        assert!(given_up_and_moot!().contains("update_status = 'failed'"));
        assert!(UPDATE_SQL.contains(concat!(
            "WHEN ",
            given_up_and_moot!(),
            " THEN NULL ELSE update_status END"
        )));
    }
}
