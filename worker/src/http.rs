//! What every API handler shares: the error type and its JSON answer, reading
//! a bounded body's fields, the request's URL, the caller's address and the
//! same-origin rule.

use js_sys::{Array, JSON};

use crate::json::{self, Json};
use crate::messages;
use crate::platform::HostError;
use crate::web::{Request, Response};

/// Largest request body any endpoint reads.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

pub type ApiResult<T> = Result<T, ApiError>;

/// Field name → message shown beside that field, in the order found.
pub type FieldErrors = Vec<(&'static str, String)>;

#[derive(Debug)]
pub enum ApiError {
    BadRequest(String),
    Unauthorized(String),
    Forbidden(String),
    NotFound(String),
    MethodNotAllowed(&'static str),
    Conflict(String),
    PayloadTooLarge,
    Unprocessable {
        message: String,
        fields: FieldErrors,
    },
    TooManyRequests(String),
    /// A service we depend on (the e-mail API) refused.
    BadGateway(String),
    /// Something this deployment needs is not set up (the e-mail API's key).
    ServiceUnavailable(String),
    /// Logged in full, answered with a generic message.
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) => 400,
            ApiError::Unauthorized(_) => 401,
            ApiError::Forbidden(_) => 403,
            ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed(_) => 405,
            ApiError::Conflict(_) => 409,
            ApiError::PayloadTooLarge => 413,
            ApiError::Unprocessable { .. } => 422,
            ApiError::TooManyRequests(_) => 429,
            ApiError::BadGateway(_) => 502,
            ApiError::ServiceUnavailable(_) => 503,
            ApiError::Internal(_) => 500,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Unauthorized(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::Conflict(m)
            | ApiError::TooManyRequests(m)
            | ApiError::BadGateway(m)
            | ApiError::ServiceUnavailable(m)
            | ApiError::Unprocessable { message: m, .. } => m,
            ApiError::MethodNotAllowed(_) => messages::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge => messages::BODY_TOO_LARGE,
            ApiError::Internal(_) => messages::INTERNAL_ERROR,
        }
    }

    /// What went wrong, for the log: the internal detail of a 500, the
    /// message of anything else.
    pub fn cause(&self) -> &str {
        match self {
            ApiError::Internal(detail) => detail,
            _ => self.message(),
        }
    }

    /// `{"success": false, "error": …}`, with `fields` for a 422 that names them.
    pub fn body(&self) -> Json {
        let mut body = json::object()
            .field("success", false)
            .field("error", self.message());
        if let ApiError::Unprocessable { fields, .. } = self
            && !fields.is_empty()
        {
            let named = fields
                .iter()
                .fold(json::object(), |o, (name, message)| o.field(name, message));
            body = body.field("fields", named);
        }
        body.end()
    }

    pub fn into_response(self) -> Response {
        if let ApiError::Internal(detail) = &self {
            worker::console_error!("internal error: {detail}");
        }
        let response = json_response(&self.body(), self.status());
        let headers = response.headers();
        match self {
            ApiError::MethodNotAllowed(allow) => headers.set("Allow", allow),
            ApiError::TooManyRequests(_) => headers.set("Retry-After", "60"),
            ApiError::Unauthorized(_) => headers.set("WWW-Authenticate", "Bearer"),
            _ => {}
        }
        response
    }
}

impl From<HostError> for ApiError {
    fn from(error: HostError) -> Self {
        ApiError::Internal(error.to_string())
    }
}

impl From<worker::Error> for ApiError {
    fn from(error: worker::Error) -> Self {
        ApiError::Internal(error.to_string())
    }
}

/// A JSON answer.
pub fn json_response(body: &Json, status: u16) -> Response {
    Response::text(status, "application/json; charset=utf-8", body.as_str())
}

/// `{"success": true}` and the members the endpoint adds.
pub fn success(members: json::Object) -> ApiResult<Response> {
    Ok(json_response(&members.end_after("\"success\":true"), 200))
}

/// How a body arrived: JSON from our script, or a plain HTML form post from a
/// browser that had not run the script yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    Form,
}

/// A field's value as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    Text(String),
    Bool(bool),
    Null,
    /// A number, an array or an object.
    Other,
}

/// The fields of a body: a JSON object's members, or a form's pairs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(Vec<(String, Field)>);

