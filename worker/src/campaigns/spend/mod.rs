//! What campaigns spent, under `/api/campaigns/spend`: owners (and those an
//! owner gave 'Importar investimento') import a file of spend (`POST`, the
//! file as the body, `?arquivo=` its name), see the imports (`GET`) and undo
//! one (`POST …/{id}/undo`). Every staff member sees the spend in the report.
//! The cron reads Meta's own figures when it is set up to ([`meta`]).

pub mod meta;
pub mod parse;
pub mod store;

use serde::Serialize;
use worker::{Method, Request, Response};

use crate::agency::messages;
use crate::auth::guard::Staff;
use crate::formats::dates::{self, Day};
use crate::http::{self, ApiError, ApiResult, read_up_to};
use crate::platform;
use crate::platform::db::D1Database;
use parse::Refusal;
use store::{ImportRow, Importer, NewImport, Undone};

/// The largest file taken: a year of daily spend of 130 ads, with room.
const MAX_FILE_BYTES: usize = 5 * 1024 * 1024;
/// The imports listed.
const LISTED: i64 = 50;

/// An import as the page shows it: times in ISO 8601.
#[derive(Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    row: &'a ImportRow,
    at_iso: Option<String>,
    undone_at_iso: Option<String>,
}

fn shown(row: &ImportRow) -> Shown<'_> {
    Shown {
        row,
        at_iso: dates::iso(row.at),
        undone_at_iso: row.undone_at.and_then(dates::iso),
    }
}

#[derive(Serialize)]
struct Imports<'a> {
    imports: Vec<Shown<'a>>,
    /// Whether the person asking may import and undo.
    may_import: bool,
}

#[derive(Serialize)]
struct Imported<'a> {
    success: bool,
    import: Shown<'a>,
}

/// A refused file: the message, and each line that could not be read.
#[derive(Serialize)]
struct Refused<'a> {
    success: bool,
    error: &'a str,
    lines: &'a [String],
    /// How many lines had errors in all (the first 20 are named).
    errors: usize,
}

pub async fn route(
    req: &mut Request,
    db: &D1Database,
    staff: &Staff,
    rest: &[&str],
) -> ApiResult<Response> {
    match (rest, req.method()) {
        ([], Method::Get) => list(db, staff).await,
        ([], Method::Post) => import(req, db, staff).await,
        ([], _) => Err(ApiError::MethodNotAllowed("GET, POST")),
        ([id, "undo"], Method::Post) => undo(req, db, staff, id).await,
        ([_, "undo"], _) => Err(ApiError::MethodNotAllowed("POST")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}

async fn list(db: &D1Database, staff: &Staff) -> ApiResult<Response> {
    let rows = store::list(db, LISTED).await?;
    http::success(&Imports {
        imports: rows.iter().map(shown).collect(),
        may_import: staff.rights.import_spend,
    })
}

fn may_import(staff: &Staff) -> ApiResult<()> {
    if staff.rights.import_spend {
        Ok(())
    } else {
        Err(ApiError::Forbidden(messages::SPEND_FORBIDDEN.into()))
    }
}

/// `POST /api/campaigns/spend?arquivo=`: the file, kept whole or refused
/// whole with each line that could not be read.
async fn import(req: &mut Request, db: &D1Database, staff: &Staff) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    may_import(staff)?;
    let url = req.url()?;
    let file_name = url
        .query_pairs()
        .find(|(k, _)| k == "arquivo")
        .map(|(_, v)| v.chars().take(200).collect::<String>())
        .and_then(|v| crate::attribution::clean(Some(v), 200));
    let (bytes, whole) = read_up_to(req.stream()?, MAX_FILE_BYTES).await?;
    if !whole {
        return Err(ApiError::Unprocessable {
            message: messages::SPEND_TOO_LARGE.into(),
            fields: vec![("arquivo", messages::SPEND_TOO_LARGE.into())],
        });
    }
    let now = platform::now_ms();
    let file = match parse::parse(&bytes, Day::in_brasilia(now)) {
        Ok(file) => file,
        Err(refusal) => return refused(refusal),
    };
    let importer = Importer::Staff {
        user_id: &staff.user_id,
        email: &staff.email,
        session_id: &staff.session_id,
    };
    let import = NewImport {
        kind: file.kind,
        file_name: file_name.as_deref(),
        lines: &file.lines,
    };
    let token = platform::new_id();
    match store::import(db, &importer, &import, &token, now).await? {
        Some(row) => http::json(
            201,
            &Imported {
                success: true,
                import: shown(&row),
            },
        ),
        // Signed out, switched off or the right taken since this request's check.
        None => Err(ApiError::Forbidden(messages::SPEND_FORBIDDEN.into())),
    }
}

fn refused(refusal: Refusal) -> ApiResult<Response> {
    let simple = |message: String| {
        Err(ApiError::Unprocessable {
            fields: vec![("arquivo", message.clone())],
            message,
        })
    };
    match refusal {
        Refusal::Empty => simple(messages::SPEND_EMPTY.into()),
        Refusal::NoHeader => simple(messages::SPEND_NO_HEADER.into()),
        Refusal::TooManyLines => simple(messages::SPEND_TOO_LARGE.into()),
        Refusal::Currency(code) => simple(messages::spend_currency(&code)),
        Refusal::Lines { named, total } => http::json(
            422,
            &Refused {
                success: false,
                error: &messages::spend_bad_lines(total),
                lines: &named,
                errors: total,
            },
        ),
    }
}

/// `POST /api/campaigns/spend/{id}/undo`.
async fn undo(req: &Request, db: &D1Database, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    may_import(staff)?;
    let Ok(id) = id.parse::<i64>() else {
        return Err(ApiError::NotFound(messages::SPEND_IMPORT_NOT_FOUND.into()));
    };
    match store::undo(db, id, &staff.email, &staff.session_id, platform::now_ms()).await? {
        Undone::Done(row) => http::json(
            200,
            &Imported {
                success: true,
                import: shown(&row),
            },
        ),
        Undone::Already => Err(ApiError::Conflict(messages::SPEND_ALREADY_UNDONE.into())),
        Undone::NotFound => Err(ApiError::NotFound(messages::SPEND_IMPORT_NOT_FOUND.into())),
        Undone::Refused => Err(ApiError::Forbidden(messages::SPEND_FORBIDDEN.into())),
    }
}
