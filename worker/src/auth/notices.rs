//! 'Receber aviso de novos leads': each staff member switches their own
//! new-lead e-mails on or off (owners start with them on).
//!
//! `GET /api/auth/notices` → `{"enabled": bool}`; `PUT` with `{"enabled": bool}`
//! switches it. Switched on again, the notices start from that moment: nobody
//! gets the leads of the weeks they had it off.

use serde::{Deserialize, Serialize};
use worker::{Env, Request, Response};

use super::guard;
use crate::agency::messages;
use crate::alerts::notices::notices_from_now;
use crate::http::{self, ApiResult, Field, invalid_field};
use crate::platform::config;
use crate::platform::db::{self, query};

const READ_SQL: &str = "SELECT lead_notices FROM staff_users WHERE id = ?1";
const SWITCH_SQL: &str = concat!(
    "UPDATE staff_users SET \
       notices_sent_through = CASE WHEN ?2 = 1 AND lead_notices = 0 THEN ",
    notices_from_now!(),
    " ELSE notices_sent_through END, \
       lead_notices = ?2 \
     WHERE id = ?1 RETURNING lead_notices"
);

#[derive(Deserialize)]
struct Row {
    lead_notices: i64,
}

/// The answer: `{"success": true, "enabled": …}`.
#[derive(Serialize)]
struct Notices {
    enabled: bool,
}

pub async fn read(req: Request, env: &Env) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let db = config::database(env)?;
    let row: Option<Row> = db::first(&query!(&db, READ_SQL, staff.user_id)).await?;
    enabled(row)
}

fn enabled(row: Option<Row>) -> ApiResult<Response> {
    http::success(&Notices {
        enabled: row.is_some_and(|r| r.lead_notices == 1),
    })
}

pub async fn switch(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let staff = guard::require_staff(&req, env).await?;
    let body = http::read_json_object(&mut req).await?;
    let Some(&Field::Bool(on)) = body.get("enabled") else {
        return Err(invalid_field(messages::FIELD_INVALID, "enabled"));
    };
    let db = config::database(env)?;
    let row: Option<Row> =
        db::first(&query!(&db, SWITCH_SQL, staff.user_id, i64::from(on))).await?;
    enabled(row)
}
