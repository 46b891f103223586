//! The lead site's worker: the lead endpoint, the staff API and the pages.
// `serde_json::json!` of a whole lead (its attribution too) in the tests.
#![recursion_limit = "256"]

use worker::{Context, Env, Method, Request, Response, ScheduleContext, ScheduledEvent, event};

mod admin;
mod agency;
mod alerts;
mod attribution;
mod audit;
mod auth;
mod campaigns;
mod crm;
mod delivery;
mod first_contact;
mod formats;
mod http;
mod leads;
mod mail;
mod platform;
mod site;
mod team;

use http::{ApiError, ApiResult};

#[event(fetch)]
pub async fn fetch(req: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    let path = req.path();
    let method = req.method();
    let answer: ApiResult<Response> = match path.as_str() {
        "/functions/v1/send-lead-jetimob" => match method {
            Method::Post => leads::submit::handle(req, &env, &ctx).await,
            _ => Err(ApiError::MethodNotAllowed("POST")),
        },
        "/functions/v1/lead-answers" => match method {
            Method::Post => leads::answers::handle(req, &env).await,
            _ => Err(ApiError::MethodNotAllowed("POST")),
        },
        "/api/health" => match method {
            Method::Get => alerts::health::check(&env).await,
            _ => Err(ApiError::MethodNotAllowed("GET")),
        },
        delivery::google_ads::PATH => match method {
            Method::Get => delivery::google_ads::serve(&req, &env).await,
            _ => Err(ApiError::MethodNotAllowed("GET")),
        },
        "/api/config" => match method {
            Method::Get => site::public_config(&env),
            _ => Err(ApiError::MethodNotAllowed("GET")),
        },
        p if p.starts_with("/api/auth/") => auth::route(req, &env, &ctx, p).await,
        p if p == "/api/leads" || p.starts_with("/api/leads/") => {
            admin::route(req, &env, &ctx, p).await
        }
        p if p == "/api/staff" || p.starts_with("/api/staff/") => team::route(req, &env, p).await,
        p if p == "/api/campaigns" || p.starts_with("/api/campaigns/") => {
            campaigns::route(req, &env, p).await
        }
        "/api/audit" => team::activity::route(req, &env, "/api/audit").await,
        "/api/settings" => team::panel_settings::route(req, &env).await,
        p if p == "/api/first-contact" || p.starts_with("/api/first-contact/") => {
            first_contact::route(req, &env, p).await
        }
        p if p.starts_with("/api/") => Err(ApiError::NotFound(agency::messages::NOT_FOUND.into())),
        _ => return Ok(site::serve(req, &env, &ctx).await),
    };
    let response = answer.unwrap_or_else(ApiError::into_response);
    let headers = response.headers();
    // Every API answer is private and fresh; only the health check says how
    // long a monitor may reuse it.
    if !headers.has("Cache-Control").unwrap_or(false) {
        headers.set("Cache-Control", "no-store")?;
    }
    headers.set("X-Content-Type-Options", "nosniff")?;
    Ok(response)
}

/// Every minute: removes what is no longer kept, delivers what is due to the
/// CRM, then watches delivery and sends the notices, alerts and webhook
/// events that are due. Awaited here, not left to `wait_until`, so the run
/// (and the local trigger) ends when the work does.
#[event(scheduled)]
pub async fn scheduled(_event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    platform::db::start_counting();
    platform::retention::run(&env).await;
    if let Err(e) = delivery::run_due(&env).await {
        worker::console_error!("cron: delivery run failed: {e}");
    }
    alerts::run(&env).await;
    alerts::health::forget();
    campaigns::spend::meta::run(&env).await;
    // D1 bills by rows read, and this runs 1,440 times a day: what one run
    // cost, in the log (and in `make bench`, at 100,000 leads).
    let rows = platform::db::finish_counting();
    worker::console_log!("cron: D1 rows read {}, written {}", rows.read, rows.written);
}
