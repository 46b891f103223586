//! The static files (the built pages, the password list), from the `ASSETS`
//! binding.

use worker::{Env, Headers, Method, Request, RequestInit, Response};

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

/// The static file at `path`, answered as the assets answer `req` for it:
/// the visitor's conditional headers go along, so an unchanged page is a 304.
pub async fn file_for(env: &Env, path: &str, req: &Request) -> worker::Result<Response> {
    let headers = Headers::new();
    for name in ["If-None-Match", "If-Modified-Since"] {
        if let Some(value) = req.headers().get(name)? {
            headers.set(name, &value)?;
        }
    }
    let mut init = RequestInit::new();
    init.with_method(Method::Get).with_headers(headers);
    let inner = Request::new_with_init(&format!("https://assets.invalid{path}"), &init)?;
    env.assets("ASSETS")?.fetch_request(inner).await
}
