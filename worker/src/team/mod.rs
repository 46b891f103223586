//! The 'Equipe' page's API under `/api/staff`, for owners only: every
//! account with its role, confirmation, last sign-in and live sessions;
//! 'Desativar', 'Reativar', 'Encerrar sessões', 'Tornar responsável' and
//! 'Remover responsável'. Staff who are not owners get 403.

mod store;

use worker::Env;

use crate::auth::guard::{self, Staff};
use crate::auth::staff::mailbox_of;
use crate::dates::iso;
use crate::http::{self, ApiError, ApiResult};
use crate::json::{self, Json};
use crate::web::{Method, Request, Response};
use crate::{config, d1, messages, platform};
use store::{AccountRow, TeamAction};

/// An account as 'Equipe' shows it. `mailbox` is the mailbox the address
/// reaches: accounts that share it are one person's, and 'Desativar'
/// switches them off together. `alert_missed_at`: an incident e-mail this
/// address never got (the e-mail API refused it for a day) and none since;
/// the panel tells the other owners.
fn account_json(a: &AccountRow) -> json::Object {
    json::object()
        .field("id", &a.id)
        .field("email", &a.email)
        .field("mailbox", mailbox_of(&a.email))
        .field("role", &a.role)
        .field("confirmed", a.confirmed_at.is_some())
        .field("disabled", a.disabled_at.is_some())
        .field("created_at", iso(a.created_at))
        .field("confirmed_at", a.confirmed_at.and_then(iso))
        .field("last_sign_in_at", a.last_sign_in_at.and_then(iso))
        .field("disabled_at", a.disabled_at.and_then(iso))
        .field("approved", a.approved_at.is_some())
        .field("can_export", a.role == "owner" || a.can_export == 1)
        .field("can_delete", a.role == "owner" || a.can_delete == 1)
        .field("live_sessions", a.live_sessions)
        .field("alert_missed_at", a.alert_missed_at.and_then(iso))
}

pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    let owner = guard::require_owner(&req, env).await?;
    let rest = path.trim_start_matches("/api/staff");
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match (segments.as_slice(), req.method()) {
        ([], Method::Get) => list(env, &owner).await,
        ([], _) => Err(ApiError::MethodNotAllowed("GET")),
        ([id, action], Method::Post) => match TeamAction::parse(action) {
            Some(action) => act(&req, env, &owner, id, action).await,
            None => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
        },
        ([_, _], _) => Err(ApiError::MethodNotAllowed("POST")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}

/// `GET /api/staff`: every account, owners first, switched-off ones last.
async fn list(env: &Env, owner: &Staff) -> ApiResult<Response> {
    let db = config::database(env)?;
    let accounts = store::list(&db, platform::now_ms()).await?;
    let accounts = Json::array(accounts.iter().map(|a| account_json(a).end()));
    http::success(
        json::object()
            .field("accounts", accounts)
            .field("you", &owner.user_id),
    )
}

/// `POST /api/staff/{id}/{action}`.
async fn act(
    req: &Request,
    env: &Env,
    owner: &Staff,
    id: &str,
    action: TeamAction,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let statements = store::apply(&db, action, id, owner, now);
    let results = db.batch(statements).await?;
    let applied = results.first().map(d1::changes) == Some(1);
    if !applied && !d1::returned_row(&results, results.len() - 1) {
        // Signed out, or its sessions ended, since this request's own check.
        return Err(ApiError::Unauthorized(
            messages::AUTH_SESSION_REQUIRED.into(),
        ));
    }
    let account = store::find(&db, id, now).await?;
    let Some(account) = account else {
        return Err(ApiError::NotFound(messages::STAFF_NOT_FOUND.into()));
    };
    if !applied {
        // Switched off or no longer an owner since this request's own check.
        let still_owner = store::find(&db, &owner.user_id, now)
            .await?
            .is_some_and(|me| me.role == "owner" && me.disabled_at.is_none());
        if !still_owner {
            return Err(ApiError::Forbidden(messages::OWNERS_ONLY.into()));
        }
        return Err(why_not(action, &account, owner));
    }
    http::success(json::object().field("account", account_json(&account)))
}

/// Why an action changed nothing on an account that exists.
fn why_not(action: TeamAction, account: &AccountRow, owner: &Staff) -> ApiError {
    let conflict = |m: &str| ApiError::Conflict(m.to_string());
    match action {
        TeamAction::Disable if account.id == owner.user_id => conflict(messages::NOT_YOURSELF),
        TeamAction::Disable if account.disabled_at.is_some() => conflict(messages::STAFF_UNCHANGED),
        TeamAction::Disable | TeamAction::RemoveOwner if account.role == "owner" => {
            conflict(messages::LAST_OWNER)
        }
        TeamAction::MakeOwner if account.role != "owner" => {
            conflict(messages::OWNER_NEEDS_ACTIVE_ACCOUNT)
        }
        TeamAction::AllowExport
        | TeamAction::DenyExport
        | TeamAction::AllowDelete
        | TeamAction::DenyDelete
            if account.role == "owner" =>
        {
            conflict(messages::ONLY_COLLEAGUES_PERMISSIONS)
        }
        _ => conflict(messages::STAFF_UNCHANGED),
    }
}
