//! Staff accounts: sign-up restricted to the company's e-mail domain and
//! confirmed by e-mail, sign-in with short-lived access tokens and rotating
//! refresh tokens, global sign-out.

pub mod access_token;
mod cookie;
pub mod guard;
mod handlers;
pub mod password;
mod secret_token;
pub mod staff;
mod store;

use worker::{Env, Method, Request, Response};

use crate::http::{ApiError, ApiResult};
use crate::messages;

/// Answers `/api/auth/...`.
pub async fn route(req: Request, env: &Env, path: &str) -> ApiResult<Response> {
    let method = req.method();
    match (path, method) {
        ("/api/auth/signup", Method::Post) => handlers::signup(req, env).await,
        ("/api/auth/confirm", Method::Post) => handlers::confirm(req, env).await,
        ("/api/auth/login", Method::Post) => handlers::login(req, env).await,
        ("/api/auth/refresh", Method::Post) => handlers::refresh(req, env).await,
        ("/api/auth/logout", Method::Post) => handlers::logout(req, env).await,
        ("/api/auth/session", Method::Get) => handlers::session(req, env).await,
        ("/api/auth/session", _) => Err(ApiError::MethodNotAllowed("GET")),
        (
            "/api/auth/signup" | "/api/auth/confirm" | "/api/auth/login" | "/api/auth/refresh"
            | "/api/auth/logout",
            _,
        ) => Err(ApiError::MethodNotAllowed("POST")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}
