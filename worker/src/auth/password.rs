//! Staff passwords: PBKDF2-HMAC-SHA256 with a random 16-byte salt per user.
//!
//! The stored string carries the algorithm, the iteration count, the salt and
//! the hash (`pbkdf2-sha256$<iterations>$<salt>$<hash>`, base64 without
//! padding), so a hash made with a lower count keeps verifying with its own.
//!
//! In the worker the key derivation is the runtime's WebCrypto
//! (`crypto.subtle.deriveBits`), native code several times faster than the
//! same loop compiled to WASM; natively (`cargo test`) it is the `pbkdf2`
//! crate, the reference the shared test vectors check both against.

use base64ct::{Base64Unpadded as B64, Encoding};
use subtle::ConstantTimeEq;

use crate::http::ApiResult;
use crate::platform;

/// Iterations for new hashes: the most WebCrypto computes on Cloudflare (it
/// refuses PBKDF2 above 100,000; the local runtime has no such cap). See the
/// README's Performance section.
pub const ITERATIONS: u32 = 100_000;

const ALGORITHM: &str = "pbkdf2-sha256";
const SALT_BYTES: usize = 16;
const HASH_BYTES: usize = 32;
/// A count WebCrypto refuses on Cloudflare is refused when read, so it is "no
/// usable hash" (the same work, the answer no) rather than an error at sign-in.
const MAX_ITERATIONS: u32 = ITERATIONS;

/// A password hash as stored in `staff_users.password_hash`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordHash {
    iterations: u32,
    salt: Vec<u8>,
    hash: Vec<u8>,
}

impl PasswordHash {
    /// Hashes `password` with a fresh salt and the current iteration count.
    pub async fn new(password: &str) -> ApiResult<Self> {
        Self::with(
            password,
            ITERATIONS,
            platform::random_bytes::<SALT_BYTES>().to_vec(),
        )
        .await
    }

    async fn with(password: &str, iterations: u32, salt: Vec<u8>) -> ApiResult<Self> {
        let hash = derive(password, &salt, iterations).await?;
        Ok(Self {
            iterations,
            salt,
            hash,
        })
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
        let salt = B64::decode_vec(salt).ok()?;
        let hash = B64::decode_vec(hash).ok()?;
        (!salt.is_empty() && hash.len() == HASH_BYTES).then_some(Self {
            iterations,
            salt,
            hash,
        })
    }

    /// Whether `password` matches, compared in constant time.
    pub async fn verify(&self, password: &str) -> ApiResult<bool> {
        let candidate = derive(password, &self.salt, self.iterations).await?;
        Ok(candidate.ct_eq(&self.hash).into())
    }
}

impl std::fmt::Display for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{ALGORITHM}${}${}${}",
            self.iterations,
            B64::encode_string(&self.salt),
            B64::encode_string(&self.hash)
        )
    }
}

/// PBKDF2-HMAC-SHA256 of `password`, [`HASH_BYTES`] long.
#[cfg(target_arch = "wasm32")]
async fn derive(password: &str, salt: &[u8], iterations: u32) -> ApiResult<Vec<u8>> {
    webcrypto::pbkdf2_sha256(password.as_bytes(), salt, iterations, HASH_BYTES)
        .await
        .map_err(|e| crate::http::ApiError::Internal(format!("WebCrypto PBKDF2 failed: {e:?}")))
}

/// PBKDF2-HMAC-SHA256 of `password`, [`HASH_BYTES`] long.
#[cfg(not(target_arch = "wasm32"))]
async fn derive(password: &str, salt: &[u8], iterations: u32) -> ApiResult<Vec<u8>> {
    let mut out = vec![0u8; HASH_BYTES];
    pbkdf2::pbkdf2_hmac::<sha2::Sha256>(password.as_bytes(), salt, iterations, &mut out);
    Ok(out)
}

