//! The site's cookies: HttpOnly, SameSite=Strict, for the whole site
//! (`Path=/`). Served over https their names carry the `__Host-` prefix,
//! which the browser accepts only from this very host, Secure and without a
//! `Domain`: a sibling subdomain cannot plant one. Over plain http on this
//! machine (local development and tests) the plain name is used.
//!
//! A request that carries the same cookie twice is refused rather than read:
//! which of the two the browser lists first is no proof of anything.

/// Whether this request's cookies carry the `__Host-` prefix: everywhere but
/// plain http on this machine.
pub fn must_be_secure(scheme: &str, host: &str) -> bool {
    !(scheme == "http" && matches!(host, "localhost" | "127.0.0.1" | "[::1]"))
}

/// The name `base` goes by.
pub fn name(base: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{base}")
    } else {
        base.to_string()
    }
}

/// `Set-Cookie` value carrying `value` as `base` for `max_age_seconds`.
pub fn set(base: &str, value: &str, max_age_seconds: i64, secure: bool) -> String {
    format!(
        "{}={value}; Path=/; Max-Age={}; HttpOnly; SameSite=Strict{}",
        name(base, secure),
        max_age_seconds.max(0),
        if secure { "; Secure" } else { "" }
    )
}

/// `Set-Cookie` value that removes `base`.
pub fn clear(base: &str, secure: bool) -> String {
    set(base, "", 0, secure)
}

/// The same cookie came twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentTwice;

/// The value of `base` in a `Cookie` header (an empty one is none).
pub fn read<'a>(header: &'a str, base: &str, secure: bool) -> Result<Option<&'a str>, SentTwice> {
    let wanted = name(base, secure);
    let mut values = header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(n, _)| *n == wanted)
        .map(|(_, value)| value.trim());
    let first = values.next();
    if values.next().is_some() {
        return Err(SentTwice);
    }
    Ok(first.filter(|v| !v.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_https_the_cookie_is_host_only_secure_and_for_the_whole_site() {
        assert_eq!(
            set("staff_refresh", "abc", 2_592_000, true),
            "__Host-staff_refresh=abc; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict; Secure"
        );
        assert_eq!(
            set("staff_refresh", "abc", 60, false),
            "staff_refresh=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Strict"
        );
        assert!(set("lead", "x", -5, false).contains("Max-Age=0;"));
        assert!(clear("lead", true).starts_with("__Host-lead=; Path=/; Max-Age=0;"));
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
    fn a_cookie_is_read_among_others_by_the_name_of_its_scheme() {
        let header = "a=1; __Host-staff_refresh=tok; staff_refresh=planted; b=2";
        assert_eq!(read(header, "staff_refresh", true), Ok(Some("tok")));
        assert_eq!(read(header, "staff_refresh", false), Ok(Some("planted")));
        assert_eq!(read("staff_refresh=", "staff_refresh", false), Ok(None));
        assert_eq!(
            read("other_staff_refresh=x", "staff_refresh", false),
            Ok(None)
        );
        assert_eq!(read("", "staff_refresh", false), Ok(None));
    }

    #[test]
    fn a_cookie_sent_twice_is_not_read() {
        assert_eq!(
            read(
                "staff_refresh=mine; staff_refresh=planted",
                "staff_refresh",
                false
            ),
            Err(SentTwice)
        );
        assert_eq!(
            read("__Host-lead=a; x=1; __Host-lead=b", "lead", true),
            Err(SentTwice)
        );
    }
}
