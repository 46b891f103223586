//! What the worker takes from its host: the clock and randomness. Kept here
//! so the rest of the crate is plain Rust that `cargo test` runs natively.
//!
//! And what the rest stands on: D1 (`db`), the settings and secrets
//! (`config`), the static files (`assets`), what the worker signs with its
//! own key (`signing`), the moments it notes for the cron (`cron_state`) and
//! what it stops keeping (`retention`).

pub mod assets;
pub mod config;
pub mod cron_state;
pub mod db;
pub mod retention;
pub mod signing;

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
/// more than one).
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
    let hex = crate::platform::signing::hex(&b);
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
