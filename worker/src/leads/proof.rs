//! The proof a browser keeps that it sent a lead: an HttpOnly cookie naming
//! the lead, signed with the worker's key, for a year. A later form that
//! changes that lead's details is applied at once only with it; from any
//! other browser the change waits for staff ('Alteração pendente').
//!
//! The value is `<lead id>.<mac>`: an HMAC-SHA256 of the id under
//! `JWT_SECRET`, so it names one lead and cannot be made for another.

use base64ct::{Base64UrlUnpadded as B64URL, Encoding};
use hmac::Mac;

use crate::signing;

/// The cookie's name (`__Host-lead` over https, see `crate::cookies`).
pub const COOKIE: &str = "lead";
/// How long a browser keeps its proof.
pub const MAX_AGE_SECONDS: i64 = 365 * 24 * 60 * 60;

/// Longer than any lead id.
const MAX_ID_CHARS: usize = 64;

fn mac(secret: &str, lead_id: &str) -> hmac::Hmac<sha2::Sha256> {
    let mut mac = signing::keyed_mac(secret, b"lead-proof");
    mac.update(lead_id.as_bytes());
    mac
}

/// The cookie's value for `lead_id`.
pub fn issue(secret: &str, lead_id: &str) -> String {
    let tag = B64URL::encode_string(&mac(secret, lead_id).finalize().into_bytes());
    format!("{lead_id}.{tag}")
}

/// The lead `value` proves, if this worker signed it.
pub fn lead_of(secret: &str, value: &str) -> Option<String> {
    let (id, tag) = value.rsplit_once('.')?;
    if id.is_empty() || id.len() > MAX_ID_CHARS || tag.len() != 43 {
        return None;
    }
    let tag = B64URL::decode_vec(tag).ok()?;
    mac(secret, id)
        .verify_slice(&tag)
        .ok()
        .map(|()| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "a-long-test-secret-0123456789abcdef";
    const LEAD: &str = "0b6c7f1e-1111-4222-8333-944455556666";

    #[test]
    fn a_proof_names_its_lead_and_no_other() {
        let proof = issue(KEY, LEAD);
        assert_eq!(lead_of(KEY, &proof).as_deref(), Some(LEAD));
        let (_, tag) = proof.rsplit_once('.').unwrap();
        assert_eq!(lead_of(KEY, &format!("another-lead.{tag}")), None);
        assert_eq!(lead_of("another-secret-0123456789abcdefghij", &proof), None);
    }

    #[test]
    fn anything_else_proves_nothing() {
        for value in [
            "",
            ".",
            LEAD,
            &format!("{LEAD}."),
            &format!("{LEAD}.{}", "A".repeat(43)),
        ] {
            assert_eq!(lead_of(KEY, value), None, "{value:?}");
        }
    }
}
