//! Reading the base through the list, for a colleague without 'Exportar
//! CSV': what the export right keeps from them must not come page by page.
//!
//! The rule: each hour (a fixed window, on the hour) such a person is shown
//! at most [`LEADS_READ`]`.max` leads by the list. A view of the list (its
//! filter, search, period, campaign and page, as its address names them)
//! costs the leads it shows the first time in the hour; the same view again
//! (the panel's 30-second reload, an action that reloads it, coming back to
//! the tab) costs nothing, so a tab left open never runs out. Searches are
//! views like any other. A view is charged a full page before it is read
//! (counted and checked in one statement, so parallel requests cannot slip
//! past the limit together) and given back what it did not show. A lead's
//! own page is not counted: its address comes from the list or a notice.
//!
//! Owners are told when someone reads far more than they work: once an hour
//! at most, when a person has been shown [`NOTICE_AT`] leads or more in the
//! hour and worked (marked, undid, resent, deleted, decided a change on)
//! fewer than one lead for every [`WORK_RATIO`] read, an entry 'bulk_read'
//! goes in 'Atividade' and every owner gets an e-mail.

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::audit::Action;
use crate::auth::guard::Staff;
use crate::http::rate_limit::{self, Limit};
use crate::platform::db::{Batch, D1Database, Handle, Results, query};

/// Leads the list shows one person without 'Exportar CSV' in an hour.
pub const LEADS_READ: Limit = Limit {
    name: "leads-read",
    max: 500,
    window_ms: 60 * 60 * 1000,
    binding: None,
};

/// A view of the list already paid for this hour (its counter's row is the mark).
const VIEWS: Limit = Limit {
    name: "leads-view",
    ..LEADS_READ
};

/// Leads read in an hour from which owners may be told.
pub const NOTICE_AT: i64 = 250;
/// Leads read per lead worked above which owners are told.
pub const WORK_RATIO: i64 = 10;

/// A view of the list by one person: who, and a digest of its address (no
/// search term is kept as typed).
pub struct View {
    staff_id: String,
    subject: String,
}

impl View {
    pub fn new(staff: &Staff, query: &str) -> Self {
        let digest = Sha256::digest(query.as_bytes());
        Self {
            staff_id: staff.user_id.clone(),
            subject: format!(
                "{}:{}",
                staff.user_id,
                crate::platform::signing::hex(&digest[..8])
            ),
        }
    }

    /// Charges `cost` leads for the view unless it was paid for this hour;
    /// then a row if it was (read with [`Charging::read`]).
    pub fn charge(&self, batch: &mut Batch, db: &D1Database, cost: i64, now: i64) -> Charging {
        Charging {
            charged: batch.add(rate_limit::charge(
                db,
                &LEADS_READ,
                &self.staff_id,
                cost,
                now,
                (&VIEWS, &self.subject),
            )),
            seen: batch.push(rate_limit::seen(db, &VIEWS, &self.subject, now)),
            cost,
        }
    }
}

/// The statements [`View::charge`] pushed, and what they charge.
pub struct Charging {
    charged: Handle,
    seen: Handle<Seen>,
    cost: i64,
}

/// What charging a view decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charge {
    /// Charged this many leads: shown, it gets back what it did not show.
    Charged(i64),
    /// Paid for earlier this hour.
    Free,
    /// Over the hour's limit: refused.
    Refused,
}

#[derive(Deserialize)]
struct Seen {
    #[allow(dead_code)]
    seen: i64,
}

impl Charging {
    /// What the batch decided.
    pub fn read(&self, results: &Results) -> worker::Result<Charge> {
        if results.returned_row(self.charged) {
            return Ok(Charge::Charged(self.cost));
        }
        Ok(match results.first(self.seen)? {
            Some(_) => Charge::Free,
            None => Charge::Refused,
        })
    }
}

/// An entry 'bulk_read' for `staff`, if this hour they were shown
/// [`NOTICE_AT`] leads or more and worked fewer than one in [`WORK_RATIO`],
/// and none was written this hour; it comes back (`read`, `worked`) when
/// written. `?4` is the hour's start, `?8` the action's name.
const BULK_READ_SQL: &str = "INSERT INTO audit_log (at, staff_id, staff_email, action, detail) \
     SELECT ?1, ?2, ?3, ?8, json_object('read', r.count, 'worked', w.n, 'since', ?4) \
     FROM rate_limits r, (SELECT count(DISTINCT lead_id) AS n FROM audit_log \
                          WHERE staff_id = ?2 AND at >= ?4 AND lead_id IS NOT NULL) w \
     WHERE r.key = ?5 AND r.window_start = ?4 AND r.count >= ?6 AND r.count > ?7 * w.n \
       AND NOT EXISTS (SELECT 1 FROM audit_log \
                       WHERE staff_id = ?2 AND action = ?8 AND at >= ?4) \
     RETURNING json_extract(detail, '$.read') AS read, json_extract(detail, '$.worked') AS worked";

/// What a person read and worked this hour, when owners are to be told.
#[derive(Debug, Deserialize)]
pub struct BulkRead {
    pub read: i64,
    pub worked: i64,
}

/// After a charged view was shown with `shown` leads: gives back what it
/// did not show, marks the view paid for this hour, and writes the owners'
/// entry if the reading now calls for one (the handle's row, if written).
pub fn settle(
    batch: &mut Batch,
    db: &D1Database,
    staff: &Staff,
    view: &View,
    unused: i64,
    charged_at: i64,
) -> Handle<BulkRead> {
    let hour = LEADS_READ.window_start(charged_at);
    batch.add(rate_limit::give_back(
        db,
        &LEADS_READ,
        &view.staff_id,
        unused,
        hour,
    ));
    batch.add(rate_limit::hit(db, &VIEWS, &view.subject, charged_at));
    batch.push(query!(
        db,
        BULK_READ_SQL,
        charged_at,
        staff.user_id,
        staff.email,
        hour,
        LEADS_READ.key(&view.staff_id),
        NOTICE_AT,
        WORK_RATIO,
        Action::BulkRead.name()
    ))
}

/// When the hour that `now` falls in ends: when the list shows leads again.
pub fn hour_ends(now: i64) -> i64 {
    LEADS_READ.window_start(now) + LEADS_READ.window_ms
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hour_is_on_the_hour_and_a_view_is_named_by_a_digest_of_its_address() {
        let at = 1_767_225_600_000; // 2026-01-01T00:00Z
        assert_eq!(hour_ends(at + 59 * 60 * 1000), at + 60 * 60 * 1000);
        assert_eq!(hour_ends(at + 60 * 60 * 1000), at + 2 * 60 * 60 * 1000);
        let staff = Staff {
            user_id: "u1".into(),
            email: "ana@x".into(),
            session_id: "s".into(),
            role: crate::auth::guard::Role::Staff,
            approved: true,
            rights: crate::auth::guard::Rights {
                export: false,
                delete: true,
                mark_sent: true,
                import_spend: false,
            },
        };
        let a = View::new(&staff, "q=maria+silva");
        assert!(a.subject.starts_with("u1:"));
        assert!(!a.subject.contains("maria"));
        assert_eq!(a.subject.len(), "u1:".len() + 16);
        assert_ne!(a.subject, View::new(&staff, "q=maria+silva&page=2").subject);
        assert_eq!(a.subject, View::new(&staff, "q=maria+silva").subject);
    }
}
