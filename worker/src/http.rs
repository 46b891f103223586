//! What every API handler shares: the error type and its JSON answer, reading
//! a bounded JSON body, the caller's address and the same-origin rule.

use std::collections::BTreeMap;

use futures_util::StreamExt;
use serde::Serialize;
use serde_json::{Map, Value};
use worker::{Headers, Request, Response};

use crate::messages;

/// Largest request body any endpoint reads.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

pub type ApiResult<T> = Result<T, ApiError>;

/// Field name → message shown beside that field.
pub type FieldErrors = BTreeMap<&'static str, String>;

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

    pub fn into_response(self) -> worker::Result<Response> {
        if let ApiError::Internal(detail) = &self {
            worker::console_error!("internal error: {detail}");
        }
        #[derive(Serialize)]
        struct Body<'a> {
            success: bool,
            error: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            fields: Option<&'a FieldErrors>,
        }
        let fields = match &self {
            ApiError::Unprocessable { fields, .. } if !fields.is_empty() => Some(fields),
            _ => None,
        };
        let body = Body {
            success: false,
            error: self.message(),
            fields,
        };
        let response = json_response(&body, self.status())?;
        match self {
            ApiError::MethodNotAllowed(allow) => {
                response.headers().set("Allow", allow)?;
                Ok(response)
            }
            ApiError::TooManyRequests(_) => {
                response.headers().set("Retry-After", "60")?;
                Ok(response)
            }
            ApiError::Unauthorized(_) => {
                response.headers().set("WWW-Authenticate", "Bearer")?;
                Ok(response)
            }
            _ => Ok(response),
        }
    }
}

impl From<worker::Error> for ApiError {
    fn from(error: worker::Error) -> Self {
        ApiError::Internal(error.to_string())
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(error: serde_json::Error) -> Self {
        ApiError::Internal(error.to_string())
    }
}

/// A JSON answer that no cache keeps.
pub fn json_response<T: Serialize>(body: &T, status: u16) -> worker::Result<Response> {
    let headers = Headers::new();
    headers.set("Content-Type", "application/json; charset=utf-8")?;
    Ok(Response::from_bytes(serde_json::to_vec(body)?)?
        .with_status(status)
        .with_headers(headers))
}

/// `{"success": true}` and whatever else the endpoint adds.
pub fn success<T: Serialize>(extra: T) -> ApiResult<Response> {
    let mut body = serde_json::to_value(extra)?;
    match &mut body {
        Value::Object(map) => {
            map.insert("success".into(), Value::Bool(true));
        }
        _ => body = serde_json::json!({ "success": true }),
    }
    Ok(json_response(&body, 200)?)
}

/// Reads the body as a JSON object, refusing more than [`MAX_BODY_BYTES`].
/// How a body arrived: JSON from our script, or a plain HTML form post from a
/// browser that had not run the script yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Json,
    Form,
}

/// Reads a JSON object, or an `application/x-www-form-urlencoded` form as an
/// object of strings; at most [`MAX_BODY_BYTES`] either way.
pub async fn read_json_or_form(req: &mut Request) -> ApiResult<(Map<String, Value>, BodyKind)> {
    let is_form = req.headers().get("Content-Type")?.is_some_and(|t| {
        t.to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded")
    });
    if !is_form {
        return Ok((read_json_object(req).await?, BodyKind::Json));
    }
    let bytes = read_body(req, MAX_BODY_BYTES).await?;
    let map = url::form_urlencoded::parse(&bytes)
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect();
    Ok((map, BodyKind::Form))
}

pub async fn read_json_object(req: &mut Request) -> ApiResult<Map<String, Value>> {
    let bytes = read_body(req, MAX_BODY_BYTES).await?;
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ApiError::BadRequest(messages::INVALID_JSON.into())),
    }
}

async fn read_body(req: &mut Request, limit: usize) -> ApiResult<Vec<u8>> {
    let declared = req
        .headers()
        .get("Content-Length")?
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(ApiError::PayloadTooLarge);
    }
    let mut body = Vec::new();
    let Ok(mut stream) = req.stream() else {
        return Ok(body);
    };
    while let Some(chunk) = stream.next().await {
        body.extend_from_slice(&chunk?);
        if body.len() > limit {
            return Err(ApiError::PayloadTooLarge);
        }
    }
    Ok(body)
}

/// A string field of a JSON object: absent and `null` are `None`; any other
/// non-string value is an error.
pub fn text_field(map: &Map<String, Value>, key: &str) -> Result<Option<String>, ()> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(()),
    }
}

/// The visitor's address as Cloudflare reports it.
pub fn client_ip(req: &Request) -> String {
    req.headers()
        .get("CF-Connecting-IP")
        .ok()
        .flatten()
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
        fields: [(field, message.to_string())].into_iter().collect(),
    }
}

/// The first row of the `index`-th result of a batch.
pub fn first_row<T: serde::de::DeserializeOwned>(
    results: &[worker::D1Result],
    index: usize,
) -> ApiResult<Option<T>> {
    Ok(results
        .get(index)
        .map(|r| r.results::<T>())
        .transpose()?
        .and_then(|rows| rows.into_iter().next()))
}

/// Browsers send `Origin` with every state-changing request; one that names
/// another site is refused.
pub fn check_same_origin(req: &Request) -> ApiResult<()> {
    let origin = req.headers().get("Origin")?;
    let own = req.url()?.origin().ascii_serialization();
    match origin {
        Some(origin) if is_same_origin(&origin, &own) => Ok(()),
        Some(_) => Err(ApiError::Forbidden(messages::CROSS_ORIGIN.into())),
        None => Ok(()),
    }
}

/// Like [`check_same_origin`], but a request without `Origin` is refused too:
/// for staff endpoints, which only our own pages call.
pub fn require_same_origin(req: &Request) -> ApiResult<()> {
    if req.headers().get("Origin")?.is_none() {
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

    #[test]
    fn text_fields_accept_strings_and_absence_only() {
        let map: Map<String, Value> =
            serde_json::from_str(r#"{"a":"x","b":null,"c":3,"d":["x"]}"#).unwrap();
        assert_eq!(text_field(&map, "a"), Ok(Some("x".into())));
        assert_eq!(text_field(&map, "b"), Ok(None));
        assert_eq!(text_field(&map, "missing"), Ok(None));
        assert_eq!(text_field(&map, "c"), Err(()));
        assert_eq!(text_field(&map, "d"), Err(()));
    }
}
