//! Staff accounts: sign-up restricted to the company's e-mail domain and
//! confirmed by the mailbox's owner, sign-in with short-lived access tokens
//! and rotating refresh tokens, password reset and change, global sign-out.

pub mod access_token;
mod common_passwords;
mod context;
mod device;
mod emails;
pub mod guard;
mod guessable;
mod login;
mod notices;
pub mod password;
mod reset;
mod secret_token;
mod sessions;
mod signup;
pub mod staff;
mod store;

use worker::{Context, Env, Method, Request, Response};

use crate::agency::messages;
use crate::http::{ApiError, ApiResult};
use crate::mail;

/// Answers `/api/auth/...`.
pub async fn route(req: Request, env: &Env, ctx: &Context, path: &str) -> ApiResult<Response> {
    let method = req.method();
    match (path, method) {
        ("/api/auth/signup", Method::Post) => signup::signup(req, env).await,
        ("/api/auth/confirm", Method::Post) => signup::confirm(req, env, ctx).await,
        ("/api/auth/login", Method::Post) => login::login(req, env, ctx).await,
        ("/api/auth/refresh", Method::Post) => sessions::refresh(req, env).await,
        ("/api/auth/logout", Method::Post) => sessions::logout(req, env).await,
        ("/api/auth/reset-request", Method::Post) => reset::request(req, env, ctx).await,
        ("/api/auth/reset", Method::Post) => reset::reset(req, env, ctx).await,
        ("/api/auth/password", Method::Post) => reset::change(req, env, ctx).await,
        ("/api/auth/session", Method::Get) => sessions::session(req, env).await,
        ("/api/auth/session", _) => Err(ApiError::MethodNotAllowed("GET")),
        ("/api/auth/notices", Method::Get) => notices::read(req, env).await,
        ("/api/auth/notices", Method::Put) => notices::switch(req, env).await,
        ("/api/auth/notices", _) => Err(ApiError::MethodNotAllowed("GET, PUT")),
        (
            "/api/auth/signup"
            | "/api/auth/confirm"
            | "/api/auth/login"
            | "/api/auth/refresh"
            | "/api/auth/logout"
            | "/api/auth/reset-request"
            | "/api/auth/reset"
            | "/api/auth/password",
            _,
        ) => Err(ApiError::MethodNotAllowed("POST")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}

/// E-mails every owner that `staff`, without 'Exportar CSV', was shown
/// `read` leads by the list this hour and worked `worked` (`admin::reads`).
pub async fn tell_owners_of_bulk_read(
    ctx: &Context,
    env: &Env,
    staff: &guard::Staff,
    read: i64,
    worked: i64,
) -> ApiResult<()> {
    let origin = crate::platform::config::site_origin(env);
    let site = |path: &str| format!("{origin}{path}");
    let db = crate::platform::config::database(env)?;
    for owner in store::owners_but(&db, &staff.user_id).await? {
        let news = emails::bulk_read(
            &owner,
            &staff.email,
            (read, worked),
            &site("/admin/equipe"),
            &site(&format!("/admin/atividade?pessoa={}", staff.user_id)),
        );
        mail::send_later(ctx, env, news);
    }
    Ok(())
}
