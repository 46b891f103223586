//! The runtime's requests, responses and headers as the worker uses them,
//! its bindings (the static assets, the settings) and `fetch`.
//!
//! The runtime's objects are called directly, through bindings that cannot
//! fail for what the worker passes them (header names it writes, statuses it
//! picks): the worker crate's wrappers answer every call with a `Result` of
//! its own large error type, and handing that up the stack was a tenth of
//! the worker's WASM.

use js_sys::{Object, Promise, Reflect, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::platform::{HostError, HostResult};

#[wasm_bindgen]
extern "C" {
    /// A request's or a response's headers.
    pub type Headers;

    #[wasm_bindgen(constructor)]
    fn new_js() -> Headers;

    #[wasm_bindgen(method, js_name = get)]
    fn get_js(this: &Headers, name: &str) -> Option<String>;

    #[wasm_bindgen(method, js_name = set)]
    fn set_js(this: &Headers, name: &str, value: &str);

    #[wasm_bindgen(method, js_name = append)]
    fn append_js(this: &Headers, name: &str, value: &str);

    #[wasm_bindgen(method, catch, js_name = set)]
    fn try_set_js(this: &Headers, name: &str, value: &str) -> Result<(), JsValue>;

    #[wasm_bindgen(method, js_name = has)]
    fn has_js(this: &Headers, name: &str) -> bool;

    #[wasm_bindgen(method, js_name = forEach)]
    fn for_each_js(this: &Headers, each: &mut dyn FnMut(String, String));

    /// A response: built here, or the answer of the assets or of `fetch`.
    pub type Response;

    #[wasm_bindgen(constructor)]
    fn new_js(body: &JsValue, init: &Object) -> Response;

    #[wasm_bindgen(method, getter)]
    pub fn status(this: &Response) -> u16;

    #[wasm_bindgen(method, getter)]
    pub fn headers(this: &Response) -> Headers;

    #[wasm_bindgen(method, getter, js_name = body)]
    fn body_js(this: &Response) -> JsValue;

    /// A binding that answers requests (the static assets).
    type Fetcher;

    #[wasm_bindgen(method, js_name = fetch)]
    fn fetch_js(this: &Fetcher, request: &web_sys::Request) -> Promise;

    #[wasm_bindgen(js_name = fetch)]
    fn global_fetch(request: &web_sys::Request, init: &Object) -> Promise;

    /// A body: a stream of bytes.
    type Body;

    #[wasm_bindgen(method, js_name = getReader)]
    fn get_reader(this: &Body) -> Reader;

    /// A body's reader.
    type Reader;

    #[wasm_bindgen(method)]
    fn read(this: &Reader) -> Promise;

    #[wasm_bindgen(method)]
    fn cancel(this: &Reader) -> Promise;
}

impl Headers {
    pub fn new() -> Self {
        Self::new_js()
    }

    /// The header `name`, if it was sent.
    pub fn get(&self, name: &str) -> Option<String> {
        self.get_js(name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.has_js(name)
    }

    pub fn set(&self, name: &str, value: &str) {
        self.set_js(name, value)
    }

    pub fn append(&self, name: &str, value: &str) {
        self.append_js(name, value)
    }

    /// Sets `name` to a value the worker did not write (a setting, a
    /// secret): `false` if the runtime refuses it (a line break inside), where
    /// [`Headers::set`] would throw.
    pub fn try_set(&self, name: &str, value: &str) -> bool {
        self.try_set_js(name, value).is_ok()
    }

    /// Every header, as name and value.
    pub fn entries(&self) -> Vec<(String, String)> {
        let mut all = Vec::new();
        self.for_each_js(&mut |value, name| all.push((name, value)));
        all
    }
}

impl Default for Headers {
    fn default() -> Self {
        Self::new()
    }
}

/// A request's method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    Post,
    Put,
    Patch,
    Delete,
    Options,
    Other,
}

impl Method {
    fn parse(name: &str) -> Self {
        match name {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "POST" => Method::Post,
            "PUT" => Method::Put,
            "PATCH" => Method::Patch,
            "DELETE" => Method::Delete,
            "OPTIONS" => Method::Options,
            _ => Method::Other,
        }
    }
}

/// A request to the worker.
pub struct Request {
    inner: web_sys::Request,
    url: String,
}

impl Request {
    pub fn new(inner: web_sys::Request) -> Self {
        let url = inner.url();
        Self { inner, url }
    }

    pub fn inner(&self) -> &web_sys::Request {
        &self.inner
    }

    /// The URL as the runtime serialised it.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL's path, as sent (percent-encoded).
    pub fn path(&self) -> &str {
        path_of(&self.url)
    }

    pub fn method(&self) -> Method {
        Method::parse(&self.inner.method())
    }

    pub fn headers(&self) -> Headers {
        self.inner.headers().unchecked_into()
    }

    /// The header `name`, if it was sent.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers().get(name)
    }

    /// The body, if it holds at most `limit` bytes; `None` if it holds more
    /// (reading stops there).
    pub async fn body_up_to(&self, limit: usize) -> HostResult<Option<Vec<u8>>> {
        let (bytes, whole) = read_up_to(self.request_body(), limit).await?;
        Ok(whole.then_some(bytes))
    }

    fn request_body(&self) -> JsValue {
        self.inner.body().map_or(JsValue::NULL, JsValue::from)
    }
}

