//! Pages and assets: served from the static build, with the security headers
//! every HTML answer carries.

use worker::{Env, Headers, Request, Response};

/// Fetches the page or asset from the static assets and adds the headers.
pub async fn serve(req: Request, env: &Env) -> worker::Result<Response> {
    let https = req.url()?.scheme() == "https";
    let path = req.path();
    let assets = env.assets("ASSETS")?;
    let fetched = assets.fetch_request(req).await?;
    let mut response = with_own_headers(fetched)?;
    if response.status_code() == 404 {
        worker::console_warn!("404 page not found: {path}");
    }
    let is_html = response
        .headers()
        .get("Content-Type")?
        .is_some_and(|t| t.starts_with("text/html"));
    let headers = response.headers_mut();
    headers.set("X-Content-Type-Options", "nosniff")?;
    if is_html {
        headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY)?;
        headers.set("Referrer-Policy", "strict-origin-when-cross-origin")?;
        headers.set("Permissions-Policy", PERMISSIONS_POLICY)?;
        headers.set("X-Frame-Options", "DENY")?;
        headers.set("Cache-Control", "public, max-age=0, must-revalidate")?;
        if https {
            headers.set(
                "Strict-Transport-Security",
                "max-age=63072000; includeSubDomains",
            )?;
        }
    }
    Ok(response)
}

/// A fetched response's headers are immutable; copy them into a response we own.
fn with_own_headers(fetched: Response) -> worker::Result<Response> {
    let status = fetched.status_code();
    let headers = Headers::new();
    for (name, value) in fetched.headers().entries() {
        headers.append(&name, &value)?;
    }
    let (_, body) = fetched.into_parts();
    Ok(Response::from_body(body)?
        .with_status(status)
        .with_headers(headers))
}

const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; \
     base-uri 'self'; form-action 'self'; object-src 'none'";

const PERMISSIONS_POLICY: &str = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), \
     interest-cohort=()";
