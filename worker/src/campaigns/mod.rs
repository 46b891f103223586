//! 'Campanhas': which campaign and which ad bring visits and leads. Visits
//! are counted as the pages are served (`visits`); the report of a period
//! (`GET /api/campaigns?de=&ate=`) and its CSV (`/api/campaigns/export.csv`)
//! are for every staff member.

mod export;
pub(crate) mod report;
pub mod visits;

use worker::{Env, Method, Request, Response};

use crate::auth::guard;
use crate::dates::Day;
use crate::http::{self, ApiError, ApiResult};
use crate::{config, messages, platform};
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
    let url = req.url()?;
    let param = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let today = Day::in_brasilia(platform::now_ms());
    let period = Period::parse(param("de").as_deref(), param("ate").as_deref(), today)?;
    let (report, rows_read) = report::read(&config::database(env)?, period, today).await?;
    let response = if csv {
        csv_file(&report)?
    } else {
        // `{"success": true}` and the report's members.
        http::success(&report)?
    };
    // What the report cost in D1 rows, for `make bench` (staff only see it).
    response
        .headers()
        .set("D1-Rows-Read", &rows_read.to_string())?;
    Ok(response)
}

fn csv_file(report: &Report) -> worker::Result<Response> {
    let response = http::text(200, "text/csv; charset=utf-8", export::file(report));
    let name = format!(
        "campanhas-{}-a-{}.csv",
        report.period.from, report.period.to
    );
    response.headers().set(
        "Content-Disposition",
        &format!("attachment; filename=\"{name}\""),
    )?;
    Ok(response)
}
