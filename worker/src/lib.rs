//! The lead site's worker: the lead endpoint, the staff API and the pages.

use worker::{Context, Env, Method, Request, Response, event};

mod config;
pub mod crm;
mod http;
pub mod leads;
mod messages;
pub mod platform;
pub mod rate_limit;
mod site;

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
        p if p.starts_with("/api/") => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
        _ => return site::serve(req, &env).await,
    };
    let response = answer.or_else(ApiError::into_response)?;
    let headers = response.headers();
    headers.set("Cache-Control", "no-store")?;
    headers.set("X-Content-Type-Options", "nosniff")?;
    Ok(response)
}
