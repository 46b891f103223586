//! Pages and assets: served from the static build, with the security headers
//! every HTML answer carries; and the public settings the pages read at run time.

mod inline_hashes;

use serde::Serialize;
use worker::{Context, Env, Headers, Request, Response};

use crate::campaigns::visits::{self, PageView};
use crate::delivery::disclosure::{self, AdsDisclosure};
use crate::formats::dates::Day;
use crate::http::turnstile::{self, Turnstile};
use crate::http::{self, ApiResult, HeaderText};
use crate::platform::{self, assets, config};
pub use inline_hashes::{CspHash, PageHashes};

/// What `GET /api/config` tells the pages.
#[derive(Debug, Serialize)]
struct PublicConfig {
    /// `null` while Turnstile is off.
    turnstile_site_key: Option<String>,
}

/// `GET /api/config`: what the pages learn at run time rather than build
/// time, so one build serves with Turnstile on or off. The lead and sign-up
/// forms fetch it on first use; the HTML stays a static file, cached and
/// streamed as built.
pub fn public_config(env: &Env) -> ApiResult<Response> {
    let turnstile_site_key = Turnstile::from_env(env).map(|t| t.site_key().to_string());
    http::success(&PublicConfig { turnstile_site_key })
}

/// Fetches the page or asset from the static assets and adds the headers;
/// if the assets cannot be read, a plain 500 (and the log says why). A
/// visitor's arrival at a public page is counted once it is answered.
pub async fn serve(req: Request, env: &Env, ctx: &Context) -> Response {
    match serve_from_assets(&req, env).await {
        Ok(response) => {
            count_visit(&req, response.status_code(), env, ctx);
            response
        }
        Err(error) => {
            worker::console_error!("{}: the static assets failed: {error}", req.path());
            http::text(
                500,
                "text/plain; charset=utf-8",
                crate::agency::messages::INTERNAL_ERROR,
            )
        }
    }
}

async fn serve_from_assets(req: &Request, env: &Env) -> worker::Result<Response> {
    let https = req.url()?.scheme() == "https";
    let turnstile_on = Turnstile::from_env(env).is_some();
    let path = req.path();
    // The public pages that speak of the ads come in one variant per
    // setting (delivery/disclosure.rs), each served at the page's own address.
    let ads = AdsDisclosure::from_env(env);
    let mut fetched = match (shell_for(&path), ads.page_for(&path)) {
        _ if disclosure::is_variant_file(&path) => Response::empty()?.with_status(404),
        (Some(shell), _) => assets::file(env, shell).await?,
        (None, Some(page)) => assets::file_for(env, &page, req).await?,
        // The visitor's own request, handed on as it came: another handle to
        // the same request (`Clone` of the handle, not the runtime's
        // `Request.clone()`), as `serve` still reads it to count the visit.
        (None, None) => assets::answer(env, Request::from(Clone::clone(req.inner()))).await?,
    };
    if fetched.status_code() == 404 {
        worker::console_warn!("404 page not found: {path}");
        // The assets answer a bare 404 (`not_found_handling = "none"`): the
        // visitor gets the 404 page.
        fetched = not_found(env).await?;
    }
    let headers = own_headers(&fetched)?;
    let is_html = headers
        .get("Content-Type")?
        .is_some_and(|t| t.starts_with("text/html"));
    let inline = if is_html {
        inline_hashes::for_page(env, &path).await
    } else {
        PageHashes::default()
    };
    for (name, value) in security_headers(is_html, https, turnstile_on, &inline) {
        headers.set(name, &value)?;
    }
    Ok(fetched.with_headers(headers))
}

/// The 404 page, with its status.
async fn not_found(env: &Env) -> worker::Result<Response> {
    Ok(assets::file(env, "/404").await?.with_status(404))
}

