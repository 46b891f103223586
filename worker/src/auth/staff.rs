//! What a staff account must be: an e-mail of the company's domain and a
//! password of at least six characters that nobody would guess first. The
//! worker enforces both, whatever the page did.

use super::guessable::{self, Guessable};
use crate::agency::messages;
use crate::formats::email;

pub const PASSWORD_MIN_CHARS: usize = 6;
pub const PASSWORD_MAX_CHARS: usize = 256;

/// A lower-cased e-mail address; for sign-up, of the company's domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffEmail(String);

#[derive(Debug, PartialEq, Eq)]
pub enum EmailRejection {
    Invalid,
    OtherDomain,
}

impl StaffEmail {
    /// An address someone signs in with (any well-formed address).
    pub fn parse(raw: &str) -> Result<Self, EmailRejection> {
        email::normalise(raw)
            .map(Self)
            .ok_or(EmailRejection::Invalid)
    }

    /// An address someone signs up with: it must end with `@` + `domain`.
    pub fn parse_for_signup(raw: &str, domain: &str) -> Result<Self, EmailRejection> {
        let email = Self::parse(raw)?;
        let domain = domain.trim().trim_start_matches('@').to_ascii_lowercase();
        match email.0.rsplit_once('@') {
            Some((_, d)) if d == domain => Ok(email),
            _ => Err(EmailRejection::OtherDomain),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The mailbox the address reaches: without the local part's `+` tag
    /// (`ana+painel@…` is delivered to `ana@…`).
    pub fn mailbox(&self) -> String {
        mailbox_of(&self.0)
    }
}

/// The mailbox a stored address reaches (see [`StaffEmail::mailbox`]).
pub fn mailbox_of(address: &str) -> String {
    match (address.find('+'), address.rfind('@')) {
        (Some(plus), Some(at)) if plus < at => format!("{}{}", &address[..plus], &address[at..]),
        _ => address.to_string(),
    }
}

/// [`StaffEmail::mailbox`] of a stored address, as SQL: its local part up to
/// a `+` tag, and its domain (`ana+x@d` and `ana@d` reach the same person).
macro_rules! mailbox {
    ($column:literal) => {
        concat!(
            "(CASE WHEN instr(",
            $column,
            ", '+') BETWEEN 1 AND instr(",
            $column,
            ", '@') \
               THEN substr(",
            $column,
            ", 1, instr(",
            $column,
            ", '+') - 1) || substr(",
            $column,
            ", instr(",
            $column,
            ", '@')) ELSE ",
            $column,
            " END)"
        )
    };
}
pub(crate) use mailbox;

/// A password someone chooses (at sign-up, reset or change; signing in
/// checks whatever password an account has): 6 to 256 characters, counted
/// as characters, not bytes, and not one anyone would try first
/// ([`guessable`]: repetitions, runs, our own names). The list of common
/// passwords is checked next, against the file (`common_passwords`).
#[derive(Clone, PartialEq, Eq)]
pub struct NewPassword(String);

impl std::fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NewPassword(…)")
    }
}

