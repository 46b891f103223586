//! Time to first contact: from a lead's arrival to the first 'Já falei'
//! (`admin::contact`), the median per day, per campaign and per colleague
//! over a period, against the owners' target (`panel_settings`, 5 minutes
//! until they change it), with the share of leads contacted within it and
//! how many still wait. Only leads that arrived once the panel recorded
//! contacts count (`leads.contact_tracked`, 0023). For every staff member,
//! as 'Campanhas' is; no lead's personal data is in it.
//!
//! `GET /api/first-contact?de=&ate=` and `GET /api/first-contact/export.csv?de=&ate=`.

mod export;
pub mod report;

use worker::{Env, Method, Request, Response};

use crate::agency::messages;
use crate::auth::guard;
use crate::campaigns::report::Period;
use crate::formats::dates::Day;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::{self, config};
use crate::team::panel_settings;

pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    guard::require_staff(&req, env).await?;
    let csv = match path {
        "/api/first-contact" => false,
        "/api/first-contact/export.csv" => true,
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
    let now = platform::now_ms();
    let period = Period::parse(
        param("de").as_deref(),
        param("ate").as_deref(),
        Day::in_brasilia(now),
    )?;
    let db = config::database(env)?;
    let target = panel_settings::read(&db).await?.contact_target_minutes;
    let (report, rows_read) = report::read(&db, period, target).await?;
    let response = if csv {
        let response = http::text(200, "text/csv; charset=utf-8", export::file(&report));
        let name = format!(
            "primeiro-contato-{}-a-{}.csv",
            report.period.from, report.period.to
        );
        response.headers().set(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        )?;
        response
    } else {
        http::success(&report)?
    };
    response
        .headers()
        .set("D1-Rows-Read", &rows_read.to_string())?;
    Ok(response)
}