impl Fields {
    /// A form's `name=value` pairs (`application/x-www-form-urlencoded`).
    pub fn from_form(bytes: &[u8]) -> Self {
        Self(
            form_urlencoded::parse(bytes)
                .map(|(k, v)| (k.into_owned(), Field::Text(v.into_owned())))
                .collect(),
        )
    }

    /// A JSON object's members; `None` for anything but an object.
    fn from_json(text: &str) -> Option<Self> {
        let value = JSON::parse(text).ok()?;
        if !value.is_object() || Array::is_array(&value) {
            return None;
        }
        let members = js_sys::Object::entries(&value.into())
            .iter()
            .map(|pair| {
                let pair = Array::from(&pair);
                let value = pair.get(1);
                let field = match (value.as_string(), value.as_bool()) {
                    (Some(text), _) => Field::Text(text),
                    (None, Some(flag)) => Field::Bool(flag),
                    _ if value.is_null() => Field::Null,
                    _ => Field::Other,
                };
                (pair.get(0).as_string().unwrap_or_default(), field)
            })
            .collect();
        Some(Self(members))
    }

    /// The field `key`: the last one sent under that name.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Adds `key` unless it was sent.
    pub fn add_missing(&mut self, key: &str, value: String) {
        if self.get(key).is_none() {
            self.0.push((key.to_string(), Field::Text(value)));
        }
    }

    /// A text field, or empty when absent or not text.
    pub fn text_or_empty(&self, key: &str) -> String {
        self.text(key).ok().flatten().unwrap_or_default()
    }

    /// A text field: absent and `null` are `None`; any other non-text value
    /// is an error.
    pub fn text(&self, key: &str) -> Result<Option<String>, ()> {
        match self.get(key) {
            None | Some(Field::Null) => Ok(None),
            Some(Field::Text(s)) => Ok(Some(s.clone())),
            Some(Field::Bool(_) | Field::Other) => Err(()),
        }
    }
}

impl FromIterator<(String, Field)> for Fields {
    fn from_iter<I: IntoIterator<Item = (String, Field)>>(pairs: I) -> Self {
        Self(pairs.into_iter().collect())
    }
}

/// Reads a JSON object, or an `application/x-www-form-urlencoded` form; at
/// most [`MAX_BODY_BYTES`] either way.
pub async fn read_json_or_form(req: &Request) -> ApiResult<(Fields, BodyKind)> {
    let is_form = req.header("Content-Type").is_some_and(|t| {
        t.to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded")
    });
    if !is_form {
        return Ok((read_json_object(req).await?, BodyKind::Json));
    }
    let bytes = read_body(req).await?;
    Ok((Fields::from_form(&bytes), BodyKind::Form))
}

/// Reads a JSON object's fields, at most [`MAX_BODY_BYTES`].
pub async fn read_json_object(req: &Request) -> ApiResult<Fields> {
    let bytes = read_body(req).await?;
    String::from_utf8(bytes)
        .ok()
        .and_then(|text| Fields::from_json(&text))
        .ok_or_else(|| ApiError::BadRequest(messages::INVALID_JSON.into()))
}

async fn read_body(req: &Request) -> ApiResult<Vec<u8>> {
    let declared = req
        .header("Content-Length")
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|len| len > MAX_BODY_BYTES as u64) {
        return Err(ApiError::PayloadTooLarge);
    }
    req.body_up_to(MAX_BODY_BYTES)
        .await?
        .ok_or(ApiError::PayloadTooLarge)
}

/// The visitor's address as Cloudflare reports it.
pub fn client_ip(req: &Request) -> String {
    req.header("CF-Connecting-IP")
        .unwrap_or_else(|| "unknown".into())
}

/// What per-address limits count for this request: the address, or its /64
/// for IPv6 ([`crate::rate_limit::network_of`]).
pub fn client_network(req: &Request) -> String {
    crate::rate_limit::network_of(&client_ip(req))
}

/// A 422 naming the one field to fix.
pub fn invalid_field(message: &str, field: &'static str) -> ApiError {
    ApiError::Unprocessable {
        message: message.to_string(),
        fields: vec![(field, message.to_string())],
    }
}

