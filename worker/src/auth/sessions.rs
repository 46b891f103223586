//! A session after sign-in: refresh, sign-out, who is signed in.

use serde::Serialize;
use worker::{Env, Request, Response};

use super::context::{self, Account, AuthContext};
use super::guard::{self, Staff};
use super::{secret_token, store};
use crate::http::{self, ApiResult};
use crate::platform::db;

/// A refresh retried this soon with the token it just rotated (its answer was
/// lost on a phone's network, or another tab raced it) gets the same new
/// token again; later, a rotated token is a stolen one.
pub const RETRY_GRACE_MS: i64 = 10_000;

/// The most replacements a retry follows to the chain's newest token (each
/// within [`RETRY_GRACE_MS`]: more than two in 10 seconds is no browser's).
const MAX_RETRY_STEPS: usize = 3;

/// `POST /api/auth/refresh`: swaps the refresh cookie for a new one and a new
/// access token. A token rotated more than [`RETRY_GRACE_MS`] ago revokes its
/// session. The session's end does not move.
pub async fn refresh(req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let Some(token) = context::refresh_cookie(&req, &ctx) else {
        return context::signed_out(&ctx);
    };
    let token_hash = secret_token::hash(&token);
    let Some(row) = store::find_refresh(&ctx.db, &token_hash).await? else {
        return context::signed_out(&ctx);
    };
    if row.revoked_at.is_some() || row.expires_at <= ctx.now || row.disabled_at.is_some() {
        return context::signed_out(&ctx);
    }
    let (successor, successor_hash) = secret_token::successor(&ctx.secret, &token);
    let renewed = if row.rotated_at.is_none()
        && store::rotate(
            &ctx.db,
            &token_hash,
            &successor_hash,
            &row.session_id,
            ctx.now,
        )
        .await?
    {
        Some(successor)
    } else {
        // Replaced a moment ago (here, or by a request that raced this one).
        newest_of_chain(&ctx, token_hash, successor).await?
    };
    let Some(successor) = renewed else {
        if row
            .rotated_at
            .is_some_and(|at| at < ctx.now - RETRY_GRACE_MS)
        {
            worker::console_warn!(
                "refresh: a token rotated over {} s ago was presented again; session {} revoked",
                RETRY_GRACE_MS / 1000,
                row.session_id
            );
            db::run(&store::revoke_session(&ctx.db, &row.session_id, ctx.now)).await?;
        }
        // Otherwise its session ended a moment ago, or its successor was made
        // under another `JWT_SECRET`: signed out, as a retry finds nothing.
        return context::signed_out(&ctx);
    };
    let account = Account {
        id: row.user_id,
        email: row.email,
        role: row.role,
        approved: row.approved_at.is_some(),
    };
    context::session_answer(&ctx, &account, &row.session_id, &successor, row.expires_at)
}

/// The token to answer a retry of the token hashed `replaced` with: its
/// successor `next`, or, when that was replaced in turn, the chain's newest,
/// following at most [`MAX_RETRY_STEPS`] replacements, each made within
/// [`RETRY_GRACE_MS`] in a session still live. `None`: not a retry.
async fn newest_of_chain(
    ctx: &AuthContext,
    mut replaced: String,
    mut next: String,
) -> ApiResult<Option<String>> {
    for _ in 0..MAX_RETRY_STEPS {
        let next_hash = secret_token::hash(&next);
        match store::replaced_within(&ctx.db, &replaced, &next_hash, ctx.now, RETRY_GRACE_MS)
            .await?
        {
            None => return Ok(None),
            Some(false) => return Ok(Some(next)),
            Some(true) => {
                next = secret_token::successor(&ctx.secret, &next).0;
                replaced = next_hash;
            }
        }
    }
    Ok(None)
}

/// `POST /api/auth/logout` `{scope: "global" | "local"}` (global by default):
/// ends this session, or every session of the user. Always succeeds and
/// removes the cookie. Only a live session signs the others out: an access
/// token of an ended session, or a refresh token replaced more than
/// [`RETRY_GRACE_MS`] ago (a stolen one), ends nothing.
pub async fn logout(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await.unwrap_or_default();
    let global = body.text("scope").ok().flatten().as_deref() != Some("local");

    let from_token = guard::bearer(&req).and_then(|t| ctx.signer.verify(&t, ctx.now).ok());
    let who = match from_token {
        Some(claims) => Some((claims.sub, claims.sid)),
        None => match context::refresh_cookie(&req, &ctx) {
            Some(token) => store::find_refresh(&ctx.db, &secret_token::hash(&token))
                .await?
                .filter(|r| r.rotated_at.is_none_or(|at| at >= ctx.now - RETRY_GRACE_MS))
                .map(|r| (r.user_id, r.session_id)),
            None => None,
        },
    };
    if let Some((user_id, session_id)) = who {
        let revoke = if global {
            store::revoke_all_sessions_from(&ctx.db, &user_id, &session_id, ctx.now)
        } else {
            store::revoke_session(&ctx.db, &session_id, ctx.now)
        };
        db::run(&revoke).await?;
    }
    let response = http::success_only()?;
    response
        .headers()
        .set("Set-Cookie", &context::clear_refresh(&ctx))?;
    Ok(response)
}

/// `GET /api/auth/session`'s answer: the account and its session.
#[derive(Serialize)]
struct SessionOf {
    user: Account,
    session_id: String,
}

/// `GET /api/auth/session`: who the access token belongs to, if its session is live.
pub async fn session(req: Request, env: &Env) -> ApiResult<Response> {
    let Staff {
        user_id,
        email,
        session_id,
        role,
        approved,
        ..
    } = guard::require_session(&req, env).await?;
    let user = Account {
        id: user_id,
        email,
        role,
        approved,
    };
    http::success(&SessionOf { user, session_id })
}
