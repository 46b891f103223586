//! Opaque one-time secrets (refresh tokens, e-mail confirmation links): 256
//! random bits handed to the browser, only their SHA-256 kept in D1.

use base64ct::{Base64UrlUnpadded, Encoding};
use hmac::Mac;
use sha2::{Digest, Sha256};

use crate::platform;
use crate::platform::signing::{hex, keyed_mac};

/// A fresh secret and the hash to store for it.
pub fn generate() -> (String, String) {
    let token = Base64UrlUnpadded::encode_string(&platform::random_bytes::<32>());
    let hash = hash(&token);
    (token, hash)
}

/// The refresh token that replaces `token`, and the hash to store for it: an
/// HMAC-SHA256 of it keyed by `JWT_SECRET`, so every request that presents
/// `token` while it may still be retried gets this same one. Tabs that raced
/// and a thief who replayed a stolen cookie share one chain, and whichever
/// of them presents a replaced token later is the one the session ends on.
pub fn successor(secret: &str, token: &str) -> (String, String) {
    let mut mac = keyed_mac(secret, b"refresh-successor");
    mac.update(token.as_bytes());
    let successor = Base64UrlUnpadded::encode_string(&mac.finalize().into_bytes());
    let hash = hash(&successor);
    (successor, hash)
}

/// The stored form of a secret.
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` has the shape [`generate`] produces (cheap check before D1).
pub fn looks_valid(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_256_bits_url_safe_and_stored_only_as_their_hash() {
        let (token, stored) = generate();
        assert!(looks_valid(&token));
        assert_eq!(stored, hash(&token));
        assert_eq!(stored.len(), 64);
        assert!(!stored.contains(&token));
        assert_ne!(generate().0, token);
    }

    #[test]
    fn a_token_has_one_successor_under_one_key() {
        const KEY: &str = "a-long-test-secret-0123456789abcdef";
        let (token, _) = generate();
        let (next, stored) = successor(KEY, &token);
        assert!(looks_valid(&next));
        assert_eq!(stored, hash(&next));
        assert_eq!(successor(KEY, &token).0, next);
        assert_ne!(successor(KEY, &generate().0).0, next);
        assert_ne!(
            successor("another-secret-0123456789abcdefghij", &token).0,
            next
        );
    }

    #[test]
    fn anything_else_does_not_look_like_a_secret() {
        assert!(!looks_valid(""));
        assert!(!looks_valid("short"));
        assert!(!looks_valid(&"a".repeat(42)));
        assert!(!looks_valid(&format!("{}=", "a".repeat(42))));
    }
}
