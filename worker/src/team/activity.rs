//! 'Atividade', beside 'Equipe': the audit trail as owners read it.
//! (`crate::audit` writes it.)
//!
//! `GET /api/audit?[pessoa=<account id>][&acao=<action>][&de=&ate=][&before=<at>.<id>]`:
//! owners only, newest first, [`PAGE_SIZE`] entries at a time, filtered by
//! who did it, what they did and a period of Brasília days, each filter
//! served by an index in the order the page is read (`audit_log_staff`,
//! `audit_log_action`, `audit_log_at`). Each lead is named by its name as
//! it is now (the trail keeps only its id), or as gone.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;
use worker::{Env, Method, Request, Response, Url};

use crate::agency::messages;
use crate::audit::Action;
use crate::auth::guard;
use crate::formats::dates::{self, Day};
use crate::http::{self, ApiError, ApiResult, invalid_field};
use crate::platform::config;
use crate::platform::db::{self, Param};

pub const PAGE_SIZE: i64 = 50;

/// An entry as the 'Atividade' page shows it: read from D1, answered as
/// JSON (`at` as an ISO time, the actor as `actor_email`). `lead_name` is
/// the lead's name now (`null` once it was deleted); `detail` what the
/// entry keeps besides (an export's filter and rows, a right given or taken).
#[derive(Debug, Deserialize, Serialize)]
struct Entry {
    id: i64,
    #[serde(serialize_with = "as_iso")]
    at: i64,
    #[serde(rename(serialize = "actor_email"))]
    staff_email: String,
    actor_id: Option<String>,
    action: String,
    lead_id: Option<String>,
    lead_name: Option<String>,
    account_id: Option<String>,
    account_email: Option<String>,
    #[serde(default, deserialize_with = "json_text")]
    detail: Option<Box<RawValue>>,
}

/// A column of JSON text as the JSON it holds (`null` if none or unreadable).
fn json_text<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Box<RawValue>>, D::Error> {
    let text = Option::<String>::deserialize(deserializer)?;
    Ok(text.and_then(|t| RawValue::from_string(t).ok()))
}

/// A time in ms as the pages read it: ISO 8601, `null` if out of range.
fn as_iso<S: Serializer>(ms: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    dates::iso(*ms).serialize(serializer)
}

/// Someone the page can filter by.
#[derive(Debug, Deserialize, Serialize)]
struct Person {
    id: String,
    email: String,
}

/// One page of the trail, the key to ask the next one `before` (`null` on
/// the last page), and the people to filter by.
#[derive(Serialize)]
struct Page {
    entries: Vec<Entry>,
    next_before: Option<String>,
    page_size: i64,
    people: Vec<Person>,
}

/// The columns of an entry, with its lead's name and its account's e-mail.
const ENTRY_FROM: &str = "SELECT a.id, a.at, a.staff_email, a.staff_id AS actor_id, a.action, \
       a.lead_id, l.name AS lead_name, a.account_id, t.email AS account_email, a.detail \
     FROM audit_log a LEFT JOIN staff_users t ON t.id = a.account_id \
       LEFT JOIN leads l ON l.id = a.lead_id \
     WHERE (a.at, a.id) < (?1, ?2) AND a.at >= ?3 AND a.at < ?4";
const BY_PERSON: &str = " AND a.staff_id = ?";
const BY_ACTION: &str = " AND a.action = ?";
const NEWEST_FIRST: &str = " ORDER BY a.at DESC, a.id DESC LIMIT ?";
const PEOPLE_SQL: &str = "SELECT id, email FROM staff_users ORDER BY email";

/// Past any time or id, and still a number JavaScript holds exactly, as D1 needs.
const END_OF_TIME: i64 = 9_007_199_254_740_991;

/// What `GET /api/audit` asks for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Filter {
    person: Option<String>,
    action: Option<&'static str>,
    /// From (inclusive) and to (exclusive), ms.
    from: Option<i64>,
    to: Option<i64>,
    /// The page starts after this entry (its time and id).
    before: Option<(i64, i64)>,
}

impl Filter {
    fn from_url(url: &Url) -> ApiResult<Self> {
        let mut filter = Filter::default();
        let day = |text: &str, field| {
            Day::parse(text).ok_or_else(|| invalid_field(messages::PERIOD_DAY_INVALID, field))
        };
        for (key, value) in url.query_pairs() {
            let value = value.trim();
            if value.is_empty() {
                continue;
            }
            match key.as_ref() {
                "pessoa" => filter.person = Some(value.chars().take(64).collect()),
                "acao" => {
                    let known = Action::parse(value)
                        .ok_or_else(|| invalid_field(messages::FIELD_INVALID, "acao"))?;
                    filter.action = Some(known.name());
                }
                "de" => filter.from = Some(day(value, "de")?.start_ms()),
                "ate" => filter.to = Some(day(value, "ate")?.plus(1).start_ms()),
                "before" => filter.before = parse_key(value),
                _ => {}
            }
        }
        if let (Some(from), Some(to)) = (filter.from, filter.to)
            && from >= to
        {
            return Err(invalid_field(messages::PERIOD_BACKWARDS, "de"));
        }
        Ok(filter)
    }

