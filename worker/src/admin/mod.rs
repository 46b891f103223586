//! The staff panel's API under `/api/leads`: list with counters, CSV export,
//! 'Marcar Enviado', 'Reenviar' and delete. Every call needs a live staff
//! session; changes also need our own Origin, and each one is audited.

mod actions;
mod changes;
mod contact;
mod correct;
mod export;
mod lead_csv;
mod list;
pub mod query;
mod reads;
mod shown;
mod store;
mod story;

use worker::{Context, Env, Method, Request, Response};

use crate::agency::messages;
use crate::auth::guard;
use crate::http::{ApiError, ApiResult};
use actions::{delete, mark_sent, resend, resend_to_meta, unmark_sent};
use changes::Decision;
use list::list;
use story::story;

pub async fn route(mut req: Request, env: &Env, ctx: &Context, path: &str) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let rest = path.trim_start_matches("/api/leads");
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match (segments.as_slice(), req.method()) {
        ([], Method::Get) => list(&req, env, ctx, &staff).await,
        (["export.csv"], Method::Get) => export::export(&req, env, &staff).await,
        ([id], Method::Get) => story(env, &staff, id).await,
        ([id, "mark-sent"], Method::Post) => mark_sent(&mut req, env, &staff, id).await,
        ([id, "resend"], Method::Post) => resend(&req, env, &staff, id).await,
        ([id, "resend", "meta"], Method::Post) => resend_to_meta(&req, env, &staff, id).await,
        ([_, "resend", _], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([id, "unmark-sent"], Method::Post) => unmark_sent(&req, env, &staff, id).await,
        ([id, "contact"], Method::Post) => contact::record(&req, env, &staff, id).await,
        ([id, "uncontact"], Method::Post) => contact::undo(&req, env, &staff, id).await,
        ([id, "whatsapp"], Method::Post) => correct::correct(&mut req, env, ctx, &staff, id).await,
        ([id], Method::Delete) => delete(&req, env, &staff, id).await,
        ([id, "changes", "refuse-all"], Method::Post) => {
            changes::refuse_all(&req, env, &staff, id).await
        }
        ([_, "changes", "refuse-all"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([id, "changes", change, "accept"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Accept).await
        }
        ([id, "changes", change, "refuse"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Refuse).await
        }
        ([_, "changes", _, "accept" | "refuse"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([] | ["export.csv"], _) => Err(ApiError::MethodNotAllowed("GET")),
        ([_, "mark-sent" | "resend"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([_, "unmark-sent" | "contact" | "uncontact" | "whatsapp"], _) => {
            Err(ApiError::MethodNotAllowed("POST"))
        }
        ([_], _) => Err(ApiError::MethodNotAllowed("GET, DELETE")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}