/// The path of a URL the runtime serialised: what follows its host, up to
/// the query or fragment; `/` when there is none.
pub fn path_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let Some(start) = rest.find(['/', '?', '#']) else {
        return "/";
    };
    let rest = &rest[start..];
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    if end == 0 { "/" } else { &rest[..end] }
}

/// Reads up to `limit` bytes of a body (a stream, or null for none): the
/// bytes, and whether they are the whole body. Past `limit` it stops reading
/// and lets the rest go.
pub async fn read_up_to(body: JsValue, limit: usize) -> HostResult<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    if body.is_null() || body.is_undefined() {
        return Ok((bytes, true));
    }
    let reader = body.unchecked_into::<Body>().get_reader();
    loop {
        let chunk = JsFuture::from(reader.read()).await?;
        if Reflect::get(&chunk, &JsValue::from_str("done"))?.is_truthy() {
            return Ok((bytes, true));
        }
        let chunk = Uint8Array::new(&Reflect::get(&chunk, &JsValue::from_str("value"))?);
        let start = bytes.len();
        bytes.resize(start + chunk.length() as usize, 0);
        chunk.copy_to(&mut bytes[start..]);
        if bytes.len() > limit {
            bytes.truncate(limit);
            // What is left is of no use; nobody waits for the stream to end.
            let _ = reader.cancel();
            return Ok((bytes, false));
        }
    }
}

impl Response {
    /// A response with `status`, `headers` and `body` (a string, a stream,
    /// or null for none).
    pub fn new(status: u16, headers: &Headers, body: &JsValue) -> Self {
        let init = Object::new();
        let _ = Reflect::set(&init, &JsValue::from_str("status"), &JsValue::from(status));
        let _ = Reflect::set(&init, &JsValue::from_str("headers"), headers);
        Self::new_js(body, &init)
    }

    /// A response without a body.
    pub fn empty(status: u16) -> Self {
        Self::new(status, &Headers::new(), &JsValue::NULL)
    }

    /// `text` with its content type.
    pub fn text(status: u16, content_type: &str, text: &str) -> Self {
        let headers = Headers::new();
        headers.set("Content-Type", content_type);
        Self::new(status, &headers, &JsValue::from_str(text))
    }

    /// A redirect to `location` (`303 See Other` after a form post).
    pub fn redirect(status: u16, location: &str) -> Self {
        let headers = Headers::new();
        headers.set("Location", location);
        Self::new(status, &headers, &JsValue::NULL)
    }