/// Counts the visit `req` is, if it is one, after the answer
/// (`wait_until`): a failure is logged and the page is served all the same.
fn count_visit(req: &Request, status: u16, env: &Env, ctx: &Context) {
    let Ok(url) = req.url() else {
        return;
    };
    let query: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let header = |name: &str| req.header(name);
    let (user_agent, referer) = (header("User-Agent"), header("Referer"));
    let purpose = ["Sec-Purpose", "Purpose", "X-Purpose", "X-Moz"]
        .into_iter()
        .find_map(header);
    let (dest, mode) = (header("Sec-Fetch-Dest"), header("Sec-Fetch-Mode"));
    let method = req.inner().method();
    let path = req.path();
    let origin = http::origin(&url);
    let view = PageView {
        method: &method,
        path: &path,
        status,
        query: &query,
        origin: &origin,
        host: url.host_str().unwrap_or_default(),
        user_agent: user_agent.as_deref(),
        referer: referer.as_deref(),
        purpose: purpose.as_deref(),
        sec_fetch_dest: dest.as_deref(),
        sec_fetch_mode: mode.as_deref(),
    };
    let Some(visit) = view.visit(Day::in_brasilia(platform::now_ms())) else {
        return;
    };
    let key = config::signing_key(env);
    let network = visits::NetworkMark::of(key.as_deref(), &visit.day, &http::client_ip(req));
    let env = env.clone();
    ctx.wait_until(async move {
        let counted = match config::database(&env) {
            Ok(db) => visits::count(&db, &visit, &network).await,
            Err(error) => Err(error),
        };
        if let Err(error) = counted {
            worker::console_error!("visits: a visit could not be counted: {error}");
        }
    });
}

/// The prerendered page that serves a path with a parameter: a lead's own
/// page (`/admin/leads/{id}`) is the panel's shell, and the page's script
/// shows the lead.
pub fn shell_for(path: &str) -> Option<&'static str> {
    let id = path.strip_prefix("/admin/leads/")?;
    (!id.is_empty() && !id.contains('/')).then_some("/admin")
}

/// The headers the worker adds to a page or file it serves. Pages get the
/// full set (and HSTS only over HTTPS, where it means something); every file
/// gets `nosniff`. Pages revalidate on every visit so a deploy shows at once;
/// hashed assets are cached for a year by `pages/public/_headers`. `inline`
/// is the page's own inline style and script, allowed by their hashes.
pub fn security_headers(
    is_html: bool,
    https: bool,
    turnstile_on: bool,
    inline: &PageHashes,
) -> Vec<(&'static str, String)> {
    let mut headers = vec![("X-Content-Type-Options", "nosniff".to_string())];
    if is_html {
        headers.extend([
            (
                "Content-Security-Policy",
                content_security_policy(turnstile_on, inline),
            ),
            (
                "Referrer-Policy",
                "strict-origin-when-cross-origin".to_string(),
            ),
            ("Permissions-Policy", PERMISSIONS_POLICY.to_string()),
            ("X-Frame-Options", "DENY".to_string()),
            (
                "Cache-Control",
                "public, max-age=0, must-revalidate".to_string(),
            ),
        ]);
        if https {
            headers.push((
                "Strict-Transport-Security",
                "max-age=63072000; includeSubDomains".to_string(),
            ));
        }
    }
    headers
}

/// A fetched response's headers are immutable: a copy of them, to change
/// and answer with (`Response::with_headers`).
fn own_headers(fetched: &Response) -> worker::Result<Headers> {
    let headers = Headers::new();
    for (name, value) in fetched.headers().entries() {
        headers.append(&name, &value)?;
    }
    Ok(headers)
}

/// Only our own origin, and of inline code only the page's own style and
/// script, each named by its hash (never `'unsafe-inline'`); the Turnstile
/// origin is added for its script, its frame and its calls only when it is on.
pub fn content_security_policy(turnstile_on: bool, inline: &PageHashes) -> String {
    let extra = if turnstile_on {
        format!(" {}", turnstile::CHALLENGES_ORIGIN)
    } else {
        String::new()
    };
    let hashes =
        |list: &[CspHash]| -> String { list.iter().map(|h| format!(" {}", h.source())).collect() };
    // The gallery's images given as an address in agency.json (none: the site's own files).
    let images: String = crate::agency::IMAGE_ORIGINS
        .iter()
        .map(|o| format!(" {o}"))
        .collect();
    format!(
        "default-src 'self'; script-src 'self'{extra}{scripts}; style-src 'self'{styles}; \
         img-src 'self' data:{images}; font-src 'self'; connect-src 'self'{extra}; frame-src {frame}; \
         frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
        scripts = hashes(&inline.script),
        styles = hashes(&inline.style),
        frame = if turnstile_on {
            turnstile::CHALLENGES_ORIGIN
        } else {
            "'none'"
        },
    )
}

const PERMISSIONS_POLICY: &str =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()";

#[cfg(test)]
mod tests {
    use super::*;

    fn directive(policy: &str, name: &str) -> String {
        policy
            .split(';')
            .map(str::trim)
            .find(|d| d.split_whitespace().next() == Some(name))
            .unwrap_or_default()
            .to_string()
    }

