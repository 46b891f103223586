//! The check in front of every staff endpoint: a valid access token whose
//! session is still live in D1 (one query: not signed out, not past its end,
//! its account not switched off), so a sign-out or a 'Desativar' anywhere cuts
//! off its tokens at once.

use serde::Serialize;
use worker::{Env, Request};

use super::context::signer;
use super::store;
use crate::agency::messages;
use crate::http::{ApiError, ApiResult, HeaderText};
use crate::platform::{self, config};

/// The signed-in staff member making the request.
#[derive(Debug, Clone)]
pub struct Staff {
    pub user_id: String,
    pub email: String,
    pub session_id: String,
    pub role: Role,
    /// An owner let the account in ('Aguardando aprovação' until then).
    pub approved: bool,
    /// What this person may do to leads, read afresh at every call.
    pub rights: Rights,
}

/// What an owner may take away from a colleague: 'Exportar CSV', 'Excluir'
/// and 'Marcar Enviado' (with its 'Desfazer'); and what an owner may give
/// one: 'Importar investimento' (campaigns' spend, 0024). Owners always
/// have them. The
/// panel shows only the buttons a person may use (`rights` in the leads'
/// answers); the endpoints refuse the others with 403 all the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rights {
    pub export: bool,
    pub delete: bool,
    pub mark_sent: bool,
    pub import_spend: bool,
}

pub use crate::agency::roles::Role;

/// The bearer token of the `Authorization` header, if any.
pub fn bearer(req: &Request) -> Option<String> {
    req.header("Authorization").and_then(|h| {
        h.strip_prefix("Bearer ")
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    })
}

/// A live session, approved or not: what the pages need to know who is
/// signed in (and that they wait for approval).
pub async fn require_session(req: &Request, env: &Env) -> ApiResult<Staff> {
    let unauthorized = || ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into());
    let token = bearer(req).ok_or_else(unauthorized)?;
    let now = platform::now_ms();
    let claims = signer(env)?
        .verify(&token, now)
        .map_err(|_| unauthorized())?;
    let db = config::database(env)?;
    let live = store::live_session(&db, &claims.sid, now).await?;
    match live {
        Some(row) if row.user_id == claims.sub => {
            let role = row.role;
            // Owners may do everything; a colleague, what an owner left them.
            let owner = role == Role::Owner;
            Ok(Staff {
                user_id: row.user_id,
                email: row.email,
                session_id: claims.sid,
                role,
                approved: row.approved_at.is_some(),
                rights: Rights {
                    export: owner || row.can_export == 1,
                    delete: owner || row.can_delete == 1,
                    mark_sent: owner || row.can_mark_sent == 1,
                    import_spend: owner || row.can_import_spend == 1,
                },
            })
        }
        _ => Err(unauthorized()),
    }
}

/// A live session of an approved account: in front of every lead, staff
/// and export endpoint. An account waiting for approval gets 403, read
/// afresh at every call, so an owner's 'Aprovar' works on its open session.
pub async fn require_staff(req: &Request, env: &Env) -> ApiResult<Staff> {
    let staff = require_session(req, env).await?;
    if !staff.approved {
        return Err(ApiError::Forbidden(messages::AUTH_AWAITING_APPROVAL.into()));
    }
    Ok(staff)
}

/// Like [`require_staff`], for what only owners may do: 403 for other staff.
pub async fn require_owner(req: &Request, env: &Env) -> ApiResult<Staff> {
    let staff = require_staff(req, env).await?;
    if staff.role != Role::Owner {
        return Err(ApiError::Forbidden(messages::OWNERS_ONLY.into()));
    }
    Ok(staff)
}
