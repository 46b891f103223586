//! The check in front of every staff endpoint: a valid access token whose
//! session is still live in D1 (one query), so a sign-out anywhere cuts off
//! its tokens at once.

use worker::{Env, Request};

use super::handlers::signer;
use super::store;
use crate::http::{ApiError, ApiResult};
use crate::{config, messages, platform};

/// The signed-in staff member making the request.
#[derive(Debug, Clone)]
pub struct Staff {
    pub user_id: String,
    pub email: String,
    pub session_id: String,
}

/// The bearer token of the `Authorization` header, if any.
pub fn bearer(req: &Request) -> ApiResult<Option<String>> {
    Ok(req.headers().get("Authorization")?.and_then(|h| {
        h.strip_prefix("Bearer ")
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    }))
}

pub async fn require_staff(req: &Request, env: &Env) -> ApiResult<Staff> {
    let unauthorized = || ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into());
    let token = bearer(req)?.ok_or_else(unauthorized)?;
    let now = platform::now_ms();
    let claims = signer(env)?
        .verify(&token, now)
        .map_err(|_| unauthorized())?;
    let db = config::database(env)?;
    let live = store::live_session(&db, &claims.sid, now).await?;
    match live {
        Some(row) if row.user_id == claims.sub => Ok(Staff {
            user_id: row.user_id,
            email: row.email,
            session_id: claims.sid,
        }),
        _ => Err(unauthorized()),
    }
}
