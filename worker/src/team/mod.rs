//! The 'Equipe' page's API under `/api/staff`, for owners only: every
//! account with its role, confirmation, last sign-in and live sessions;
//! 'Desativar', 'Reativar', 'Encerrar sessões', 'Tornar responsável' and
//! 'Remover responsável'. Staff who are not owners get 403.
//!
//! Beside it, [`activity`]: the staff's audit trail, which the 'Atividade'
//! page reads; and [`panel_settings`]: the owners' choices for the panel.

pub mod activity;
pub mod panel_settings;
mod store;

use serde::Serialize;
use store::{AccountRow, TeamAction};
use worker::{Env, Method, Request, Response};

use crate::agency::messages;
use crate::auth::guard::{self, Role, Staff};
use crate::auth::staff::mailbox_of;
use crate::formats::dates::iso;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::{self, config, db};

/// An account as 'Equipe' shows it. `mailbox` is the mailbox the address
/// reaches: accounts that share it are one person's, and 'Desativar'
/// switches them off together. `alert_missed_at`: an incident e-mail this
/// address never got (the e-mail API refused it for a day) and none since;
/// the panel tells the other owners. Times are ISO 8601 (`null` when unset).
#[derive(Serialize)]
struct Account<'a> {
    id: &'a str,
    email: &'a str,
    mailbox: String,
    role: Role,
    confirmed: bool,
    disabled: bool,
    created_at: Option<String>,
    confirmed_at: Option<String>,
    last_sign_in_at: Option<String>,
    disabled_at: Option<String>,
    approved: bool,
    can_export: bool,
    can_delete: bool,
    can_mark_sent: bool,
    can_import_spend: bool,
    live_sessions: i64,
    alert_missed_at: Option<String>,
}

impl<'a> From<&'a AccountRow> for Account<'a> {
    fn from(a: &'a AccountRow) -> Self {
        let owner = a.role == Role::Owner;
        Self {
            id: &a.id,
            email: &a.email,
            mailbox: mailbox_of(&a.email),
            role: a.role,
            confirmed: a.confirmed_at.is_some(),
            disabled: a.disabled_at.is_some(),
            created_at: iso(a.created_at),
            confirmed_at: a.confirmed_at.and_then(iso),
            last_sign_in_at: a.last_sign_in_at.and_then(iso),
            disabled_at: a.disabled_at.and_then(iso),
            approved: a.approved_at.is_some(),
            can_export: owner || a.can_export == 1,
            can_delete: owner || a.can_delete == 1,
            can_mark_sent: owner || a.can_mark_sent == 1,
            can_import_spend: owner || a.can_import_spend == 1,
            live_sessions: a.live_sessions,
            alert_missed_at: a.alert_missed_at.and_then(iso),
        }
    }
}

/// `GET /api/staff`'s answer: every account, and who is asking.
#[derive(Serialize)]
struct Team<'a> {
    accounts: Vec<Account<'a>>,
    you: &'a str,
}

/// An action's answer: the account as it now is.
#[derive(Serialize)]
struct Acted<'a> {
    account: Account<'a>,
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
    http::success(&Team {
        accounts: accounts.iter().map(Account::from).collect(),
        you: &owner.user_id,
    })
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
    let mut batch = db::Batch::new();
    let outcome = store::apply(&mut batch, &db, action, id, owner, now);
    let results = batch.run(&db).await?;
    let applied = results.changes(outcome.entry) == 1;
    if !applied && !results.returned_row(outcome.session_live) {
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
            .is_some_and(|me| me.role == Role::Owner && me.disabled_at.is_none());
        if !still_owner {
            return Err(ApiError::Forbidden(messages::OWNERS_ONLY.into()));
        }
        return Err(why_not(action, &account, owner));
    }
    http::success(&Acted {
        account: Account::from(&account),
    })
}

/// Why an action changed nothing on an account that exists.
fn why_not(action: TeamAction, account: &AccountRow, owner: &Staff) -> ApiError {
    let conflict = |m: &str| ApiError::Conflict(m.to_string());
    match action {
        TeamAction::Disable if account.id == owner.user_id => conflict(messages::NOT_YOURSELF),
        TeamAction::Disable if account.disabled_at.is_some() => conflict(messages::STAFF_UNCHANGED),
        TeamAction::Disable | TeamAction::RemoveOwner if account.role == Role::Owner => {
            conflict(messages::LAST_OWNER)
        }
        TeamAction::MakeOwner if account.role != Role::Owner => {
            conflict(messages::OWNER_NEEDS_ACTIVE_ACCOUNT)
        }
        _ if action.is_permission() && account.role == Role::Owner => {
            conflict(messages::ONLY_COLLEAGUES_PERMISSIONS)
        }
        _ => conflict(messages::STAFF_UNCHANGED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_reads_as_the_team_page_expects() {
        let row = AccountRow {
            id: "u1".into(),
            email: "ana+painel@agencia.com.br".into(),
            role: Role::Staff,
            created_at: 0,
            confirmed_at: Some(1000),
            last_sign_in_at: None,
            disabled_at: None,
            approved_at: Some(1000),
            can_export: 1,
            can_delete: 0,
            can_mark_sent: 1,
            can_import_spend: 0,
            live_sessions: 2,
            alert_missed_at: None,
        };
        let json = serde_json::to_string(&Account::from(&row)).unwrap();
        assert_eq!(
            json,
            concat!(
                r#"{"id":"u1","email":"ana+painel@agencia.com.br","mailbox":"ana@agencia.com.br","#,
                r#""role":"staff","confirmed":true,"disabled":false,"#,
                r#""created_at":"1970-01-01T00:00:00.000Z","confirmed_at":"1970-01-01T00:00:01.000Z","#,
                r#""last_sign_in_at":null,"disabled_at":null,"approved":true,"can_export":true,"#,
                r#""can_delete":false,"can_mark_sent":true,"can_import_spend":false,"live_sessions":2,"#,
                r#""alert_missed_at":null}"#
            )
        );
    }
}
