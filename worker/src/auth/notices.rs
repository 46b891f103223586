//! 'Receber aviso de novos leads': each staff member switches their own
//! new-lead e-mails on or off (owners start with them on).
//!
//! `GET /api/auth/notices` → `{"enabled": bool}`; `PUT` with `{"enabled": bool}`
//! switches it. Switched on again, the notices start from that moment: nobody
//! gets the leads of the weeks they had it off.

use worker::Env;

use super::guard;
use crate::alerts::notices::notices_from_now;
use crate::d1::{query, row};
use crate::http::{self, ApiResult, Field, invalid_field};
use crate::web::{Request, Response};
use crate::{config, json, messages};

const READ_SQL: &str = "SELECT lead_notices FROM staff_users WHERE id = ?1";
const SWITCH_SQL: &str = concat!(
    "UPDATE staff_users SET \
       notices_sent_through = CASE WHEN ?2 = 1 AND lead_notices = 0 THEN ",
    notices_from_now!(),
    " ELSE notices_sent_through END, \
       lead_notices = ?2 \
     WHERE id = ?1 RETURNING lead_notices"
);

row! {
    struct Row {
        lead_notices: i64,
    }
}

pub async fn read(req: Request, env: &Env) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let db = config::database(env)?;
    let row: Option<Row> = query!(&db, READ_SQL, staff.user_id).first().await?;
    enabled(row)
}

fn enabled(row: Option<Row>) -> ApiResult<Response> {
    http::success(json::object().field("enabled", row.is_some_and(|r| r.lead_notices == 1)))
}

pub async fn switch(req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let staff = guard::require_staff(&req, env).await?;
    let body = http::read_json_object(&req).await?;
    let Some(&Field::Bool(on)) = body.get("enabled") else {
        return Err(invalid_field(messages::FIELD_INVALID, "enabled"));
    };
    let db = config::database(env)?;
    let row: Option<Row> = query!(&db, SWITCH_SQL, staff.user_id, i64::from(on))
        .first()
        .await?;
    enabled(row)
}