    fn names(headers: &[(&'static str, String)]) -> Vec<&'static str> {
        headers.iter().map(|(n, _)| *n).collect()
    }

    const STYLE: &str = "sha256-/BcEDP237+tHiBeho+vpgJNzBgcK7RLubPFvtZCcBts=";
    const SCRIPT: &str = "sha256-84xZ592jcy4x9PP/xlZDepDJY5t/vgIRfIAvFn7EKcs=";

    /// The landing's inline style and loader, as the build names them.
    fn landing() -> PageHashes {
        PageHashes {
            style: vec![CspHash::parse(STYLE).unwrap()],
            script: vec![CspHash::parse(SCRIPT).unwrap()],
        }
    }

    fn none() -> PageHashes {
        PageHashes::default()
    }

    #[test]
    fn pages_get_every_security_header_and_hsts_only_over_https() {
        let http = security_headers(true, false, false, &none());
        assert_eq!(
            names(&http),
            [
                "X-Content-Type-Options",
                "Content-Security-Policy",
                "Referrer-Policy",
                "Permissions-Policy",
                "X-Frame-Options",
                "Cache-Control"
            ]
        );
        let https = security_headers(true, true, false, &none());
        assert_eq!(
            https.last(),
            Some(&(
                "Strict-Transport-Security",
                "max-age=63072000; includeSubDomains".to_string()
            ))
        );
    }

    #[test]
    fn a_leads_own_page_is_served_the_panels_shell() {
        assert_eq!(shell_for("/admin/leads/0b6c7f1e-1111"), Some("/admin"));
        assert_eq!(shell_for("/admin/leads/"), None);
        assert_eq!(shell_for("/admin/leads/a/b"), None);
        assert_eq!(shell_for("/admin"), None);
        assert_eq!(shell_for("/admin/equipe"), None);
    }

    #[test]
    fn other_files_only_get_nosniff() {
        assert_eq!(
            names(&security_headers(false, true, true, &landing())),
            ["X-Content-Type-Options"]
        );
    }

    #[test]
    fn without_turnstile_the_policy_names_no_other_origin_and_no_inline_code() {
        let policy = content_security_policy(false, &none());
        assert!(!policy.contains("http"), "{policy}");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        assert!(!policy.contains("unsafe-eval"), "{policy}");
        assert_eq!(directive(&policy, "script-src"), "script-src 'self'");
        assert_eq!(directive(&policy, "style-src"), "style-src 'self'");
        assert_eq!(directive(&policy, "frame-src"), "frame-src 'none'");
        assert_eq!(
            directive(&policy, "frame-ancestors"),
            "frame-ancestors 'none'"
        );
    }

    #[test]
    fn with_turnstile_only_its_script_frame_and_calls_are_allowed_from_its_origin() {
        let policy = content_security_policy(true, &none());
        let origin = turnstile::CHALLENGES_ORIGIN;
        assert_eq!(
            directive(&policy, "script-src"),
            format!("script-src 'self' {origin}")
        );
        assert_eq!(
            directive(&policy, "frame-src"),
            format!("frame-src {origin}")
        );
        assert_eq!(
            directive(&policy, "connect-src"),
            format!("connect-src 'self' {origin}")
        );
        assert_eq!(directive(&policy, "style-src"), "style-src 'self'");
        assert!(!policy.contains("unsafe-inline"), "{policy}");
    }

    #[test]
    fn a_page_with_inline_code_allows_exactly_its_hashes_and_nothing_else_inline() {
        let policy = content_security_policy(false, &landing());
        assert_eq!(
            directive(&policy, "style-src"),
            format!("style-src 'self' '{STYLE}'")
        );
        assert_eq!(
            directive(&policy, "script-src"),
            format!("script-src 'self' '{SCRIPT}'")
        );
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        assert!(!policy.contains("http"), "{policy}");
        // The hashes go where inline code is allowed, nowhere else.
        assert_eq!(policy.matches("sha256-").count(), 2, "{policy}");
    }

    #[test]
    fn with_turnstile_the_landing_keeps_its_hashes_beside_the_turnstile_origin() {
        let policy = content_security_policy(true, &landing());
        let origin = turnstile::CHALLENGES_ORIGIN;
        assert_eq!(
            directive(&policy, "script-src"),
            format!("script-src 'self' {origin} '{SCRIPT}'")
        );
        assert_eq!(
            directive(&policy, "style-src"),
            format!("style-src 'self' '{STYLE}'")
        );
        assert_eq!(
            directive(&policy, "frame-src"),
            format!("frame-src {origin}")
        );
        assert_eq!(
            directive(&policy, "connect-src"),
            format!("connect-src 'self' {origin}")
        );
    }
}
