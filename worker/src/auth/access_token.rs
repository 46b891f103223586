//! Short-lived access tokens: JWTs signed with HS256 (jwt-compact). They name
//! the staff member and the session; every admin call also checks that the
//! session is still live, so a sign-out takes effect at once.

use chrono::{DateTime, Duration, TimeZone, Utc};
use jwt_compact::alg::{Hs256, Hs256Key};
use jwt_compact::{AlgorithmExt, Claims, Header, TimeOptions, Token, UntrustedToken};
use serde::{Deserialize, Serialize};

/// How long an access token lasts.
pub const LIFETIME_SECONDS: i64 = 60 * 60;

/// What an access token says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaffClaims {
    /// The staff user's id.
    pub sub: String,
    pub email: String,
    /// The session the token belongs to.
    pub sid: String,
}

/// Signs and checks tokens with the worker's secret.
pub struct Signer {
    key: Hs256Key,
}

#[derive(Debug, PartialEq, Eq)]
pub enum TokenError {
    Malformed,
    BadSignature,
    Expired,
}

fn time_options(now_ms: i64) -> TimeOptions<impl Fn() -> DateTime<Utc>> {
    let now = Utc
        .timestamp_millis_opt(now_ms)
        .single()
        .unwrap_or_default();
    TimeOptions::new(Duration::zero(), move || now)
}

impl Signer {
    pub fn new(secret: &str) -> Self {
        Self {
            key: Hs256Key::new(secret.as_bytes()),
        }
    }

    /// A token for `claims`, valid for [`LIFETIME_SECONDS`] from `now_ms`;
    /// returns it with its expiry in milliseconds.
    pub fn issue(&self, claims: StaffClaims, now_ms: i64) -> (String, i64) {
        let options = time_options(now_ms);
        let claims = Claims::new(claims)
            .set_duration_and_issuance(&options, Duration::seconds(LIFETIME_SECONDS));
        let expires_ms = claims.expiration.map_or(now_ms, |e| e.timestamp_millis());
        let token = Hs256
            .token(&Header::empty(), &claims, &self.key)
            .expect("HS256 signing of serialisable claims cannot fail");
        (token, expires_ms)
    }

    /// The claims of a token this worker signed that has not expired at `now_ms`.
    pub fn verify(&self, token: &str, now_ms: i64) -> Result<StaffClaims, TokenError> {
        let untrusted = UntrustedToken::new(token).map_err(|_| TokenError::Malformed)?;
        let token: Token<StaffClaims> = Hs256
            .validator(&self.key)
            .validate(&untrusted)
            .map_err(|_| TokenError::BadSignature)?;
        let options = time_options(now_ms);
        token
            .claims()
            .validate_expiration(&options)
            .map_err(|_| TokenError::Expired)?;
        Ok(token.claims().custom.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64ct::{Base64UrlUnpadded as B64URL, Encoding};

    const NOW: i64 = 1_790_000_000_000;

    fn claims() -> StaffClaims {
        StaffClaims {
            sub: "user-1".into(),
            email: "ana@agencia.com.br".into(),
            sid: "session-1".into(),
        }
    }

    fn signer() -> Signer {
        Signer::new("a-long-test-secret-0123456789abcdef")
    }

    #[test]
    fn an_issued_token_verifies_and_carries_its_claims() {
        let (token, expires) = signer().issue(claims(), NOW);
        assert_eq!(expires, NOW + LIFETIME_SECONDS * 1000);
        assert_eq!(signer().verify(&token, NOW + 1000), Ok(claims()));
    }

    #[test]
    fn a_token_is_refused_once_it_expires() {
        let (token, _) = signer().issue(claims(), NOW);
        assert!(
            signer()
                .verify(&token, NOW + LIFETIME_SECONDS * 1000 - 1000)
                .is_ok()
        );
        assert_eq!(
            signer().verify(&token, NOW + LIFETIME_SECONDS * 1000 + 1000),
            Err(TokenError::Expired)
        );
    }

    #[test]
    fn a_token_signed_with_another_key_is_refused() {
        let (token, _) = Signer::new("another-secret-entirely-0123456789").issue(claims(), NOW);
        assert_eq!(signer().verify(&token, NOW), Err(TokenError::BadSignature));
    }

    #[test]
    fn a_token_whose_payload_was_changed_is_refused() {
        let (token, _) = signer().issue(claims(), NOW);
        let parts: Vec<&str> = token.split('.').collect();
        let payload = String::from_utf8(B64URL::decode_vec(parts[1]).unwrap()).unwrap();
        let forged = payload.replace("user-1", "user-2");
        let token = format!(
            "{}.{}.{}",
            parts[0],
            B64URL::encode_string(forged.as_bytes()),
            parts[2]
        );
        assert_eq!(signer().verify(&token, NOW), Err(TokenError::BadSignature));
    }

    #[test]
    fn a_token_with_alg_none_is_refused() {
        let (token, _) = signer().issue(claims(), NOW);
        let payload = token.split('.').nth(1).unwrap();
        let header = B64URL::encode_string(br#"{"alg":"none","typ":"JWT"}"#);
        for forged in [
            format!("{header}.{payload}."),
            format!("{header}.{payload}"),
        ] {
            assert!(signer().verify(&forged, NOW).is_err(), "{forged}");
        }
    }

    #[test]
    fn garbage_is_malformed() {
        assert_eq!(
            signer().verify("not-a-token", NOW),
            Err(TokenError::Malformed)
        );
        assert_eq!(signer().verify("", NOW), Err(TokenError::Malformed));
    }
}
