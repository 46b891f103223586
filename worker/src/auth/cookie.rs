//! The refresh token travels in an HttpOnly, SameSite=Strict cookie limited
//! to the auth endpoints; scripts never see it.

pub const NAME: &str = "staff_refresh";
pub const PATH: &str = "/api/auth";
/// A session ends after 30 days without use.
pub const MAX_AGE_SECONDS: i64 = 30 * 24 * 60 * 60;

/// `Set-Cookie` value carrying `token`; `Secure` unless served over plain
/// http on this machine (local development and tests).
pub fn set(token: &str, secure: bool) -> String {
    format!(
        "{NAME}={token}; Path={PATH}; Max-Age={MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict{}",
        if secure { "; Secure" } else { "" }
    )
}

/// `Set-Cookie` value that removes the cookie.
pub fn clear(secure: bool) -> String {
    format!(
        "{NAME}=; Path={PATH}; Max-Age=0; HttpOnly; SameSite=Strict{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The refresh token from a `Cookie` header.
pub fn read(header: &str) -> Option<&str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == NAME)
        .map(|(_, value)| value.trim())
        .filter(|v| !v.is_empty())
}

/// Plain http is only acceptable on this machine.
pub fn must_be_secure(scheme: &str, host: &str) -> bool {
    !(scheme == "http" && matches!(host, "localhost" | "127.0.0.1" | "[::1]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_http_only_strict_and_limited_to_the_auth_paths() {
        let c = set("abc", true);
        assert_eq!(
            c,
            "staff_refresh=abc; Path=/api/auth; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure"
        );
        assert!(!set("abc", false).contains("Secure"));
        assert!(clear(true).contains("Max-Age=0"));
    }

    #[test]
    fn secure_everywhere_but_plain_http_on_localhost() {
        assert!(must_be_secure("https", "recantodasvideiras.com.br"));
        assert!(must_be_secure("http", "recantodasvideiras.com.br"));
        assert!(!must_be_secure("http", "127.0.0.1"));
        assert!(!must_be_secure("http", "localhost"));
        assert!(must_be_secure("https", "localhost"));
    }

    #[test]
    fn the_token_is_read_among_other_cookies() {
        assert_eq!(read("a=1; staff_refresh=tok; b=2"), Some("tok"));
        assert_eq!(read("staff_refresh=tok"), Some("tok"));
        assert_eq!(read("staff_refresh="), None);
        assert_eq!(read("other_staff_refresh=x"), None);
        assert_eq!(read(""), None);
    }
}
