//! What the auth endpoints share: the database, the token signer and the
//! request's time and origin; starting a session and answering with it.

use serde::Serialize;
use worker::{Env, Request, Response};

use super::access_token::{Signer, StaffClaims};
use super::{device, secret_token, store};
use crate::agency::messages;
use crate::agency::roles::Role;
use crate::http::{self, ApiError, ApiResult, HeaderText, cookies};
use crate::platform::config::MIN_SECRET_BYTES;
use crate::platform::db::{Batch, D1Database, Handle, Results};
use crate::platform::{self, config};

/// What every handler needs: the database, the token signer, the time of
/// the request and how cookies must be marked.
pub struct AuthContext {
    pub db: D1Database,
    pub signer: Signer,
    /// The signing key, also what device cookies are made with.
    pub secret: String,
    pub now: i64,
    pub secure_cookies: bool,
    pub origin: String,
}

impl AuthContext {
    pub fn new(req: &Request, env: &Env) -> ApiResult<Self> {
        let url = req.url()?;
        let secret = secret(env)?;
        Ok(Self {
            db: config::database(env)?,
            signer: Signer::new(&secret),
            secret,
            now: platform::now_ms(),
            secure_cookies: cookies::must_be_secure(
                url.scheme(),
                url.host_str().unwrap_or_default(),
            ),
            origin: config::setting(env, "SITE_ORIGIN").unwrap_or_else(|| http::origin(&url)),
        })
    }

    /// An absolute link to a page of this site.
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{path_and_query}", self.origin.trim_end_matches('/'))
    }

    /// Where 'Não foi você?' leads: 'Esqueci minha senha'.
    pub fn forgot_password_link(&self) -> String {
        self.link("/auth?esqueci=1")
    }
}

/// `JWT_SECRET`, if it is long enough to sign with. Every staff call stops
/// with a 500 (and says why in the log) until it is.
pub fn secret(env: &Env) -> ApiResult<String> {
    match config::setting(env, "JWT_SECRET") {
        Some(secret) if secret.len() >= MIN_SECRET_BYTES => Ok(secret),
        Some(_) => Err(ApiError::Internal(messages::AUTH_SECRET_TOO_SHORT.into())),
        None => Err(ApiError::Internal("JWT_SECRET is not set".into())),
    }
}

pub fn signer(env: &Env) -> ApiResult<Signer> {
    Ok(Signer::new(&secret(env)?))
}

/// The account a session belongs to, as the pages see it (the `user` of a
/// session's answer).
#[derive(Debug, Clone, Serialize)]
pub struct Account {
    pub id: String,
    pub email: String,
    pub role: Role,
    /// An owner let it in (or nobody needed to): until then it reaches
    /// nothing but the page that says it waits ('Aguardando aprovação').
    pub approved: bool,
}

/// A session about to be created: its id, its first refresh token, and the
/// statement that makes it.
pub struct NewSession {
    id: String,
    refresh: String,
    made: Handle,
}

impl NewSession {
    /// Whether the batch made the session.
    pub fn made(&self, results: &Results) -> bool {
        results.changes(self.made) == 1
    }
}

/// Adds the statements that create a session for `user_id` to `batch`, the
/// batch of whatever signs the person in, for as long as the account's
/// password is `password_hash` (the one checked, or set earlier in the
/// batch); then [`answer_new_session`].
pub fn new_session(
    ctx: &AuthContext,
    batch: &mut Batch,
    user_id: &str,
    password_hash: &str,
) -> NewSession {
    let id = platform::new_id();
    let (refresh, refresh_hash) = secret_token::generate();
    let made = store::new_session(
        batch,
        &ctx.db,
        &id,
        user_id,
        password_hash,
        &refresh_hash,
        ctx.now,
    );
    NewSession { id, refresh, made }
}

/// Answers a sign-in with the new session: an access token, the refresh
/// cookie and the device cookie (for the account's password `password_hash`,
/// as now stored).
pub fn answer_new_session(
    ctx: &AuthContext,
    account: &Account,
    password_hash: &str,
    session: &NewSession,
) -> ApiResult<Response> {
    let response = session_answer(
        ctx,
        account,
        &session.id,
        &session.refresh,
        ctx.now + store::SESSION_LIFETIME_MS,
    )?;
    remember_device(ctx, &account.email, password_hash, &response)?;
    Ok(response)
}