/// The runtime's WebCrypto, reached through `globalThis.crypto.subtle`.
#[cfg(target_arch = "wasm32")]
mod webcrypto {
    use web_sys::{CryptoKey, Pbkdf2Params, SubtleCrypto, WorkerGlobalScope};
    use worker::js_sys::{Array, ArrayBuffer, Promise, Uint8Array};
    use worker::wasm_bindgen::{JsCast, JsValue};
    use worker::wasm_bindgen_futures::JsFuture;

    fn subtle() -> Result<SubtleCrypto, JsValue> {
        let global: WorkerGlobalScope = worker::js_sys::global().unchecked_into();
        Ok(global.crypto()?.subtle())
    }

    async fn settle(promise: Result<Promise, JsValue>) -> Result<JsValue, JsValue> {
        JsFuture::from(promise?).await
    }

    /// `deriveBits` with `{name: "PBKDF2", hash: "SHA-256"}` on the password
    /// imported as a raw, non-extractable key.
    pub async fn pbkdf2_sha256(
        password: &[u8],
        salt: &[u8],
        iterations: u32,
        bytes: usize,
    ) -> Result<Vec<u8>, JsValue> {
        let subtle = subtle()?;
        let usages = Array::of1(&JsValue::from_str("deriveBits"));
        let key: CryptoKey = settle(subtle.import_key_with_str(
            "raw",
            &Uint8Array::from(password),
            "PBKDF2",
            false,
            &usages,
        ))
        .await?
        .unchecked_into();
        let params =
            Pbkdf2Params::new_with_str("PBKDF2", "SHA-256", iterations, &Uint8Array::from(salt));
        let bits: ArrayBuffer =
            settle(subtle.derive_bits_with_object(&params, &key, (bytes * 8) as u32))
                .await?
                .unchecked_into();
        Ok(Uint8Array::new(&bits).to_vec())
    }
}

/// A hash of a random secret nobody knows, at the current cost.
const DUMMY_HASH: &str =
    "pbkdf2-sha256$100000$D/eLTLergtDvn+wCQu009Q$9J7f2uhgBq50AtvWKh3AsJr8D8N8xnJaTNYAF5qOLks";

/// Verifies against a hash of the current cost when the e-mail is unknown, so
/// a wrong e-mail takes as long as a wrong password.
pub async fn verify_against_nothing(password: &str) -> ApiResult<()> {
    if let Some(dummy) = PasswordHash::parse(DUMMY_HASH) {
        let _ = dummy.verify(password).await?;
    }
    Ok(())
}

