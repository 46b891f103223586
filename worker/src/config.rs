//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally).

use worker::{D1Database, Env};

/// The D1 binding that holds every table.
pub fn database(env: &Env) -> worker::Result<D1Database> {
    env.d1("DB")
}

/// A plain setting or secret; unset and blank are the same: `None`.
pub fn setting(env: &Env, name: &str) -> Option<String> {
    env.var(name)
        .map(|v| v.to_string())
        .or_else(|_| env.secret(name).map(|v| v.to_string()))
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Where the site answers, for links in e-mails and webhooks written outside
/// a request (the cron): `SITE_ORIGIN` if set, else the site URL in agency.json.
pub fn site_origin(env: &Env) -> String {
    setting(env, "SITE_ORIGIN")
        .unwrap_or_else(|| crate::agency::config().site.url.clone())
        .trim_end_matches('/')
        .to_string()
}
