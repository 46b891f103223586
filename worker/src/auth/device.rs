//! A browser that signed in to an account before carries a cookie naming it
//! as one of that account's devices. Its wrong passwords are counted on a
//! counter of its own, not on the account's: a stranger who types wrong
//! passwords for an address can lock out unknown devices for at most the
//! 15-minute window, never the browser its owner uses every day.
//!
//! The cookie is `<id>.<mac>`: 16 random bytes and an HMAC-SHA256 (keyed by
//! `JWT_SECRET`) of the id, the account's e-mail and its stored password hash,
//! so it names one account, cannot be forged, and needs no table. A new
//! password (changed or reset) ends every device cookie issued before it: a
//! browser that knew the old password is a stranger again until it signs in
//! with the new one.

use base64ct::{Base64UrlUnpadded as B64URL, Encoding};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::platform;
use crate::platform::signing;

pub const NAME: &str = "staff_device";
/// A device is remembered for a year after its last sign-in.
pub const MAX_AGE_SECONDS: i64 = 365 * 24 * 60 * 60;

/// The account a device cookie is for: its e-mail and its password as stored.
#[derive(Debug, Clone, Copy)]
pub struct Holder<'a> {
    pub email: &'a str,
    pub password_hash: &'a str,
}

/// The MAC of device `id` for `holder`, ready to finish or to check a tag against.
fn keyed(secret: &str, id: &str, holder: Holder) -> Hmac<Sha256> {
    let mut mac = signing::keyed_mac(secret, b"staff-device");
    mac.update(id.as_bytes());
    mac.update(b"\0");
    mac.update(holder.email.as_bytes());
    mac.update(b"\0");
    mac.update(holder.password_hash.as_bytes());
    mac
}

/// A new device cookie value for `holder`.
pub fn issue(secret: &str, holder: Holder) -> String {
    let id = B64URL::encode_string(&platform::random_bytes::<16>());
    let tag = B64URL::encode_string(&keyed(secret, &id, holder).finalize().into_bytes());
    format!("{id}.{tag}")
}

/// The device's id when `value` is a cookie this worker issued for `holder`
/// since its password was last set.
pub fn recognise(secret: &str, holder: Holder, value: &str) -> Option<String> {
    let (id, tag) = value.split_once('.')?;
    if id.len() != 22 || tag.len() != 43 {
        return None;
    }
    let tag = B64URL::decode_vec(tag).ok()?;
    keyed(secret, id, holder)
        .verify_slice(&tag)
        .ok()
        .map(|()| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "a-long-test-secret-0123456789abcdef";
    const ANA: Holder = Holder {
        email: "ana@agencia.com.br",
        password_hash: "pbkdf2-sha256$100000$c2FsdA$aGFzaA",
    };

    #[test]
    fn a_device_is_recognised_for_the_account_it_signed_in_to() {
        let cookie = issue(SECRET, ANA);
        let id = recognise(SECRET, ANA, &cookie).expect("recognised");
        assert_eq!(id.len(), 22);
        assert!(cookie.starts_with(&id));
    }

    #[test]
    fn not_for_another_account_nor_under_another_key() {
        let cookie = issue(SECRET, ANA);
        let bruno = Holder {
            email: "bruno@agencia.com.br",
            ..ANA
        };
        assert_eq!(recognise(SECRET, bruno, &cookie), None);
        assert_eq!(
            recognise("another-secret-0123456789abcdefghij", ANA, &cookie),
            None
        );
    }

    #[test]
    fn not_once_the_password_has_changed() {
        let cookie = issue(SECRET, ANA);
        let changed = Holder {
            password_hash: "pbkdf2-sha256$100000$b3V0cm8$bm92bw",
            ..ANA
        };
        assert_eq!(recognise(SECRET, changed, &cookie), None);
        assert!(recognise(SECRET, changed, &issue(SECRET, changed)).is_some());
    }

    #[test]
    fn a_forged_or_mangled_cookie_is_not_a_device() {
        let cookie = issue(SECRET, ANA);
        let (id, tag) = cookie.split_once('.').unwrap();
        let other_id = B64URL::encode_string(&[7u8; 16]);
        for forged in [
            format!("{other_id}.{tag}"),
            format!("{id}.{}", "A".repeat(43)),
            id.to_string(),
            String::new(),
            "x.y".to_string(),
        ] {
            assert_eq!(recognise(SECRET, ANA, &forged), None, "{forged}");
        }
    }
}