/// Browsers send `Origin` with every state-changing request; one that names
/// another site is refused.
pub fn check_same_origin(req: &Request) -> ApiResult<()> {
    let origin = req.header("Origin");
    let own = RequestUrl::of(req)?.origin();
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

/// An absolute URL cut into its parts by hand, for the forms the runtime, a
/// browser and our settings write: `scheme://[user@]host[:port][path][?query][#fragment]`.
/// The `url` crate would do it too, but brings its Unicode (IDNA) tables, a
/// fifth of the worker's WASM, to redo what the runtime or the browser did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// As written: compare it ignoring ASCII case.
    pub scheme: &'a str,
    /// `scheme://`, the user info and the host and port, as written.
    pub head: &'a str,
    /// As written, without user info and port; an IPv6 address keeps its brackets.
    pub host: &'a str,
    /// The path, query and fragment.
    pub rest: &'a str,
}

impl<'a> UrlParts<'a> {
    /// `None` unless `url` is absolute with a valid scheme, a host part and,
    /// if it has one, a port of at most 65535.
    pub fn split(url: &'a str) -> Option<Self> {
        let (scheme, after) = url.split_once("://")?;
        let mut chars = scheme.chars();
        if !chars.next()?.is_ascii_alphabetic()
            || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        {
            return None;
        }
        let end = after.find(['/', '?', '#']).unwrap_or(after.len());
        let (authority, rest) = after.split_at(end);
        let host_and_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let port_from = match host_and_port.strip_prefix('[') {
            Some(v6) => v6.find(']')? + 2,
            None => host_and_port.find(':').unwrap_or(host_and_port.len()),
        };
        let (host, port) = host_and_port.split_at(port_from);
        let port_ok = match port.strip_prefix(':') {
            None => port.is_empty(),
            Some("") => true,
            Some(digits) => {
                digits.bytes().all(|b| b.is_ascii_digit())
                    && digits.trim_start_matches('0').len() <= 5
                    && digits.parse::<u32>().is_ok_and(|p| p <= 65_535)
            }
        };
        port_ok.then_some(Self {
            scheme,
            head: &url[..url.len() - rest.len()],
            host,
            rest,
        })
    }

    pub fn is_http(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("http") || self.scheme.eq_ignore_ascii_case("https")
    }

    /// The host as the URL standard reads it, in lower case; `None` where
    /// that takes more than ASCII rules (a host written in Unicode or with
    /// `%` escapes, an IPv4 address in a short or hexadecimal form), which
    /// browsers never send: they send what they serialised.
    pub fn host_name(&self) -> Option<String> {
        let special = ["http", "https", "ws", "wss", "ftp"]
            .iter()
            .any(|s| self.scheme.eq_ignore_ascii_case(s));
        let host = self.host;
        if let Some(v6) = host.strip_prefix('[') {
            let address: std::net::Ipv6Addr = v6.strip_suffix(']')?.parse().ok()?;
            return (address.to_ipv4_mapped().is_none()).then(|| format!("[{address}]"));
        }
        let forbidden = |c: char| {
            !c.is_ascii_graphic()
                || matches!(
                    c,
                    '#' | '/' | ':' | '<' | '>' | '?' | '@' | '[' | '\\' | ']' | '^' | '|'
                )
                || (special && c == '%')
        };
        if host.chars().any(forbidden) || (special && host.is_empty()) {
            return None;
        }
        let host = host.to_ascii_lowercase();
        if special && ends_in_a_number(&host) && !is_dotted_quad(&host) {
            return None;
        }
        Some(host)
    }
}

/// The URL standard reads a host whose last label is a number as an IPv4 address.
fn ends_in_a_number(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or_default();
    !last.is_empty()
        && (last.bytes().all(|b| b.is_ascii_digit())
            || last
                .strip_prefix("0x")
                .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit())))
}

/// An IPv4 address in the one form the URL standard keeps as it is.
fn is_dotted_quad(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// The request's URL as the runtime parsed and serialised it: scheme and
/// host in lower-case ASCII, the default port left out, path and query
/// percent-encoded. Its parts are read from that string, not parsed again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestUrl {
    scheme: String,
    /// `scheme://[user@]host[:port]`.
    head: String,
    /// `host[:port]`.
    authority: String,
    host: String,
    query: String,
}

impl RequestUrl {
    pub fn of(req: &Request) -> Result<Self, HostError> {
        Self::from_serialized(req.url())
    }