    /// The page's statement: the filters this request has, each by its own
    /// fragment, so each is served by its index.
    fn statement(&self, db: &db::D1Database) -> db::D1PreparedStatement {
        let (at, id) = self.before.unwrap_or((END_OF_TIME, END_OF_TIME));
        let mut sql = ENTRY_FROM.to_string();
        let mut values = vec![
            at.value(),
            id.value(),
            self.from.unwrap_or(0).value(),
            self.to.unwrap_or(END_OF_TIME).value(),
        ];
        let mut add = |fragment: &str, value: wasm_bindgen::JsValue| {
            sql.push_str(fragment);
            sql.push_str(&(values.len() + 1).to_string());
            values.push(value);
        };
        if let Some(person) = &self.person {
            add(BY_PERSON, person.as_str().value());
        }
        if let Some(action) = self.action {
            add(BY_ACTION, action.value());
        }
        add(NEWEST_FIRST, (PAGE_SIZE + 1).value());
        db::bind(db, &sql, &values)
    }
}

/// The key of an entry for `before`: `<at>.<id>`.
fn key_of(entry: &Entry) -> String {
    format!("{}.{}", entry.at, entry.id)
}

fn parse_key(text: &str) -> Option<(i64, i64)> {
    let (at, id) = text.split_once('.')?;
    let (at, id) = (at.parse::<i64>().ok()?, id.parse::<i64>().ok()?);
    (at > 0 && id > 0 && at <= END_OF_TIME && id <= END_OF_TIME).then_some((at, id))
}

/// `GET /api/audit`: one page, newest first.
pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    if path != "/api/audit" {
        return Err(ApiError::NotFound(messages::NOT_FOUND.into()));
    }
    if req.method() != Method::Get {
        return Err(ApiError::MethodNotAllowed("GET"));
    }
    guard::require_owner(&req, env).await?;
    let filter = Filter::from_url(&req.url()?)?;
    let db = config::database(env)?;
    let mut batch = db::Batch::new();
    let entries = batch.push::<Entry>(filter.statement(&db));
    let people = batch.push(db.prepare(PEOPLE_SQL));
    let results = batch.run(&db).await?;
    let mut entries = results.rows(entries)?;
    let more = entries.len() as i64 > PAGE_SIZE;
    entries.truncate(PAGE_SIZE as usize);
    let next_before = if more {
        entries.last().map(key_of)
    } else {
        None
    };
    http::success(&Page {
        entries,
        next_before,
        page_size: PAGE_SIZE,
        people: results.rows(people)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_as_the_activity_page_expects() {
        let row = r#"{"id":7,"at":0,"staff_email":"ana@agencia.com.br","actor_id":"u1",
            "action":"export","lead_id":"l1","lead_name":"Maria","account_id":null,
            "account_email":null,"detail":"{\"rows\":3,\"filter\":{\"q\":\"silva\"}}"}"#;
        let entry: Entry = serde_json::from_str(row).unwrap();
        assert_eq!(
            serde_json::to_value(&entry).unwrap(),
            serde_json::json!({
                "id": 7,
                "at": "1970-01-01T00:00:00.000Z",
                "actor_email": "ana@agencia.com.br",
                "actor_id": "u1",
                "action": "export",
                "lead_id": "l1",
                "lead_name": "Maria",
                "account_id": null,
                "account_email": null,
                "detail": { "rows": 3, "filter": { "q": "silva" } }
            })
        );
        assert_eq!(key_of(&entry), "0.7");
    }

    #[test]
    fn every_action_written_can_be_filtered_by() {
        for action in Action::ALL {
            let url = Url::parse(&format!(
                "https://x.example/api/audit?acao={}",
                action.name()
            ));
            let filter = Filter::from_url(&url.unwrap()).unwrap();
            assert_eq!(filter.action, Some(action.name()));
        }
    }

    #[test]
    fn the_filter_reads_the_address_and_refuses_what_it_cannot() {
        let url = |q: &str| Url::parse(&format!("https://x.example/api/audit?{q}")).unwrap();
        let filter = Filter::from_url(&url(
            "pessoa=u1&acao=export&de=2026-01-01&ate=2026-01-01&before=1767236400000.42",
        ))
        .unwrap();
        let day = Day::parse("2026-01-01").unwrap();
        assert_eq!(
            filter,
            Filter {
                person: Some("u1".into()),
                action: Some("export"),
                from: Some(day.start_ms()),
                to: Some(day.plus(1).start_ms()),
                before: Some((1_767_236_400_000, 42)),
            }
        );
        assert_eq!(
            Filter::from_url(&url("acao=&pessoa=")).unwrap(),
            Filter::default()
        );
        for bad in ["acao=drop", "de=01/01/2026", "de=2026-02-01&ate=2026-01-01"] {
            assert!(Filter::from_url(&url(bad)).is_err(), "{bad}");
        }
        assert_eq!(parse_key("x.1"), None);
        assert_eq!(parse_key("12"), None);
    }
}
