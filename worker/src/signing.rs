//! What the worker signs with its own key (`JWT_SECRET`): refresh-token
//! successors, device cookies, a lead's proof cookie. Each use starts its MAC
//! with its own purpose, so what one use signs is never another use's.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// An HMAC-SHA256 keyed by `secret`, started with `purpose` and a NUL.
pub fn keyed_mac(secret: &str, purpose: &[u8]) -> Hmac<Sha256> {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(purpose);
    mac.update(b"\0");
    mac
}
