//! `GET /api/leads/export.csv`: every lead of the list's filter as CSV,
//! streamed in keyset pages so 100,000 leads fit the worker's limits.
//!
//! Recorded in 'Atividade' with the filter as the list names it (`status`,
//! `q`, `de`, `ate`, `fonte`, `campanha`, `anuncio`) and its rows, kept up
//! to date as it streams, and how it ended. Between pages it asks again
//! whether its session may still act and its person may still export: an
//! owner's 'Desativar', 'Encerrar sessões' or taking 'Exportar CSV' away
//! stops it at its next page, and the download fails (the stream is cut)
//! instead of looking complete.

use futures_util::{StreamExt, stream};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use worker::{Env, Headers, Request, Response, Url};

use super::lead_csv;
use super::query::LeadQuery;
use super::store::{self, LeadRow};
use crate::agency::messages;
use crate::audit::{self as audit, Actor, EntryId, Subject};
use crate::auth::guard::Staff;
use crate::formats::dates;
use crate::http::{ApiError, ApiResult};
use crate::platform::db::{self, D1Database};
use crate::platform::{self, config};

/// Rows per D1 query of the export; 100,000 leads take 50 queries.
pub const EXPORT_BATCH: i64 = 2_000;

/// The list's filter as its address names it: what an export's entry keeps.
const FILTER_KEYS: [&str; 8] = [
    "status", "contato", "q", "de", "ate", "fonte", "campanha", "anuncio",
];
/// The longest value of the filter kept (a search term's longest is 100).
const MAX_FILTER_CHARS: usize = 200;

/// Where an export is, as its entry says (`state`): running, or how it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Still streaming (or its reader went away before the end).
    Running,
    Complete,
    /// An owner took 'Exportar CSV' away while it streamed.
    RightTaken,
    /// Its session ended, or its account was switched off.
    SessionEnded,
    /// A page could not be read.
    Failed,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::Running => "running",
            State::Complete => "complete",
            State::RightTaken => "right_taken",
            State::SessionEnded => "session_ended",
            State::Failed => "failed",
        }
    }
}

/// Filters whose empty value still narrows: the leads without a campaign, or an ad.
const EMPTY_NARROWS: [&str; 2] = ["campanha", "anuncio"];

/// The filter of the export at `url`: each of the list's filter names it
/// carries, with its value as given (a search term as typed); an empty one
/// only where it narrows.
fn filter_of(url: &Url) -> Value {
    let mut filter = Map::new();
    for (key, value) in url.query_pairs() {
        let value: String = value.trim().chars().take(MAX_FILTER_CHARS).collect();
        let narrows = !value.is_empty() || EMPTY_NARROWS.contains(&key.as_ref());
        if FILTER_KEYS.contains(&key.as_ref()) && narrows {
            filter.insert(key.into_owned(), Value::String(value));
        }
    }
    Value::Object(filter)
}

/// The detail of an export's entry: its rows so far and how it ended.
fn progress(rows: usize, ended: State) -> Value {
    json!({ "rows": rows, "state": ended.name() })
}

/// What the stream carries from one page to the next.
struct Streaming {
    after: Option<(i64, String)>,
    db: D1Database,
    q: LeadQuery,
    staff: Staff,
    entry: i64,
    /// Rows sent so far.
    rows: usize,
}

/// Whether an export's person may go on: its session, and its right.
#[derive(Deserialize)]
struct MayExport {
    may_export: i64,
}