impl NewPassword {
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let chars = raw.chars().count();
        if chars < PASSWORD_MIN_CHARS {
            return Err(messages::AUTH_PASSWORD_TOO_SHORT);
        }
        if chars > PASSWORD_MAX_CHARS {
            return Err(messages::AUTH_PASSWORD_TOO_LONG);
        }
        match guessable::guess(raw) {
            Some(Guessable::Pattern) => Err(messages::AUTH_PASSWORD_PATTERN),
            Some(Guessable::LocalName) => Err(messages::AUTH_PASSWORD_LOCAL_NAME),
            None => Ok(Self(raw.to_string())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agency::roles::{Role, role_sql};

    #[test]
    fn a_role_reads_and_answers_as_the_pages_name_it() {
        let roles = [Role::Owner, Role::Staff];
        let names: Vec<String> = roles
            .iter()
            .map(|r| {
                serde_json::to_value(r)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert_eq!(crate::audit::tests::pages_union("Role"), names);
        for (sql, role) in [
            (role_sql!(Owner), Role::Owner),
            (role_sql!(Staff), Role::Staff),
        ] {
            assert_eq!(
                sql,
                serde_json::to_value(role)
                    .unwrap()
                    .to_string()
                    .replace('"', "'")
            );
        }
        for (role, name) in roles.into_iter().zip(&names) {
            assert_eq!(
                serde_json::from_value::<Role>(serde_json::json!(name)).unwrap(),
                role
            );
        }
    }

    #[test]
    fn the_mailbox_leaves_out_a_plus_tag() {
        let mailbox = |raw| StaffEmail::parse(raw).unwrap().mailbox();
        assert_eq!(mailbox("Ana+Painel@Imob.com.br"), "ana@imob.com.br");
        assert_eq!(mailbox("ana+a+b@imob.com.br"), "ana@imob.com.br");
        assert_eq!(mailbox("ana@imob.com.br"), "ana@imob.com.br");
    }

    const DOMAIN: &str = "altosdaserraimoveis.com.br";

    #[test]
    fn only_the_company_domain_may_sign_up() {
        assert_eq!(
            StaffEmail::parse_for_signup(" Ana@AltosDaSerraImoveis.com.br ", DOMAIN)
                .unwrap()
                .as_str(),
            "ana@altosdaserraimoveis.com.br"
        );
        for other in [
            "ana@gmail.com",
            "ana@altosdaserraimoveis.com",
            "ana@evil-altosdaserraimoveis.com.br",
            "ana@sub.altosdaserraimoveis.com.br",
            "ana@altosdaserraimoveis.com.br.evil.com",
        ] {
            assert_eq!(
                StaffEmail::parse_for_signup(other, DOMAIN),
                Err(EmailRejection::OtherDomain),
                "{other}"
            );
        }
        assert_eq!(
            StaffEmail::parse_for_signup("ana@", DOMAIN),
            Err(EmailRejection::Invalid)
        );
    }

    #[test]
    fn the_configured_domain_may_be_written_with_an_at_sign_or_capitals() {
        assert!(StaffEmail::parse_for_signup("ana@agencia.com.br", "@Agencia.com.br").is_ok());
    }

    #[test]
    fn passwords_need_six_characters() {
        assert_eq!(
            NewPassword::parse("12345"),
            Err(messages::AUTH_PASSWORD_TOO_SHORT)
        );
        assert_eq!(
            NewPassword::parse("aaaaa"),
            Err(messages::AUTH_PASSWORD_TOO_SHORT)
        );
        assert!(NewPassword::parse("uva#51").is_ok());
        assert!(
            NewPassword::parse("çãõéü🍇").is_ok(),
            "six characters, more bytes"
        );
        assert_eq!(
            NewPassword::parse("ção🍇"),
            Err(messages::AUTH_PASSWORD_TOO_SHORT)
        );
        assert_eq!(
            NewPassword::parse(&"x".repeat(257)),
            Err(messages::AUTH_PASSWORD_TOO_LONG)
        );
    }

    #[test]
    fn a_guessable_password_is_refused_with_what_to_avoid() {
        for pattern in [
            "aaaaaa", "121212", "abcdef", "654321", "qwerty", "abcabc", "      ",
        ] {
            assert_eq!(
                NewPassword::parse(pattern),
                Err(messages::AUTH_PASSWORD_PATTERN),
                "{pattern:?}"
            );
        }
        for name in [
            "recantodasvideiras",
            "Recanto das Videiras 2026",
            "altosdaserra@123",
        ] {
            assert_eq!(
                NewPassword::parse(name),
                Err(messages::AUTH_PASSWORD_LOCAL_NAME),
                "{name:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn an_accepted_password_is_kept_as_typed(raw in "\\PC{6,40}") {
            if let Ok(password) = NewPassword::parse(&raw) {
                proptest::prop_assert_eq!(password.as_str(), raw.as_str());
                proptest::prop_assert!(guessable::guess(&raw).is_none());
            }
        }
    }

    #[test]
    fn a_password_never_shows_in_debug_output() {
        let p = NewPassword::parse("segredo123").unwrap();
        assert!(!format!("{p:?}").contains("segredo"));
    }
}