/// Whether `password` matches `stored`; with no usable hash to check against
/// (an unknown address, an account with no password yet) the same work is
/// spent and the answer is no, so the time taken tells nothing.
pub async fn matches(password: &str, stored: Option<&str>) -> ApiResult<bool> {
    match stored.and_then(PasswordHash::parse) {
        Some(hash) => hash.verify(password).await,
        None => {
            verify_against_nothing(password).await?;
            Ok(false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;
    use serde::Deserialize;

    const FAST: u32 = 1_000;

    /// Natively the derivation never waits, so each future is ready at once.
    fn ready<T>(future: impl Future<Output = ApiResult<T>>) -> T {
        future
            .now_or_never()
            .expect("the native derivation is synchronous")
            .expect("the native derivation does not fail")
    }

    fn hash(password: &str, iterations: u32, salt: Vec<u8>) -> PasswordHash {
        ready(PasswordHash::with(password, iterations, salt))
    }

    fn verify(hash: &PasswordHash, password: &str) -> bool {
        ready(hash.verify(password))
    }

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash("vinho tinto 2026", FAST, vec![7; 16]);
        assert!(verify(&hash, "vinho tinto 2026"));
        assert!(!verify(&hash, "vinho tinto 2027"));
        assert!(!verify(&hash, ""));
    }

    #[test]
    fn the_stored_string_round_trips_and_names_its_algorithm_and_cost() {
        let hash = hash("segredo", FAST, vec![1; 16]);
        let stored = hash.to_string();
        assert!(stored.starts_with("pbkdf2-sha256$1000$"));
        let parsed = PasswordHash::parse(&stored).unwrap();
        assert_eq!(parsed, hash);
        assert!(verify(&parsed, "segredo"));
    }

    #[test]
    fn an_old_hash_with_fewer_iterations_still_verifies() {
        let old = hash("antiga", 500, vec![3; 16]).to_string();
        let parsed = PasswordHash::parse(&old).unwrap();
        assert_eq!(parsed.iterations, 500);
        assert!(verify(&parsed, "antiga"));
    }

    #[test]
    fn matches_a_published_pbkdf2_hmac_sha256_vector() {
        // RFC 7914 section 11: P = "passwd", S = "salt", c = 1, dkLen = 64 (first 32 bytes).
        let out = ready(derive("passwd", b"salt", 1));
        assert_eq!(
            crate::platform::signing::hex(&out),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        );
    }

    #[derive(Deserialize)]
    struct Vectors {
        vectors: Vec<Vector>,
    }

    #[derive(Deserialize)]
    struct Vector {
        password: String,
        stored: String,
    }

    /// The vectors tests/api/password-hashing.test.ts also checks WebCrypto
    /// against, in Node and in the worker.
    fn shared_vectors() -> Vec<Vector> {
        let json = include_str!("../../../tests/api/password-vectors.json");
        serde_json::from_str::<Vectors>(json).unwrap().vectors
    }

    #[test]
    fn the_pbkdf2_crate_gives_the_shared_vectors_webcrypto_is_checked_against() {
        let vectors = shared_vectors();
        assert!(vectors.len() >= 4);
        for v in vectors {
            let stored = PasswordHash::parse(&v.stored).expect("a stored hash");
            let again = hash(&v.password, stored.iterations, stored.salt.clone());
            assert_eq!(again.to_string(), v.stored, "{:?}", v.password);
            assert!(ready(matches(&v.password, Some(&v.stored))));
            assert!(!ready(matches(
                &format!("{} ", v.password),
                Some(&v.stored)
            )));
        }
    }

    #[test]
    fn the_dummy_hash_costs_what_a_real_one_costs() {
        assert_eq!(
            PasswordHash::parse(DUMMY_HASH).map(|h| h.iterations),
            Some(ITERATIONS)
        );
    }

    #[test]
    #[ignore = "prints a new dummy hash; run by hand when ITERATIONS changes"]
    fn print_dummy_hash() {
        println!(
            "{}",
            ready(PasswordHash::new(&super::super::secret_token::generate().0))
        );
    }

    #[test]
    fn nothing_to_check_against_never_matches() {
        assert!(!ready(matches("segredo", None)));
        assert!(!ready(matches("segredo", Some("!"))));
        let stored = hash("segredo", FAST, vec![9; 16]).to_string();
        assert!(ready(matches("segredo", Some(&stored))));
        assert!(!ready(matches("Segredo", Some(&stored))));
    }

    #[test]
    fn each_hash_gets_its_own_salt() {
        let a = ready(PasswordHash::new("mesma senha"));
        let b = ready(PasswordHash::new("mesma senha"));
        assert_ne!(a.to_string(), b.to_string());
        assert_eq!(a.iterations, ITERATIONS);
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

    #[test]
    fn a_count_above_cloudflares_webcrypto_limit_is_no_usable_hash() {
        let hash = "A".repeat(43);
        let at_cap = format!("pbkdf2-sha256$100000$AQEBAQEBAQEBAQEBAQEBAQ${hash}");
        let above = format!("pbkdf2-sha256$100001$AQEBAQEBAQEBAQEBAQEBAQ${hash}");
        assert!(PasswordHash::parse(&at_cap).is_some());
        assert_eq!(PasswordHash::parse(&above), None);
    }
}
