//! What every API handler shares: the error type and its JSON answer, the
//! answers the worker builds, reading a bounded body's fields, the request's
//! URL, the caller's address and the same-origin rule; the site's cookies,
//! the limits on how often an address or an e-mail may act, the bot check
//! (Turnstile), and calls to services outside our control.

mod body;
pub mod cookies;
mod error;
mod origin;
pub mod outbound;
pub mod pace;
pub mod rate_limit;
mod respond;
pub mod turnstile;
mod url;

pub use body::{BodyKind, Field, Fields, read_json_object, read_json_or_form, read_up_to};
pub use error::{ApiError, ApiResult, FieldErrors, invalid_field};
pub use origin::{check_same_origin, client_ip, client_network, require_same_origin};
pub use respond::{HeaderText, empty, json, redirect, success, success_only, text};
pub use url::{origin, web_address, with_path};
