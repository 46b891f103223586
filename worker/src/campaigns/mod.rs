//! 'Campanhas': which campaign and which ad bring visits and leads. Visits
//! are counted as the pages are served (`visits`); the report of a period
//! (`GET /api/campaigns?de=&ate=`) and its CSV (`/api/campaigns/export.csv`)
//! are for every staff member.

mod export;
mod report;
pub mod visits;

use serde::Serialize;
use worker::Env;

use crate::auth::guard;
use crate::dates::Day;
use crate::http::{ApiError, ApiResult, RequestUrl};
use crate::web::{self, Method, Request, Response};
use crate::{messages, platform};
use report::{Period, Report};

pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    guard::require_staff(&req, env).await?;
    let csv = match path {
        "/api/campaigns" => false,
        "/api/campaigns/export.csv" => true,
        _ => return Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    };
    if req.method() != Method::Get {
        return Err(ApiError::MethodNotAllowed("GET"));
    }
    let url = RequestUrl::of(&req)?;
    let param = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let today = Day::in_brasilia(platform::now_ms());
    let period = Period::parse(param("de").as_deref(), param("ate").as_deref(), today)?;
    let (report, rows_read) = report::read(&env.d1("DB")?, period, today).await?;
    let mut response = if csv {
        csv_file(&report)?
    } else {
        json(&report)?
    };
    // What the report cost in D1 rows, for `make bench` (staff only see it).
    response
        .headers_mut()
        .set("D1-Rows-Read", &rows_read.to_string())?;
    Ok(web::Response::from_worker(response))
}

#[derive(Serialize)]
struct Answer<'a> {
    success: bool,
    #[serde(flatten)]
    report: &'a Report,
}

fn json(report: &Report) -> worker::Result<worker::Response> {
    let mut response = worker::Response::from_json(&Answer {
        success: true,
        report,
    })?;
    response
        .headers_mut()
        .set("Content-Type", "application/json; charset=utf-8")?;
    Ok(response)
}

fn csv_file(report: &Report) -> worker::Result<worker::Response> {
    let mut response = worker::Response::ok(export::file(report))?;
    let headers = response.headers_mut();
    headers.set("Content-Type", "text/csv; charset=utf-8")?;
    let name = format!(
        "campanhas-{}-a-{}.csv",
        report.period.from, report.period.to
    );
    headers.set(
        "Content-Disposition",
        &format!("attachment; filename=\"{name}\""),
    )?;
    Ok(response)
}
