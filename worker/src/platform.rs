//! What the worker takes from its host: the clock, randomness, and the
//! failure of a call into it (D1, fetch, the assets, WebCrypto). Kept here so
//! the rest of the crate is plain Rust that `cargo test` runs natively.

use std::fmt;

use wasm_bindgen::{JsCast, JsValue};

/// A call into the runtime failed: what it said, for the log. Small, so
/// handing it up the stack with `?` costs next to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError(String);

pub type HostResult<T> = Result<T, HostError>;

impl HostError {
    pub fn new(what: impl Into<String>) -> Self {
        Self(what.into())
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HostError {}

impl From<JsValue> for HostError {
    /// An exception or a rejection: its message, and its cause's (D1 puts
    /// SQLite's error there).
    fn from(value: JsValue) -> Self {
        let Some(error) = value.dyn_ref::<js_sys::Error>() else {
            return Self(value.as_string().unwrap_or_else(|| format!("{value:?}")));
        };
        let message = String::from(error.message());
        match error.cause().dyn_ref::<js_sys::Error>() {
            Some(cause) => Self(format!("{message}: {}", String::from(cause.message()))),
            None => Self(message),
        }
    }
}

/// Milliseconds since the Unix epoch, UTC.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> i64 {
    worker::Date::now().as_millis() as i64
}

/// Milliseconds since the Unix epoch, UTC.
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// `c` in lower and in upper case (its first character, where a case takes
/// more than one), as the host maps them: JavaScript's mapping in the
/// worker, whose Unicode tables the WASM then need not carry (they weighed
/// 24 KB); Rust's natively, the same Unicode mapping.
#[cfg(target_arch = "wasm32")]
pub fn cases(c: char) -> (char, char) {
    let one = js_sys::JsString::from(c.to_string());
    let first = |s: js_sys::JsString| String::from(s).chars().next().unwrap_or(c);
    (first(one.to_lower_case()), first(one.to_upper_case()))
}

/// `c` in lower and in upper case (its first character, where a case takes
/// more than one).
#[cfg(not(target_arch = "wasm32"))]
pub fn cases(c: char) -> (char, char) {
    (
        c.to_lowercase().next().unwrap_or(c),
        c.to_uppercase().next().unwrap_or(c),
    )
}

/// Cryptographically secure random bytes (WebCrypto in the worker, the OS natively).
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the platform's secure random source is available");
    bytes
}

/// A random identifier in the UUID v4 text form.
pub fn new_id() -> String {
    let mut b = random_bytes::<16>();
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_version_4_uuids_and_do_not_repeat() {
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"));
    }
}
