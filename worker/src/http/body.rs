//! Reading a request's body: at most [`MAX_BODY_BYTES`], as a JSON object's
//! members or a form's pairs.

use futures_util::StreamExt;
use serde_json::Value;
use worker::Request;

use super::{ApiError, ApiResult, HeaderText};
use crate::agency::messages;

/// Largest request body any endpoint reads.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

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
    /// A whole number.
    Integer(i64),
    Null,
    /// Another number, an array or an object.
    Other,
}

impl From<Value> for Field {
    fn from(value: Value) -> Self {
        match value {
            Value::String(text) => Field::Text(text),
            Value::Bool(flag) => Field::Bool(flag),
            Value::Null => Field::Null,
            Value::Number(n) => n.as_i64().map_or(Field::Other, Field::Integer),
            Value::Array(_) | Value::Object(_) => Field::Other,
        }
    }
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
    pub fn from_json(bytes: &[u8]) -> Option<Self> {
        match serde_json::from_slice::<Value>(bytes).ok()? {
            Value::Object(members) => {
                Some(members.into_iter().map(|(k, v)| (k, v.into())).collect())
            }
            _ => None,
        }
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
            Some(Field::Bool(_) | Field::Integer(_) | Field::Other) => Err(()),
        }
    }
}

impl FromIterator<(String, Field)> for Fields {
    fn from_iter<I: IntoIterator<Item = (String, Field)>>(pairs: I) -> Self {
        Self(pairs.into_iter().collect())
    }
}

/// The media type a request says its body is, in lower case without its
/// parameters (`application/json; charset=utf-8` is `application/json`).
fn media_type(req: &Request) -> Option<String> {
    let declared = req.header("Content-Type")?;
    let essence = declared.split(';').next().unwrap_or_default();
    Some(essence.trim().to_ascii_lowercase())
}

/// Reads a JSON object, or an `application/x-www-form-urlencoded` form; at
/// most [`MAX_BODY_BYTES`] either way.
pub async fn read_json_or_form(req: &mut Request) -> ApiResult<(Fields, BodyKind)> {
    if media_type(req).as_deref() == Some(FORM) {
        let bytes = read_body(req).await?;
        return Ok((Fields::from_form(&bytes), BodyKind::Form));
    }
    Ok((read_json_object(req).await?, BodyKind::Json))
}

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";

/// Reads a JSON object's fields, at most [`MAX_BODY_BYTES`]. The body must be
/// sent as `application/json`: a page of another site can post `text/plain`
/// (or a form) without the browser asking us first, never JSON, so a JSON
/// endpoint that takes only JSON is out of such a page's reach.
pub async fn read_json_object(req: &mut Request) -> ApiResult<Fields> {
    if media_type(req).as_deref() != Some(JSON) {
        return Err(ApiError::UnsupportedMediaType(
            messages::JSON_REQUIRED.into(),
        ));
    }
    let bytes = read_body(req).await?;
    Fields::from_json(&bytes).ok_or_else(|| ApiError::BadRequest(messages::INVALID_JSON.into()))
}

async fn read_body(req: &mut Request) -> ApiResult<Vec<u8>> {
    let declared = req
        .header("Content-Length")
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|len| len > MAX_BODY_BYTES as u64) {
        return Err(ApiError::PayloadTooLarge);
    }
    if req.inner().body().is_none() {
        return Ok(Vec::new());
    }
    let (bytes, whole) = read_up_to(req.stream()?, MAX_BODY_BYTES).await?;
    if whole {
        Ok(bytes)
    } else {
        Err(ApiError::PayloadTooLarge)
    }
}

/// Reads up to `limit` bytes of a body: the bytes, and whether they are the
/// whole body. Past `limit` it stops reading and lets the rest go.
pub async fn read_up_to(
    mut body: worker::ByteStream,
    limit: usize,
) -> worker::Result<(Vec<u8>, bool)> {
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        bytes.extend_from_slice(&chunk?);
        if bytes.len() > limit {
            bytes.truncate(limit);
            return Ok((bytes, false));
        }
    }
    Ok((bytes, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_fields_accept_strings_and_absence_only() {
        let fields = Fields::from_json(br#"{"a":"x","b":null,"c":1}"#).unwrap();
        assert_eq!(fields.text("a"), Ok(Some("x".into())));
        assert_eq!(fields.text("b"), Ok(None));
        assert_eq!(fields.text("missing"), Ok(None));
        assert_eq!(fields.text("c"), Err(()));
        assert_eq!(Fields::from_json(b"[1]"), None);
        assert_eq!(Fields::from_json(b"\"a\""), None);
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
}
