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

/// `bytes` in lower-case hexadecimal, two digits a byte: how the worker
/// writes a digest it stores or compares.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_writes_two_lower_case_digits_a_byte() {
        assert_eq!(hex(&[]), "");
        assert_eq!(hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
    }
}
