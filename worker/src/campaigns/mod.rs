//! 'Campanhas': which campaign and which ad bring visits and leads, and at
//! what cost. Visits are counted as the pages are served (`visits`), under
//! one name per source (`attribution::sources`); the report of a period beside the one
//! before it (`GET /api/campaigns?de=&ate=`) and its CSV, a row per day and
//! line (`/api/campaigns/export.csv`), are for every staff member; spend is
//! imported by owners and those they let (`/api/campaigns/spend`, `spend`).

mod export;
mod order;
pub(crate) mod report;
pub mod spend;
pub mod visits;

use serde::Serialize;
use worker::{Env, Method, Request, Response};

use crate::agency::messages;
use crate::auth::guard::{self, Role};
use crate::delivery::{google_ads, meta};
use crate::formats::dates::Day;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::{self, config};
use report::{Period, Report};

/// The report, and where its leads go besides Jetimob: whether Meta's
/// Conversions API is on (the table's 'Enviados ao Meta'), and, for owners,
/// the account Google Ads fetches its conversions file with.
#[derive(Serialize)]
struct Answer {
    #[serde(flatten)]
    report: Report,
    ads: Ads,
}

#[derive(Serialize)]
struct Ads {
    meta: bool,
    google_ads: Option<google_ads::ImportAccount>,
}

pub async fn route(mut req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let segments: Vec<&str> = path
        .trim_start_matches("/api/campaigns")
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let csv = match segments.as_slice() {
        [] => false,
        ["export.csv"] => true,
        ["spend", rest @ ..] => {
            let db = config::database(env)?;
            return spend::route(&mut req, &db, &staff, rest).await;
        }
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
    let db = config::database(env)?;
    if csv {
        let lines = report::read_days(&db, period).await?;
        return csv_file(&export::file(&lines), period);
    }
    let (report, rows_read) = report::read(&db, period, today).await?;
    let ads = Ads {
        meta: meta::Settings::from_env(env).is_some(),
        google_ads: google_ads::import_account(env).filter(|_| staff.role == Role::Owner),
    };
    // `{"success": true}` and the report's members.
    let response = http::success(&Answer { report, ads })?;
    // What the report cost in D1 rows, for `make bench` (staff only see it).
    response
        .headers()
        .set("D1-Rows-Read", &rows_read.to_string())?;
    Ok(response)
}

fn csv_file(body: &str, period: Period) -> ApiResult<Response> {
    let response = http::text(200, "text/csv; charset=utf-8", body);
    let name = format!("campanhas-{}-a-{}.csv", period.from, period.to);
    response.headers().set(
        "Content-Disposition",
        &format!("attachment; filename=\"{name}\""),
    )?;
    Ok(response)
}
