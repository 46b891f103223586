//! The static files (the built pages, the password list), from the `ASSETS`
//! binding.

use worker::{Env, Request, Response};

/// The static file at `path` (which starts with `/`).
pub async fn file(env: &Env, path: &str) -> worker::Result<Response> {
    env.assets("ASSETS")?
        .fetch(format!("https://assets.invalid{path}"), None)
        .await
}

/// What the assets answer `req` (a page, a script, a 404).
pub async fn answer(env: &Env, req: Request) -> worker::Result<Response> {
    env.assets("ASSETS")?.fetch_request(req).await
}
