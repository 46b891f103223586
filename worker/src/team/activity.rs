//! 'Atividade', beside 'Equipe': the audit trail as owners read it.
//! (`crate::audit_log` writes it.)
//!
//! `GET /api/audit?before=<id>`: owners only, newest first, [`PAGE_SIZE`]
//! entries at a time.

use serde::{Deserialize, Serialize, Serializer};
use worker::{Env, Method, Request, Response};

use crate::auth::guard;
use crate::db::{self, query};
use crate::http::{self, ApiError, ApiResult};
use crate::{config, dates, messages};

pub const PAGE_SIZE: i64 = 50;

/// An entry as the 'Atividade' page shows it: read from D1, answered as
/// JSON (`at` as an ISO time, the actor as `actor_email`).
#[derive(Debug, Deserialize, Serialize)]
struct Entry {
    id: i64,
    #[serde(serialize_with = "as_iso")]
    at: i64,
    #[serde(rename(serialize = "actor_email"))]
    staff_email: String,
    action: String,
    lead_id: Option<String>,
    account_id: Option<String>,
    account_email: Option<String>,
}

/// A time in ms as the pages read it: ISO 8601, `null` if out of range.
fn as_iso<S: Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    dates::iso(*ms).serialize(serializer)
}

/// One page of the trail, and the id to ask the next one `before` (`null`
/// on the last page).
#[derive(Serialize)]
struct Page {
    entries: Vec<Entry>,
    next_before: Option<i64>,
    page_size: i64,
}

const PAGE_SQL: &str = "SELECT a.id, a.at, a.staff_email, a.action, a.lead_id, a.account_id, \
       t.email AS account_email \
     FROM audit_log a LEFT JOIN staff_users t ON t.id = a.account_id \
     WHERE a.id < ?1 ORDER BY a.id DESC LIMIT ?2";

/// `GET /api/audit?before=`: one page, newest first (ids grow with time).
pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    if path != "/api/audit" {
        return Err(ApiError::NotFound(messages::NOT_FOUND.into()));
    }
    if req.method() != Method::Get {
        return Err(ApiError::MethodNotAllowed("GET"));
    }
    guard::require_owner(&req, env).await?;
    let before = req
        .url()?
        .query_pairs()
        .find(|(k, _)| k == "before")
        .and_then(|(_, v)| v.parse::<i64>().ok())
        .filter(|v| *v > 0)
        // Past any id, and still a number JavaScript holds exactly, as D1 needs.
        .unwrap_or(9_007_199_254_740_991);
    let db = config::database(env)?;
    let mut entries: Vec<Entry> =
        db::rows_of(&query!(&db, PAGE_SQL, before, PAGE_SIZE + 1)).await?;
    let more = entries.len() as i64 > PAGE_SIZE;
    entries.truncate(PAGE_SIZE as usize);
    let next_before = if more {
        entries.last().map(|e| e.id)
    } else {
        None
    };
    http::success(&Page {
        entries,
        next_before,
        page_size: PAGE_SIZE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_as_the_activity_page_expects() {
        let row = r#"{"id":7,"at":0,"staff_email":"ana@agencia.com.br","action":"disable",
            "lead_id":null,"account_id":"u2","account_email":"bia@agencia.com.br"}"#;
        let entry: Entry = serde_json::from_str(row).unwrap();
        assert_eq!(
            serde_json::to_value(&entry).unwrap(),
            serde_json::json!({
                "id": 7,
                "at": "1970-01-01T00:00:00.000Z",
                "actor_email": "ana@agencia.com.br",
                "action": "disable",
                "lead_id": null,
                "account_id": "u2",
                "account_email": "bia@agencia.com.br"
            })
        );
    }
}
