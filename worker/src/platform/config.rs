//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally).

use worker::{D1Database, Env};

/// The D1 binding that holds every table.
pub fn database(env: &Env) -> worker::Result<D1Database> {
    crate::platform::db::of(env)
}

/// A plain setting or secret; unset and blank are the same: `None`.
pub fn setting(env: &Env, name: &str) -> Option<String> {
    env.var(name)
        .map(|v| v.to_string())
        .ok()
        .or_else(|| number_or_flag(env, name))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A `[vars]` number or boolean (`STAFF_SIGNUPS_PER_DAY = 40`,
/// `MAIL_LOG_ONLY = true`), as written. Read from the binding itself: the
/// `worker` crate's `Env::var` takes only strings, and `Env::object_var`
/// only objects.
fn number_or_flag(env: &Env, name: &str) -> Option<String> {
    let value = js_sys::Reflect::get(env, &wasm_bindgen::JsValue::from_str(name)).ok()?;
    if let Some(n) = value.as_f64() {
        return Some(if n.fract() == 0.0 {
            format!("{}", n as i64)
        } else {
            n.to_string()
        });
    }
    value.as_bool().map(|b| b.to_string())
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
