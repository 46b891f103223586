//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally).

use worker::Env;

use crate::d1::D1Database;
use crate::platform::HostResult;

/// The D1 binding that holds every table.
pub fn database(env: &Env) -> HostResult<D1Database> {
    D1Database::of(env)
}

/// A plain setting or secret; unset and blank are the same: `None`.
pub fn setting(env: &Env, name: &str) -> Option<String> {
    crate::web::env_text(env, name)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Where the site answers, for links in e-mails and webhooks written outside
/// a request (the cron): `SITE_ORIGIN` if set, else the site URL in agency.json.
pub fn site_origin(env: &Env) -> String {
    setting(env, "SITE_ORIGIN")
        .unwrap_or_else(|| crate::agency::SITE_URL.to_string())
        .trim_end_matches('/')
        .to_string()
}

/// A signing key shorter than this is refused: HS256 is only as strong as its key.
pub const MIN_SECRET_BYTES: usize = 32;

/// `JWT_SECRET`, the worker's own signing key, if it is long enough to sign
/// with ([`MIN_SECRET_BYTES`]).
pub fn signing_key(env: &Env) -> Option<String> {
    setting(env, "JWT_SECRET").filter(|key| key.len() >= MIN_SECRET_BYTES)
}