    /// From a URL a WHATWG URL parser serialised.
    pub fn from_serialized(url: &str) -> Result<Self, HostError> {
        let parts = UrlParts::split(url)
            .ok_or_else(|| HostError::new(format!("not an absolute URL: {url}")))?;
        let authority = &parts.head[parts.head.rfind('@').unwrap_or(parts.scheme.len() + 2) + 1..];
        let query = parts.rest.split_once('?').map_or("", |(_, q)| q);
        Ok(Self {
            scheme: parts.scheme.to_string(),
            head: parts.head.to_string(),
            authority: authority.to_string(),
            host: parts.host.to_string(),
            query: query.split_once('#').map_or(query, |(q, _)| q).to_string(),
        })
    }

    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// Without the port; an IPv6 address keeps its brackets.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// `scheme://host[:port]`, as browsers send it in `Origin`.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The query as sent, without its `?`.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// The query's `name=value` pairs, decoded (`+` is a space).
    pub fn query_pairs(&self) -> form_urlencoded::Parse<'_> {
        form_urlencoded::parse(self.query.as_bytes())
    }

    /// This URL with `path` (which starts with `/`) for its path and no query.
    pub fn with_path(&self, path: &str) -> String {
        format!("{}{path}", self.head)
    }
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

    use proptest::prelude::*;
    use worker::Url;

    fn host_name(url: &str) -> Option<String> {
        UrlParts::split(url)?.host_name()
    }

    /// What the `url` crate reads as the host, in lower case.
    fn url_crate_host(url: &str) -> Option<String> {
        Some(Url::parse(url).ok()?.host_str()?.to_ascii_lowercase())
    }

    #[test]
    fn the_request_url_gives_scheme_host_origin_and_query_as_the_url_crate_did() {
        for serialized in [
            "http://127.0.0.1:8787/functions/v1/send-lead-jetimob",
            "https://recantodasvideiras.com.br/api/leads?status=pendentes&q=Jo%C3%A3o+Silva&page=3",
            "http://localhost:8787/?a=1&a=2&b&=c&d=%26%3D#frag",
            "http://[::1]:8787/api/audit?before=42",
            "https://xn--caf-dma.example/obrigado",
            "https://user:pw@example.com:8443/x?y=z",
        ] {
            let ours = RequestUrl::from_serialized(serialized).unwrap();
            let url = Url::parse(serialized).unwrap();
            assert_eq!(ours.scheme(), url.scheme(), "{serialized}");
            assert_eq!(ours.host(), url.host_str().unwrap(), "{serialized}");
            assert_eq!(ours.origin(), url.origin().ascii_serialization());
            assert_eq!(
                ours.query_pairs().collect::<Vec<_>>(),
                url.query_pairs().collect::<Vec<_>>(),
                "{serialized}"
            );
            assert_eq!(
                ours.with_path("/obrigado"),
                url.join("/obrigado").unwrap().as_str()
            );
        }
        assert!(RequestUrl::from_serialized("/relative").is_err());
    }

    #[test]
    fn referrers_as_browsers_send_them_give_the_host_the_url_crate_gave() {
        for (referrer, host) in [
            (
                "https://www.Google.com.br/search?q=x",
                Some("www.google.com.br"),
            ),
            (
                "https://l.instagram.com/?u=https%3A%2F%2Fx",
                Some("l.instagram.com"),
            ),
            (
                "android-app://com.google.android.gm/",
                Some("com.google.android.gm"),
            ),
            ("http://203.0.113.7:8080/x", Some("203.0.113.7")),
            ("https://[2001:db8::1]/", Some("[2001:db8::1]")),
            ("https://user:pw@Example.com./a", Some("example.com.")),
            ("https://xn--caf-dma.example/", Some("xn--caf-dma.example")),
            ("not a url", None),
            ("mailto:ana@example.com", None),
            ("https://example.com:99999/", None),
            ("https://exa mple.com/", None),
        ] {
            assert_eq!(host_name(referrer).as_deref(), host, "{referrer}");
            assert_eq!(url_crate_host(referrer).as_deref(), host, "{referrer}");
        }
    }

    #[test]
    fn hosts_that_need_unicode_or_escapes_to_be_read_are_not_read() {
        // The url crate turns these into xn--caf-dma.example, example.com and
        // 127.0.0.1; a browser would have sent those forms already.
        for referrer in [
            "https://café.example/",
            "https://exa%6Dple.com/",
            "http://127.1/",
            "http://0x7f.0.0.1/",
        ] {
            assert!(url_crate_host(referrer).is_some(), "{referrer}");
            assert_eq!(host_name(referrer), None, "{referrer}");
        }
    }

    fn label() -> impl Strategy<Value = String> {
        "[a-zA-Z][a-zA-Z0-9_-]{0,9}".prop_filter("not punycode", |l| {
            !l.to_ascii_lowercase().starts_with("xn--")
        })
    }

    fn plain_url() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec!["http", "https", "HTTPS", "Http", "android-app", "ws"]),
            prop::option::of("[a-z0-9]{1,6}(:[a-z0-9]{0,6})?@"),
            prop::collection::vec(label(), 1..4),
            prop::option::of(0u32..70_000),
            prop::sample::select(vec!["", "/", "/a/b.html", "?q=1", "#top", "/x?y=%20#z"]),
        )
            .prop_map(|(scheme, user, labels, port, rest)| {
                let port = port.map(|p| format!(":{p}")).unwrap_or_default();
                format!(
                    "{scheme}://{}{}{port}{rest}",
                    user.unwrap_or_default(),
                    labels.join(".")
                )
            })
    }

    fn serialized_request_url() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec!["http", "https"]),
            prop_oneof![
                prop::collection::vec(label(), 1..4).prop_map(|l| l.join(".")),
                Just("127.0.0.1".to_string()),
                Just("[::1]".to_string()),
            ],
            prop::option::of(1u32..65_536),
            prop::collection::vec("[a-zA-Z0-9 é%/?._~-]{0,8}", 0..3),
            prop::option::of("[a-zA-Z0-9 é&=+%#?/._~-]{0,30}"),
        )
            .prop_map(|(scheme, host, port, segments, query)| {
                let port = port.map(|p| format!(":{p}")).unwrap_or_default();
                let mut url = Url::parse(&format!("{scheme}://{host}{port}/")).unwrap();
                url.path_segments_mut().unwrap().extend(segments);
                url.set_query(query.as_deref());
                url.to_string()
            })
    }

    proptest! {
        #[test]
        fn a_plain_url_has_the_host_the_url_crate_reads(url in plain_url()) {
            prop_assert_eq!(host_name(&url), url_crate_host(&url));
        }

        #[test]
        fn a_serialized_request_url_reads_as_the_url_crate_reads_it(serialized in serialized_request_url()) {
            let ours = RequestUrl::from_serialized(&serialized).unwrap();
            let url = Url::parse(&serialized).unwrap();
            prop_assert_eq!(ours.scheme(), url.scheme());
            prop_assert_eq!(ours.host(), url.host_str().unwrap());
            prop_assert_eq!(ours.origin(), url.origin().ascii_serialization());
            prop_assert_eq!(
                ours.query_pairs().collect::<Vec<_>>(),
                url.query_pairs().collect::<Vec<_>>()
            );
            prop_assert_eq!(ours.with_path("/obrigado"), url.join("/obrigado").unwrap().to_string());
        }
    }

    #[test]
    fn text_fields_accept_strings_and_absence_only() {
        let fields: Fields = [
            ("a", Field::Text("x".into())),
            ("b", Field::Null),
            ("c", Field::Other),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(fields.text("a"), Ok(Some("x".into())));
        assert_eq!(fields.text("b"), Ok(None));
        assert_eq!(fields.text("missing"), Ok(None));
        assert_eq!(fields.text("c"), Err(()));
    }

    #[test]
    fn a_form_field_sent_twice_counts_as_its_last_value() {
        let mut fields = Fields::from_form(b"name=Ana&email=a%40b.com&name=Ana+Maria");
        assert_eq!(fields.text("name"), Ok(Some("Ana Maria".into())));
        assert_eq!(fields.text("email"), Ok(Some("a@b.com".into())));
        fields.add_missing("email", "other@b.com".into());
        fields.add_missing("page_url", "https://x/".into());
        assert_eq!(fields.text("email"), Ok(Some("a@b.com".into())));
        assert_eq!(fields.text("page_url"), Ok(Some("https://x/".into())));
    }

    #[test]
    fn an_api_error_reads_as_the_json_the_pages_expect() {
        let body = invalid_field("Campo obrigatório.", "name").body();
        let back: serde_json::Value = serde_json::from_str(body.as_str()).unwrap();
        assert_eq!(
            back,
            serde_json::json!({
                "success": false,
                "error": "Campo obrigatório.",
                "fields": { "name": "Campo obrigatório." }
            })
        );
        let plain: serde_json::Value =
            serde_json::from_str(ApiError::PayloadTooLarge.body().as_str()).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({ "success": false, "error": messages::BODY_TOO_LARGE })
        );
    }
}