pub async fn export(req: &Request, env: &Env, staff: &Staff) -> ApiResult<Response> {
    if !staff.rights.export {
        return Err(ApiError::Forbidden(messages::EXPORT_NOT_ALLOWED.into()));
    }
    let url = req.url()?;
    let q = LeadQuery::from_url(&url, &staff.user_id);
    let db = config::database(env)?;
    // The first page is read before answering, so a failing database is a
    // 500, not a cut file; the entry is written before any row is answered.
    let first = store::first_page(&db, &q, EXPORT_BATCH).await?;
    let after = next_cursor(&first);
    let ended = if after.is_none() {
        State::Complete
    } else {
        State::Running
    };
    let mut detail = json!({ "filter": filter_of(&url) });
    merge(&mut detail, progress(first.len(), ended));
    let recorded = audit::record_detail(
        &db,
        Actor {
            id: Some(&staff.user_id),
            email: &staff.email,
        },
        audit::Action::Export,
        Subject::Nothing,
        &detail,
        platform::now_ms(),
    );
    let entry = db::first::<EntryId>(&recorded)
        .await?
        .ok_or_else(|| ApiError::Internal("the export's entry was not written".into()))?
        .id;
    let mut head = format!("{}{}", crate::formats::csv::BOM, lead_csv::header());
    head.extend(first.iter().map(lead_csv::row));
    let state = Streaming {
        after,
        db,
        q,
        staff: staff.clone(),
        entry,
        rows: first.len(),
    };
    let rest = stream::unfold(state, |state| async move {
        let (created_at, id) = state.after.clone()?;
        let page = (created_at, id.as_str());
        let now = platform::now_ms();
        let mut batch = db::Batch::new();
        let may = batch.push::<MayExport>(store::may_export(&state.db, &state.staff, now));
        batch.add(audit::set_detail(
            &state.db,
            state.entry,
            &progress(state.rows, State::Running),
        ));
        let rows =
            batch.push::<LeadRow>(store::page_after(&state.db, &state.q, page, EXPORT_BATCH));
        let read = batch
            .run(&state.db)
            .await
            .and_then(|results| Ok((results.first(may)?, results.rows(rows)?)));
        match read {
            Ok((Some(may), rows)) if may.may_export == 1 => {
                let rows_now = state.rows + rows.len();
                let after = next_cursor(&rows);
                if after.is_none() {
                    finish(&state, rows_now, State::Complete).await;
                }
                let chunk: String = rows.iter().map(lead_csv::row).collect();
                let next = Streaming {
                    after,
                    rows: rows_now,
                    ..state
                };
                Some((Ok(chunk.into_bytes()), next))
            }
            Ok((may, _)) => {
                let (ended, why) = match may {
                    Some(_) => (State::RightTaken, "its right to export was taken away"),
                    None => (State::SessionEnded, "its staff session ended"),
                };
                worker::console_log!("export: stopped, {why} while it ran");
                finish(&state, state.rows, ended).await;
                let stopped = worker::Error::from(format!("the export stopped: {why}"));
                Some((
                    Err(stopped),
                    Streaming {
                        after: None,
                        ..state
                    },
                ))
            }
            Err(error) => {
                worker::console_error!("export: a page of leads could not be read: {error}");
                finish(&state, state.rows, State::Failed).await;
                Some((
                    Err(error),
                    Streaming {
                        after: None,
                        ..state
                    },
                ))
            }
        }
    });
    let body = stream::once(async move { Ok(head.into_bytes()) }).chain(rest);
    // The day staff are in (Brasília), not UTC's, which is tomorrow from 21:00.
    let date = dates::brasilia_day(platform::now_ms());
    let headers = Headers::new();
    headers.set("Content-Type", "text/csv; charset=utf-8")?;
    headers.set(
        "Content-Disposition",
        &format!("attachment; filename=\"leads-{date}.csv\""),
    )?;
    Ok(Response::from_stream(body)?
        .with_status(200)
        .with_headers(headers))
}

/// Writes how the export ended, with its rows, in its entry. A write that
/// fails is logged: the rows already went.
async fn finish(state: &Streaming, rows: usize, ended: State) {
    let statement = audit::set_detail(&state.db, state.entry, &progress(rows, ended));
    if let Err(error) = db::run(&statement).await {
        worker::console_error!("export: its end was not recorded: {error}");
    }
}

/// `detail` with the members of `more` set.
fn merge(detail: &mut Value, more: Value) {
    if let (Value::Object(detail), Value::Object(more)) = (detail, more) {
        detail.extend(more);
    }
}

/// Where the next export page starts; `None` after a short (last) page.
fn next_cursor(rows: &[LeadRow]) -> Option<(i64, String)> {
    if (rows.len() as i64) < EXPORT_BATCH {
        return None;
    }
    rows.last().map(|l| (l.created_at, l.id.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_keeps_the_list_filter_as_it_names_it_and_nothing_else() {
        let url = Url::parse(
            "https://x.example/api/leads/export.csv?status=pendentes&q=+Silva+&de=2026-01-01\
             &ate=2026-01-31&fonte=instagram&campanha=&anuncio=&status=&page=3&after=1.x&token=t",
        )
        .unwrap();
        assert_eq!(
            filter_of(&url),
            json!({
                "status": "pendentes", "q": "Silva", "de": "2026-01-01", "ate": "2026-01-31",
                "fonte": "instagram", "campanha": "", "anuncio": ""
            })
        );
        let long = Url::parse(&format!("https://x.example/?q={}", "a".repeat(500))).unwrap();
        assert_eq!(filter_of(&long)["q"].as_str().map(str::len), Some(200));
    }

    #[test]
    fn its_detail_says_its_rows_and_how_it_ended() {
        let mut detail = json!({ "filter": { "status": "enviados" } });
        merge(&mut detail, progress(4_000, State::RightTaken));
        assert_eq!(
            detail,
            json!({ "filter": { "status": "enviados" }, "rows": 4000, "state": "right_taken" })
        );
    }
}
