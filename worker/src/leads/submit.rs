//! `POST /functions/v1/send-lead-jetimob`: the landing form's endpoint.
//!
//! Validates, commits the lead to D1 and only then answers success; the
//! first delivery attempt to the CRM runs after the answer, in `wait_until`.

use serde_json::json;
use worker::{Context, Env, Request, Response};

use super::domain::{NewLead, Rejection, Submission};
use super::store::{self, Saved};
use crate::http::{self, ApiError, ApiResult};
use crate::platform;
use crate::rate_limit::LEAD_SUBMISSIONS;
use crate::{config, crm, messages};

pub async fn handle(mut req: Request, env: &Env, ctx: &Context) -> ApiResult<Response> {
    http::check_same_origin(&req)?;
    let body = http::read_json_object(&mut req).await?;
    let submission = Submission::from_json(&body).map_err(reject)?;
    if submission.is_from_a_bot() {
        worker::console_log!("lead: honeypot filled, answered success and stored nothing");
        return http::success(json!({}));
    }
    let url = req.url()?;
    let lead = NewLead::parse(submission, url.host_str().unwrap_or_default()).map_err(reject)?;

    let db = config::database(env)?;
    let ip = http::client_ip(&req);
    let saved = store::save(
        &db,
        &lead,
        Some((&LEAD_SUBMISSIONS, &ip)),
        platform::now_ms(),
    )
    .await?;
    match saved {
        Saved::Limited => Err(ApiError::TooManyRequests(
            messages::LEAD_RATE_LIMITED.into(),
        )),
        Saved::Created { id } => {
            let answer = http::success(json!({}));
            ctx.wait_until(crm::deliver_new_lead(env.clone(), id));
            answer
        }
        // Already sent, or already in the CRM's queue: one delivery per lead.
        Saved::Repeated { .. } => http::success(json!({})),
    }
}

fn reject(rejection: Rejection) -> ApiError {
    ApiError::Unprocessable {
        message: rejection.message.to_string(),
        fields: rejection.fields,
    }
}
