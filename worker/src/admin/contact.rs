//! 'Já falei': a person of the staff records that they spoke to the lead.
//! The first contact is recorded once, with who and when: of two brokers who
//! tap at once, the first batch D1 runs wins and both are answered with it.
//! 'Desfazer' takes it back, by whoever recorded it and within a minute (the
//! panel offers it for 10 seconds). Each is audited in the batch that makes
//! it, and only while the staff session may act.
//!
//! Every staff member may record a contact: it is the broker's own work and
//! a fact about the lead, not a change to its data or its delivery, so no
//! owner's right guards it (docs/decisions.md); 'Atividade' shows who did.
//!
//! `POST /api/leads/{id}/contact` and `POST /api/leads/{id}/uncontact`.

use serde::{Deserialize, Serialize};
use worker::{Env, Request, Response};

use super::actions::{Acting, act_with};
use super::store::maybe_iso_time;
use crate::agency::messages;
use crate::audit::action_sql;
use crate::audit::live_session::session_is_live;
use crate::auth::guard::Staff;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::db::query;
use crate::platform::{self, config};

/// How long after 'Já falei' its 'Desfazer' is taken: the panel offers it
/// for 10 seconds; a slow network gets the rest.
pub const UNDO_WINDOW_MS: i64 = 60 * 1000;

/// Every statement binds: `?1` now, `?2` the staff member's id, `?3` their
/// e-mail, `?4` the lead, `?5` the session, `?6` the undo window.
macro_rules! bound {
    ($db:expr, $sql:expr, $staff:expr, $lead:expr, $now:expr) => {
        query!(
            $db,
            $sql,
            $now,
            $staff.user_id,
            $staff.email,
            $lead,
            $staff.session_id,
            UNDO_WINDOW_MS
        )
    };
}

/// Nobody recorded a first contact yet, and the session may act.
macro_rules! uncontacted {
    () => {
        concat!(
            "first_contact_at IS NULL AND ",
            session_is_live!("?5", "?1"),
            " AND ?6 IS ?6"
        )
    };
}

/// The first contact is this person's, recorded within the window, and the
/// session may act.
macro_rules! undoable {
    () => {
        concat!(
            "first_contact_by = ?2 AND first_contact_at > ?1 - ?6 AND ",
            session_is_live!("?5", "?1")
        )
    };
}

const AUDIT_CONTACT_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
     SELECT ?1, ?2, ?3, ",
    action_sql!(Contact),
    ", id FROM leads WHERE id = ?4 AND ",
    uncontacted!()
);
const CONTACT_SQL: &str = concat!(
    "UPDATE leads SET first_contact_at = ?1, first_contact_by = ?2 WHERE id = ?4 AND ",
    uncontacted!(),
    " RETURNING id"
);
const AUDIT_UNCONTACT_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
     SELECT ?1, ?2, ?3, ",
    action_sql!(Uncontact),
    ", id FROM leads WHERE id = ?4 AND ",
    undoable!()
);
const UNCONTACT_SQL: &str = concat!(
    "UPDATE leads SET first_contact_at = NULL, first_contact_by = NULL WHERE id = ?4 AND ",
    undoable!(),
    " RETURNING id"
);
/// The lead's first contact as it stands after the batch.
const READ_SQL: &str = "SELECT id, first_contact_at, first_contact_by AS contacted_by_id, \
       (SELECT email FROM staff_users WHERE id = leads.first_contact_by) AS contacted_by \
     FROM leads WHERE id = ?1";

#[derive(Deserialize)]
struct ContactRow {
    first_contact_at: Option<i64>,
    contacted_by_id: Option<String>,
    contacted_by: Option<String>,
}

/// The answer: whether this call recorded (or undid) it, and the lead's
/// first contact as it now stands (`null`s: none).
#[derive(Serialize)]
struct Contact {
    recorded: bool,
    #[serde(serialize_with = "maybe_iso_time")]
    first_contact_at: Option<i64>,
    contacted_by_id: Option<String>,
    contacted_by: Option<String>,
    /// When 'Desfazer' is no longer taken (for the one who recorded it).
    #[serde(serialize_with = "maybe_iso_time")]
    undo_until: Option<i64>,
}

/// `POST /api/leads/{id}/contact`: 'Já falei'.
pub async fn record(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    decide(req, env, staff, id, true).await
}

/// `POST /api/leads/{id}/uncontact`: its 'Desfazer'.
pub async fn undo(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    decide(req, env, staff, id, false).await
}

async fn decide(
    req: &Request,
    env: &Env,
    staff: &Staff,
    id: &str,
    contact: bool,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let (audit, change) = match contact {
        true => (AUDIT_CONTACT_SQL, CONTACT_SQL),
        false => (AUDIT_UNCONTACT_SQL, UNCONTACT_SQL),
    };
    let mut acting = Acting::new(bound!(&db, audit, staff, id, now));
    let recorded = acting.add(bound!(&db, change, staff, id, now));
    let read = acting.change::<ContactRow>(query!(&db, READ_SQL, id));
    let results = act_with(&db, staff, acting, now).await?;
    let recorded = results.returned_row(recorded);
    let Some(row) = results.first(read)? else {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    };
    if !contact && !recorded {
        return Err(ApiError::Conflict(
            match &row.contacted_by_id {
                None => messages::UNCONTACT_NONE,
                Some(by) if *by != staff.user_id => messages::UNCONTACT_NOT_YOURS,
                Some(_) => messages::UNCONTACT_TOO_LATE,
            }
            .into(),
        ));
    }
    let mine = row.contacted_by_id.as_deref() == Some(staff.user_id.as_str());
    http::success(&Contact {
        recorded,
        undo_until: row
            .first_contact_at
            .filter(|_| mine && contact)
            .map(|at| at + UNDO_WINDOW_MS),
        first_contact_at: row.first_contact_at,
        contacted_by_id: row.contacted_by_id,
        contacted_by: row.contacted_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D1 refuses a statement whose highest placeholder is not the last value bound.
    #[test]
    fn every_statement_binds_its_six_values() {
        for sql in [
            AUDIT_CONTACT_SQL,
            CONTACT_SQL,
            AUDIT_UNCONTACT_SQL,
            UNCONTACT_SQL,
        ] {
            assert!(sql.contains("?6"), "{sql}");
            assert!(!sql.contains("?7"), "{sql}");
        }
    }

    #[test]
    fn the_audit_entry_is_written_under_its_changes_condition() {
        assert!(AUDIT_CONTACT_SQL.ends_with(uncontacted!()));
        assert!(CONTACT_SQL.contains(uncontacted!()));
        assert!(AUDIT_UNCONTACT_SQL.ends_with(undoable!()));
        assert!(UNCONTACT_SQL.contains(undoable!()));
    }
}
