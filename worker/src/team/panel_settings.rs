//! The owners' choices for the panel (`panel_settings`, 0023): the target
//! for the time to first contact, and whether new colleagues start with the
//! new-lead notices on. Every staff member reads them (the report measures
//! against the target); only owners change them, each change audited in its
//! batch ('Atividade': which choice, and its new value).
//!
//! `GET /api/settings`; `PUT /api/settings` `{contact_target_minutes?, colleague_notices?}`.

use serde::{Deserialize, Serialize};
use worker::{Env, Method, Request, Response};

use crate::agency::messages;
use crate::audit::live_session::{live_row, session_is_live};
use crate::auth::guard::{self, Staff};
use crate::http::{self, ApiError, ApiResult, Field, invalid_field};
use crate::platform::db::{self, D1Database, query};
use crate::platform::{self, config};

/// The target's bounds: a minute to a day.
pub const TARGET_MINUTES: std::ops::RangeInclusive<i64> = 1..=1440;

/// The owners' choices as the panel reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct Settings {
    pub contact_target_minutes: i64,
    pub colleague_notices: bool,
}

/// Both choices in one row (the migration wrote both; a missing one reads
/// as its default).
pub const READ_SQL: &str = "SELECT \
     coalesce((SELECT value FROM panel_settings WHERE name = 'contact_target_minutes'), 5) \
       AS contact_target_minutes, \
     coalesce((SELECT value FROM panel_settings WHERE name = 'colleague_notices'), 1) \
       AS colleague_notices";

#[derive(Deserialize)]
struct Row {
    contact_target_minutes: i64,
    colleague_notices: i64,
}

impl From<Row> for Settings {
    fn from(row: Row) -> Self {
        Self {
            contact_target_minutes: row.contact_target_minutes,
            colleague_notices: row.colleague_notices == 1,
        }
    }
}

/// A choice `?1` set to `?2` by the owner whose session `?3` may act at `?4`.
const SET_SQL: &str = concat!(
    "INSERT INTO panel_settings (name, value) SELECT ?1, CAST(?2 AS INTEGER) WHERE ",
    session_is_live!("?3", "?4"),
    " AND EXISTS (SELECT 1 FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id \
       WHERE s.id = ?3 AND u.role = ",
    crate::agency::roles::role_sql!(Owner),
    ") \
     ON CONFLICT (name) DO UPDATE SET value = excluded.value RETURNING name"
);
/// Its entry in the activity, under the same conditions (`?5`, `?6`: who).
const AUDIT_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, detail) \
     SELECT ?4, ?5, ?6, ",
    crate::audit::action_sql!(Settings),
    ", json_object('name', ?1, 'value', CAST(?2 AS INTEGER)) WHERE ",
    session_is_live!("?3", "?4"),
    " AND EXISTS (SELECT 1 FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id \
       WHERE s.id = ?3 AND u.role = ",
    crate::agency::roles::role_sql!(Owner),
    ")"
);
const SESSION_LIVE_SQL: &str = live_row!("?1", "?2");

pub async fn read(db: &D1Database) -> worker::Result<Settings> {
    let row: Option<Row> = db::first(&db.prepare(READ_SQL)).await?;
    Ok(row.map_or(
        Settings {
            contact_target_minutes: 5,
            colleague_notices: true,
        },
        Settings::from,
    ))
}

pub async fn route(mut req: Request, env: &Env) -> ApiResult<Response> {
    match req.method() {
        Method::Get => {
            guard::require_staff(&req, env).await?;
            http::success(&read(&config::database(env)?).await?)
        }
        Method::Put => {
            http::require_same_origin(&req)?;
            let staff = guard::require_owner(&req, env).await?;
            let body = http::read_json_object(&mut req).await?;
            let changes = choices(&body)?;
            change(env, &staff, &changes).await
        }
        _ => Err(ApiError::MethodNotAllowed("GET, PUT")),
    }
}

/// What the body asks to change, each as its name and value; 422 for a
/// value out of its bounds (nothing changes then).
fn choices(body: &http::Fields) -> ApiResult<Vec<(&'static str, i64)>> {
    let mut changes = Vec::new();
    match body.get("contact_target_minutes") {
        None => {}
        Some(Field::Integer(n)) if TARGET_MINUTES.contains(n) => {
            changes.push(("contact_target_minutes", *n))
        }
        Some(_) => {
            return Err(invalid_field(
                messages::CONTACT_TARGET_INVALID,
                "contact_target_minutes",
            ));
        }
    }
    match body.get("colleague_notices") {
        None => {}
        Some(Field::Bool(on)) => changes.push(("colleague_notices", i64::from(*on))),
        Some(_) => {
            return Err(invalid_field(messages::FIELD_INVALID, "colleague_notices"));
        }
    }
    if changes.is_empty() {
        return Err(ApiError::BadRequest(messages::INVALID_JSON.into()));
    }
    Ok(changes)
}

async fn change(env: &Env, staff: &Staff, changes: &[(&str, i64)]) -> ApiResult<Response> {
    let db = config::database(env)?;
    let now = platform::now_ms();
    let mut batch = db::Batch::new();
    let mut set = Vec::new();
    for (name, value) in changes {
        batch.add(query!(
            &db,
            AUDIT_SQL,
            name,
            value,
            staff.session_id,
            now,
            staff.user_id,
            staff.email
        ));
        set.push(batch.add(query!(&db, SET_SQL, name, value, staff.session_id, now)));
    }
    let live = batch.add(query!(&db, SESSION_LIVE_SQL, staff.session_id, now));
    let read = batch.push::<Row>(db.prepare(READ_SQL));
    let results = batch.run(&db).await?;
    if !set
        .first()
        .is_some_and(|&first| results.returned_row(first))
    {
        // Not written: the session ended, or its person is no longer an owner.
        return Err(match results.returned_row(live) {
            true => ApiError::Forbidden(messages::OWNERS_ONLY.into()),
            false => ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into()),
        });
    }
    let row = results.first(read)?;
    http::success(&row.map(Settings::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> http::Fields {
        http::Fields::from_json(json.as_bytes()).unwrap()
    }

    #[test]
    fn the_target_is_a_whole_number_of_minutes_from_one_to_a_day() {
        assert_eq!(
            choices(&body(r#"{"contact_target_minutes": 10}"#)).unwrap(),
            [("contact_target_minutes", 10)]
        );
        for bad in ["0", "1441", "2.5", "\"5\"", "null", "true"] {
            let refused = choices(&body(&format!(r#"{{"contact_target_minutes": {bad}}}"#)));
            assert_eq!(refused.map_err(|e| e.status()), Err(422), "{bad}");
        }
        assert_eq!(
            choices(&body(
                r#"{"colleague_notices": false, "contact_target_minutes": 3}"#
            ))
            .unwrap(),
            [("contact_target_minutes", 3), ("colleague_notices", 0)]
        );
        assert_eq!(choices(&body("{}")).map_err(|e| e.status()), Err(400));
    }

    #[test]
    fn both_statements_bind_what_they_are_given() {
        assert!(AUDIT_SQL.contains("?6") && !AUDIT_SQL.contains("?7"));
        assert!(SET_SQL.contains("?4") && !SET_SQL.contains("?5"));
    }
}
