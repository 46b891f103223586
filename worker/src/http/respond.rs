//! The answers the worker builds, with the `worker` crate's `Response`.

use serde::Serialize;
use worker::{Headers, Request, Response};

use super::ApiResult;

/// A header of a request or a response, if it was sent (`Headers::get`
/// answers a `Result` only for a name that is not a header name).
pub trait HeaderText {
    fn header(&self, name: &str) -> Option<String>;
}

impl HeaderText for Request {
    fn header(&self, name: &str) -> Option<String> {
        self.headers().get(name).ok().flatten()
    }
}

impl HeaderText for Response {
    fn header(&self, name: &str) -> Option<String> {
        self.headers().get(name).ok().flatten()
    }
}

/// `body` as the answer, with `status` and its content type.
pub fn text(status: u16, content_type: &str, body: impl Into<String>) -> Response {
    let headers = Headers::new();
    let _ = headers.set("Content-Type", content_type);
    Response::builder()
        .with_status(status)
        .with_headers(headers)
        .fixed(body.into().into_bytes())
}

/// A JSON answer already written.
pub(super) fn json_text(status: u16, body: String) -> Response {
    text(status, "application/json; charset=utf-8", body)
}

/// `body` as JSON.
pub fn json<T: Serialize + ?Sized>(status: u16, body: &T) -> ApiResult<Response> {
    Ok(json_text(status, serde_json::to_string(body)?))
}

/// The body of a success: `"success": true` before the endpoint's members.
#[derive(Serialize)]
struct Success<'a, T: Serialize + ?Sized> {
    success: bool,
    #[serde(flatten)]
    members: &'a T,
}

/// `{"success": true}` and the members of `members` (a struct or a map).
pub fn success<T: Serialize + ?Sized>(members: &T) -> ApiResult<Response> {
    json(
        200,
        &Success {
            success: true,
            members,
        },
    )
}

/// `{"success": true}` alone.
pub fn success_only() -> ApiResult<Response> {
    Ok(json_text(200, r#"{"success":true}"#.to_string()))
}

/// An answer without a body.
pub fn empty(status: u16) -> Response {
    Response::builder().with_status(status).empty()
}

/// A redirect to `location` (`303 See Other` after a form post); a relative
/// location is kept as it is, which `Response::redirect` (a `Url`) cannot.
pub fn redirect(status: u16, location: &str) -> Response {
    let headers = Headers::new();
    let _ = headers.set("Location", location);
    Response::builder()
        .with_status(status)
        .with_headers(headers)
        .empty()
}
