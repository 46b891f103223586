//! Who is asking: the caller's address, and the same-origin rule for what
//! changes state.

use worker::Request;

use super::{ApiError, ApiResult, HeaderText};
use crate::agency::messages;

/// The visitor's address as Cloudflare reports it.
pub fn client_ip(req: &Request) -> String {
    req.header("CF-Connecting-IP")
        .unwrap_or_else(|| "unknown".into())
}

/// What per-address limits count for this request: the address, or its /64
/// for IPv6 ([`crate::http::rate_limit::network_of`]).
pub fn client_network(req: &Request) -> String {
    crate::http::rate_limit::network_of(&client_ip(req))
}

/// Browsers send `Origin` with every state-changing request; one that names
/// another site is refused.
pub fn check_same_origin(req: &Request) -> ApiResult<()> {
    let origin = req.header("Origin");
    let own = super::origin(&req.url()?);
    match origin {
        Some(origin) if is_same_origin(&origin, &own) => Ok(()),
        Some(_) => Err(ApiError::Forbidden(messages::CROSS_ORIGIN.into())),
        None => Ok(()),
    }
}

/// Like [`check_same_origin`], but a request without `Origin` is refused too:
/// for staff endpoints, which only our own pages call.
pub fn require_same_origin(req: &Request) -> ApiResult<()> {
    if req.header("Origin").is_none() {
        return Err(ApiError::Forbidden(messages::CROSS_ORIGIN.into()));
    }
    check_same_origin(req)
}

fn is_same_origin(origin: &str, own: &str) -> bool {
    origin.trim_end_matches('/').eq_ignore_ascii_case(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_matches_only_its_own_scheme_host_and_port() {
        assert!(is_same_origin(
            "http://127.0.0.1:8787",
            "http://127.0.0.1:8787"
        ));
        assert!(is_same_origin(
            "https://Example.com/",
            "https://example.com"
        ));
        assert!(!is_same_origin(
            "https://evil.example",
            "https://example.com"
        ));
        assert!(!is_same_origin("http://example.com", "https://example.com"));
        assert!(!is_same_origin("null", "https://example.com"));
    }
}
