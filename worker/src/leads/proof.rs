//! The proof a browser keeps that it sent a lead: an HttpOnly cookie naming
//! the lead, signed with the worker's key, for a year. A later form that
//! changes that lead's details is applied at once only with it; from any
//! other browser the change waits for staff ('Alteração pendente').
//!
//! The value is `<lead id>.<mac>`: an HMAC-SHA256 of the id under
//! `JWT_SECRET`, so it names one lead and cannot be made for another.

use base64ct::{Base64UrlUnpadded as B64URL, Encoding};
use hmac::Mac;

use crate::platform::signing;

/// The cookie's name (`__Host-lead` over https, see `crate::http::cookies`).
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

/// The lead a proof is renewed for after a submission on lead `id`: only the
/// lead the browser already proved. Repeating another lead's exact details
/// (they are in every export and notice) earns nothing.
pub fn renewed(proved: Option<&str>, id: String) -> Option<String> {
    (proved == Some(id.as_str())).then_some(id)
}

/// What an accepted post's cookie names: the lead it proved now (a new lead,
/// or its own lead again); else the lead the browser already proved, kept;
/// else a decoy, a random id that is no lead's. Every accepted post so
/// answers one `Set-Cookie` of one shape, and the answer tells nobody
/// whether the details were already a lead's.
pub fn kept(to_prove: Option<String>, proved: Option<String>) -> String {
    to_prove.or(proved).unwrap_or_else(crate::platform::new_id)
}

/// Who sent a change that waits for staff, as kept with it: an HMAC of
/// their network (`rate_limit::network_of`: the IPv4 address or the IPv6
/// /64) under the worker's key, never the address itself; the same sender
/// gives the same value, so their newer change replaces the older.
pub fn sender_of(secret: &str, network: &str) -> String {
    let mut mac = signing::keyed_mac(secret, b"change-sender");
    mac.update(network.as_bytes());
    signing::hex(&mac.finalize().into_bytes()[..16])
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
    fn a_proof_is_renewed_only_for_the_lead_it_named() {
        assert_eq!(renewed(Some(LEAD), LEAD.into()).as_deref(), Some(LEAD));
        assert_eq!(renewed(Some("another-lead"), LEAD.into()), None);
        assert_eq!(renewed(None, LEAD.into()), None);
    }

    #[test]
    fn a_browser_keeps_its_proof_and_one_without_gets_a_decoy_of_the_same_shape() {
        assert_eq!(kept(Some(LEAD.into()), Some("old".into())), LEAD);
        assert_eq!(kept(None, Some(LEAD.into())), LEAD);
        let decoy = kept(None, None);
        assert_eq!(decoy.len(), LEAD.len());
        assert_ne!(decoy, kept(None, None));
        assert_eq!(issue(KEY, &decoy).len(), issue(KEY, LEAD).len());
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