    /// This response's status and body with `headers`: the assets' answers
    /// keep theirs read-only.
    pub fn with_headers(&self, headers: &Headers) -> Self {
        Self::new(self.status(), headers, &self.body_js())
    }

    /// Up to `limit` bytes of the body as text (invalid UTF-8 replaced).
    pub async fn text_up_to(&self, limit: usize) -> HostResult<String> {
        let (bytes, _) = read_up_to(self.body_js(), limit).await?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub fn into_raw(self) -> web_sys::Response {
        self.unchecked_into()
    }

    /// A response the `worker` crate built.
    pub fn from_worker(response: worker::Response) -> Self {
        web_sys::Response::from(response).unchecked_into()
    }
}

/// A body streamed from `chunks`: each is read as the reader asks for the
/// next, and an error ends the stream (the download fails).
pub fn stream_body(
    chunks: impl futures_util::Stream<Item = Result<Vec<u8>, String>> + 'static,
) -> JsValue {
    use futures_util::StreamExt;
    let chunks = chunks.map(|chunk| match chunk {
        Ok(bytes) => Ok(JsValue::from(Uint8Array::from(&bytes[..]))),
        Err(why) => Err(JsValue::from_str(&why)),
    });
    wasm_streams::ReadableStream::from_stream(chunks)
        .into_raw()
        .into()
}

/// A plain setting or secret of `env`, as text (`None` if unset). `[vars]`
/// may hold TOML numbers and booleans (`STAFF_SIGNUPS_PER_DAY = 40`,
/// `MAIL_LOG_ONLY = true`): they read as written.
pub fn env_text(env: &worker::Env, name: &str) -> Option<String> {
    let value = Reflect::get(env, &JsValue::from_str(name)).ok()?;
    if let Some(text) = value.as_string() {
        return Some(text);
    }
    if value.as_f64().is_some() || value.as_bool().is_some() {
        return js_sys::JSON::stringify(&value).ok().map(String::from);
    }
    None
}

/// The binding `name` of `env`, if it is an object.
pub fn binding(env: &worker::Env, name: &str) -> Option<JsValue> {
    Reflect::get(env, &JsValue::from_str(name))
        .ok()
        .filter(JsValue::is_object)
}

/// The static file at `path` (which starts with `/`), from the assets.
pub async fn asset(env: &worker::Env, path: &str) -> HostResult<Response> {
    let request = web_sys::Request::new_with_str(&format!("https://assets.invalid{path}"))?;
    fetch_asset(env, &request).await
}

/// What the assets answer `request`.
pub async fn fetch_asset(env: &worker::Env, request: &web_sys::Request) -> HostResult<Response> {
    let assets: Fetcher = binding(env, "ASSETS")
        .ok_or_else(|| HostError::new("the ASSETS binding is not configured"))?
        .unchecked_into();
    Ok(JsFuture::from(assets.fetch_js(request))
        .await?
        .unchecked_into())
}

/// `fetch(request)` to a service outside, with `signal` to abort it.
pub async fn fetch(
    request: &web_sys::Request,
    signal: &web_sys::AbortSignal,
) -> HostResult<Response> {
    let init = Object::new();
    let _ = Reflect::set(&init, &JsValue::from_str("signal"), signal);
    Ok(JsFuture::from(global_fetch(request, &init))
        .await?
        .unchecked_into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_what_follows_the_host_up_to_the_query() {
        assert_eq!(
            path_of("http://127.0.0.1:8787/api/leads?page=2"),
            "/api/leads"
        );
        assert_eq!(path_of("https://example.com"), "/");
        assert_eq!(path_of("https://example.com?x=1"), "/");
        assert_eq!(path_of("https://example.com/#top"), "/");
        assert_eq!(path_of("https://example.com/a%20b/c#d"), "/a%20b/c");
        assert_eq!(
            path_of("http://[::1]:8787/functions/v1/send-lead-jetimob"),
            "/functions/v1/send-lead-jetimob"
        );
    }
}
