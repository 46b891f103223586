//! URLs, read with the `url` crate (`worker::Url`): the request's own, the
//! addresses a visitor or a setting gives.

use worker::Url;

/// `scheme://host[:port]`, as browsers send it in `Origin`.
pub fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// `url` with `path` (which starts with `/`) for its path and no query.
pub fn with_path(url: &Url, path: &str) -> String {
    format!("{}{path}", origin(url))
}

/// `text` as an `http(s)` address with a host; `None` for anything else
/// (another scheme, a relative or broken address).
pub fn web_address(text: &str) -> Option<Url> {
    let url = Url::parse(text.trim()).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|h| !h.is_empty()))
        .then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_url_gives_its_origin_and_a_path_on_it() {
        let url = Url::parse("http://127.0.0.1:8787/api/leads?page=2").unwrap();
        assert_eq!(origin(&url), "http://127.0.0.1:8787");
        assert_eq!(with_path(&url, "/admin"), "http://127.0.0.1:8787/admin");
        let url = Url::parse("https://Example.com:443/x").unwrap();
        assert_eq!(origin(&url), "https://example.com");
    }

    #[test]
    fn only_web_addresses_with_a_host_are_kept() {
        let host =
            |text: &str| web_address(text).map(|u| u.host_str().unwrap_or_default().to_string());
        assert_eq!(
            host("https://WWW.Instagram.com/p/1"),
            Some("www.instagram.com".into())
        );
        assert_eq!(host("http://[::1]:8787/"), Some("[::1]".into()));
        assert_eq!(host("javascript:alert(1)"), None);
        assert_eq!(host("/relative"), None);
        assert_eq!(host("ftp://example.com/"), None);
        assert!(web_address("data:text/html,x").is_none());
    }
}
