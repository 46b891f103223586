//! Settings from `wrangler.toml` `[vars]` and secrets (`.dev.vars` locally).

use worker::{D1Database, Env};

/// The D1 binding that holds every table.
pub fn database(env: &Env) -> worker::Result<D1Database> {
    env.d1("DB")
}
