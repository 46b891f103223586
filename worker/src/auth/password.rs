//! Staff passwords: PBKDF2-HMAC-SHA256 with a random 16-byte salt per user.
//!
//! The stored string carries the algorithm, the iteration count, the salt and
//! the hash (`pbkdf2-sha256$<iterations>$<salt>$<hash>`, base64 without
//! padding), so the count can be raised later: old hashes keep verifying with
//! their own count.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD as B64;
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::platform;

/// Iterations for new hashes. Chosen from the measured CPU time of a sign-in
/// in the worker (see the README's Performance section).
pub const ITERATIONS: u32 = 100_000;

const ALGORITHM: &str = "pbkdf2-sha256";
const SALT_BYTES: usize = 16;
const HASH_BYTES: usize = 32;
/// Refuse absurd counts in a stored string rather than burn CPU on them.
const MAX_ITERATIONS: u32 = 10_000_000;

/// A password hash as stored in `staff_users.password_hash`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordHash {
    iterations: u32,
    salt: Vec<u8>,
    hash: Vec<u8>,
}

impl PasswordHash {
    /// Hashes `password` with a fresh salt and the current iteration count.
    pub fn new(password: &str) -> Self {
        Self::with(
            password,
            ITERATIONS,
            platform::random_bytes::<SALT_BYTES>().to_vec(),
        )
    }

    fn with(password: &str, iterations: u32, salt: Vec<u8>) -> Self {
        let hash = derive(password, &salt, iterations);
        Self {
            iterations,
            salt,
            hash,
        }
    }

    /// Reads a stored string; `None` if it is not one this code wrote.
    pub fn parse(stored: &str) -> Option<Self> {
        let mut parts = stored.split('$');
        let (Some(ALGORITHM), Some(iterations), Some(salt), Some(hash), None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return None;
        };
        let iterations: u32 = iterations.parse().ok()?;
        if iterations == 0 || iterations > MAX_ITERATIONS {
            return None;
        }
        let salt = B64.decode(salt).ok()?;
        let hash = B64.decode(hash).ok()?;
        (!salt.is_empty() && hash.len() == HASH_BYTES).then_some(Self {
            iterations,
            salt,
            hash,
        })
    }

    /// Whether `password` matches, compared in constant time.
    pub fn verify(&self, password: &str) -> bool {
        let candidate = derive(password, &self.salt, self.iterations);
        candidate.ct_eq(&self.hash).into()
    }

    pub fn iterations(&self) -> u32 {
        self.iterations
    }
}

impl std::fmt::Display for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{ALGORITHM}${}${}${}",
            self.iterations,
            B64.encode(&self.salt),
            B64.encode(&self.hash)
        )
    }
}

fn derive(password: &str, salt: &[u8], iterations: u32) -> Vec<u8> {
    let mut out = vec![0u8; HASH_BYTES];
    pbkdf2::pbkdf2_hmac::<Sha256>(password.as_bytes(), salt, iterations, &mut out);
    out
}

/// A hash of a random secret nobody knows, at the current cost.
const DUMMY_HASH: &str =
    "pbkdf2-sha256$100000$D/eLTLergtDvn+wCQu009Q$9J7f2uhgBq50AtvWKh3AsJr8D8N8xnJaTNYAF5qOLks";

/// Verifies against a hash of the current cost when the e-mail is unknown, so
/// a wrong e-mail takes as long as a wrong password.
pub fn verify_against_nothing(password: &str) {
    if let Some(dummy) = PasswordHash::parse(DUMMY_HASH) {
        let _ = dummy.verify(password);
    }
}

/// Whether `password` matches `stored`; with no usable hash to check against
/// (an unknown address, an account with no password yet) the same work is
/// spent and the answer is no, so the time taken tells nothing.
pub fn matches(password: &str, stored: Option<&str>) -> bool {
    match stored.and_then(PasswordHash::parse) {
        Some(hash) => hash.verify(password),
        None => {
            verify_against_nothing(password);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FAST: u32 = 1_000;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = PasswordHash::with("vinho tinto 2026", FAST, vec![7; 16]);
        assert!(hash.verify("vinho tinto 2026"));
        assert!(!hash.verify("vinho tinto 2027"));
        assert!(!hash.verify(""));
    }

    #[test]
    fn the_stored_string_round_trips_and_names_its_algorithm_and_cost() {
        let hash = PasswordHash::with("segredo", FAST, vec![1; 16]);
        let stored = hash.to_string();
        assert!(stored.starts_with("pbkdf2-sha256$1000$"));
        let parsed = PasswordHash::parse(&stored).unwrap();
        assert_eq!(parsed, hash);
        assert!(parsed.verify("segredo"));
    }

    #[test]
    fn an_old_hash_with_fewer_iterations_still_verifies() {
        let old = PasswordHash::with("antiga", 500, vec![3; 16]).to_string();
        let parsed = PasswordHash::parse(&old).unwrap();
        assert_eq!(parsed.iterations(), 500);
        assert!(parsed.verify("antiga"));
    }

    #[test]
    fn matches_a_published_pbkdf2_hmac_sha256_vector() {
        // RFC 7914 section 11: P = "passwd", S = "salt", c = 1, dkLen = 64 (first 32 bytes).
        let out = derive("passwd", b"salt", 1);
        let hex: String = out.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        );
    }

    #[test]
    fn the_dummy_hash_costs_what_a_real_one_costs() {
        assert_eq!(
            PasswordHash::parse(DUMMY_HASH).map(|h| h.iterations()),
            Some(ITERATIONS)
        );
    }

    #[test]
    #[ignore = "prints a new dummy hash; run by hand when ITERATIONS changes"]
    fn print_dummy_hash() {
        println!(
            "{}",
            PasswordHash::new(&super::super::secret_token::generate().0)
        );
    }

    #[test]
    fn nothing_to_check_against_never_matches() {
        assert!(!matches("segredo", None));
        assert!(!matches("segredo", Some("!")));
        let stored = PasswordHash::with("segredo", FAST, vec![9; 16]).to_string();
        assert!(matches("segredo", Some(&stored)));
        assert!(!matches("Segredo", Some(&stored)));
    }

    #[test]
    fn each_hash_gets_its_own_salt() {
        let a = PasswordHash::new("mesma senha");
        let b = PasswordHash::new("mesma senha");
        assert_ne!(a.to_string(), b.to_string());
        assert_eq!(a.iterations(), ITERATIONS);
    }

    #[test]
    fn strings_this_code_did_not_write_are_refused() {
        for stored in [
            "",
            "plain",
            "bcrypt$10$abc$def",
            "pbkdf2-sha256$abc$AAAA$AAAA",
            "pbkdf2-sha256$0$AQEBAQEBAQEBAQEBAQEBAQ$AAAA",
            "pbkdf2-sha256$99999999999$AQEBAQEBAQEBAQEBAQEBAQ$AAAA",
            "pbkdf2-sha256$1000$AQEBAQEBAQEBAQEBAQEBAQ$c2hvcnQ",
            "pbkdf2-sha256$1000$!!$AAAA",
            "pbkdf2-sha256$1000$AQ$AQ$extra",
        ] {
            assert_eq!(PasswordHash::parse(stored), None, "{stored:?}");
        }
    }
}