/// Sets the device cookie on `response`: this browser is one of the
/// account's devices, for as long as its password stays `password_hash`.
pub fn remember_device(
    ctx: &AuthContext,
    email: &str,
    password_hash: &str,
    response: &Response,
) -> worker::Result<()> {
    let holder = device::Holder {
        email,
        password_hash,
    };
    response.headers().append(
        "Set-Cookie",
        &cookies::set(
            device::NAME,
            &device::issue(&ctx.secret, holder),
            device::MAX_AGE_SECONDS,
            ctx.secure_cookies,
        ),
    )
}

/// Creates a session (after what `batch` holds, in the same batch) and
/// answers with it; when the batch makes none, `refused` tells why from its
/// results.
pub async fn start_session(
    ctx: &AuthContext,
    account: &Account,
    password_hash: &str,
    mut batch: Batch,
    refused: impl FnOnce(&Results) -> ApiError,
) -> ApiResult<Response> {
    let session = new_session(ctx, &mut batch, &account.id, password_hash);
    let results = batch.run(&ctx.db).await?;
    if !session.made(&results) {
        return Err(refused(&results));
    }
    answer_new_session(ctx, account, password_hash, &session)
}

/// The answer when an account was switched off before its session was made,
/// as for a sign-in that finds it off.
pub fn switched_off() -> ApiError {
    ApiError::Forbidden(messages::AUTH_ACCOUNT_DISABLED.into())
}

/// The answer to a sign-in or a refresh: an access token, when it expires
/// (ms), and whose it is.
#[derive(Serialize)]
struct SessionAnswer<'a> {
    access_token: &'a str,
    expires_at: i64,
    user: &'a Account,
}

/// An access token for the session and its refresh cookie, which lasts as
/// long as the session has left.
pub fn session_answer(
    ctx: &AuthContext,
    account: &Account,
    session_id: &str,
    refresh: &str,
    session_ends_at: i64,
) -> ApiResult<Response> {
    let claims = StaffClaims {
        sub: account.id.clone(),
        email: account.email.clone(),
        sid: session_id.to_string(),
    };
    let (token, expires_at) = ctx.signer.issue(claims, ctx.now);
    let response = http::success(&SessionAnswer {
        access_token: &token,
        expires_at,
        user: account,
    })?;
    let max_age = (session_ends_at - ctx.now) / 1000;
    response.headers().set(
        "Set-Cookie",
        &cookies::set(REFRESH_COOKIE, refresh, max_age, ctx.secure_cookies),
    )?;
    Ok(response)
}

/// 401 that also removes the refresh cookie.
pub fn signed_out(ctx: &AuthContext) -> ApiResult<Response> {
    let response = ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into()).into_response();
    response.headers().set("Set-Cookie", &clear_refresh(ctx))?;
    Ok(response)
}

/// The refresh token's cookie: HttpOnly, for the whole site (`crate::http::cookies`).
pub const REFRESH_COOKIE: &str = "staff_refresh";

/// `Set-Cookie` that removes the refresh cookie.
pub fn clear_refresh(ctx: &AuthContext) -> String {
    cookies::clear(REFRESH_COOKIE, ctx.secure_cookies)
}

fn cookie(
    req: &Request,
    ctx: &AuthContext,
    name: &str,
) -> Result<Option<String>, cookies::SentTwice> {
    let header = req.header("Cookie").unwrap_or_default();
    Ok(cookies::read(&header, name, ctx.secure_cookies)?.map(str::to_string))
}

/// The refresh token the browser sent, if it looks like one; none when it
/// sent two (one of them planted: neither is read).
pub fn refresh_cookie(req: &Request, ctx: &AuthContext) -> Option<String> {
    cookie(req, ctx, REFRESH_COOKIE)
        .ok()
        .flatten()
        .filter(|t| secret_token::looks_valid(t))
}

/// The device cookie the browser sent, if it sent one.
pub fn device_cookie(req: &Request, ctx: &AuthContext) -> Option<String> {
    cookie(req, ctx, device::NAME).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_answer_reads_as_the_pages_expect() {
        let user = Account {
            id: "u1".into(),
            email: "ana@agencia.com.br".into(),
            role: Role::Owner,
            approved: true,
        };
        let answer = SessionAnswer {
            access_token: "t",
            expires_at: 5,
            user: &user,
        };
        assert_eq!(
            serde_json::to_value(&answer).unwrap(),
            serde_json::json!({
                "access_token": "t",
                "expires_at": 5,
                "user": { "id": "u1", "email": "ana@agencia.com.br", "role": "owner", "approved": true }
            })
        );
    }
}
