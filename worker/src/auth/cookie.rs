//! The refresh token travels in an HttpOnly, SameSite=Strict cookie limited
//! to the auth endpoints; scripts never see it. So does the device cookie
//! (see [`super::device`]).

pub const NAME: &str = "staff_refresh";
pub const PATH: &str = "/api/auth";

/// `Set-Cookie` value carrying `token` for `max_age_seconds` (what is left of
/// the session); `Secure` unless served over plain http on this machine
/// (local development and tests).
pub fn set(token: &str, max_age_seconds: i64, secure: bool) -> String {
    set_named(NAME, token, max_age_seconds, secure)
}

pub fn set_named(name: &str, value: &str, max_age_seconds: i64, secure: bool) -> String {
    format!(
        "{name}={value}; Path={PATH}; Max-Age={}; HttpOnly; SameSite=Strict{}",
        max_age_seconds.max(0),
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
    read_named(header, NAME)
}

/// The cookie `name` from a `Cookie` header.
pub fn read_named<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
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
        let c = set("abc", 2_592_000, true);
        assert_eq!(
            c,
            "staff_refresh=abc; Path=/api/auth; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure"
        );
        assert!(!set("abc", 60, false).contains("Secure"));
        assert!(set("abc", -5, false).contains("Max-Age=0;"));
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
