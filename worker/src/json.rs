//! JSON the worker writes (its API's answers, the webhook's events, the
//! CRM's and the e-mail API's requests), written straight into a string.
//! serde's derives and `json!` built a value tree per answer and a
//! serializer per type, for objects the worker only ever writes.

/// A JSON value, written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Json(String);

impl Json {
    pub const NULL: &'static str = "null";

    pub fn null() -> Self {
        Self(Self::NULL.to_string())
    }

    /// `items` as an array.
    pub fn array(items: impl IntoIterator<Item = Json>) -> Self {
        let mut out = String::from("[");
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&item.0);
        }
        out.push(']');
        Self(out)
    }

    /// Strings as an array of strings.
    pub fn strings<'a>(items: impl IntoIterator<Item = &'a str>) -> Self {
        Self::array(items.into_iter().map(|s| {
            let mut out = String::new();
            s.write(&mut out);
            Json(out)
        }))
    }

    /// JSON that SQLite's JSON functions wrote (`json_object`): valid as it is.
    pub fn from_sqlite(text: String) -> Self {
        Self(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// An object being written: `object().field("a", 1).field("b", "x").end()`.
#[derive(Debug, Clone, Default)]
pub struct Object {
    /// The members written so far, without the braces.
    members: String,
}

/// A new, empty object.
pub fn object() -> Object {
    Object::default()
}

impl Object {
    /// Adds the member `key` (a name the worker picks: written as it is).
    pub fn field(mut self, key: &str, value: impl Value) -> Self {
        if !self.members.is_empty() {
            self.members.push(',');
        }
        self.members.push('"');
        self.members.push_str(key);
        self.members.push_str("\":");
        value.write(&mut self.members);
        self
    }

    /// Adds every member of `other`, after this object's own.
    pub fn extend(mut self, other: Object) -> Self {
        if !self.members.is_empty() && !other.members.is_empty() {
            self.members.push(',');
        }
        self.members.push_str(&other.members);
        self
    }

    pub fn end(self) -> Json {
        Json(format!("{{{}}}", self.members))
    }

    /// The object with `first` as its first member, e.g. `"success":true`.
    pub fn end_after(self, first: &str) -> Json {
        if self.members.is_empty() {
            Json(format!("{{{first}}}"))
        } else {
            Json(format!("{{{first},{}}}", self.members))
        }
    }
}

/// Something written as a JSON value.
pub trait Value {
    fn write(&self, out: &mut String);
}

impl Value for str {
    fn write(&self, out: &mut String) {
        out.reserve(self.len() + 2);
        out.push('"');
        let mut plain = 0;
        for (i, b) in self.bytes().enumerate() {
            let escaped = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            out.push_str(&self[plain..i]);
            if escaped.is_empty() {
                out.push_str(&format!("\\u{b:04x}"));
            } else {
                out.push_str(escaped);
            }
            plain = i + 1;
        }
        out.push_str(&self[plain..]);
        out.push('"');
    }
}

impl Value for String {
    fn write(&self, out: &mut String) {
        self.as_str().write(out)
    }
}

impl Value for i64 {
    fn write(&self, out: &mut String) {
        out.push_str(&self.to_string())
    }
}

impl Value for bool {
    fn write(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" })
    }
}

impl Value for Json {
    fn write(&self, out: &mut String) {
        out.push_str(&self.0)
    }
}

impl Value for Object {
    fn write(&self, out: &mut String) {
        out.push('{');
        out.push_str(&self.members);
        out.push('}');
    }
}

impl<T: Value + ?Sized> Value for &T {
    fn write(&self, out: &mut String) {
        (**self).write(out)
    }
}

impl<T: Value> Value for Option<T> {
    fn write(&self, out: &mut String) {
        match self {
            Some(value) => value.write(out),
            None => out.push_str(Json::NULL),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn objects_arrays_and_nulls_read_back_as_written() {
        let json = object()
            .field("id", "a1")
            .field("n", 42i64)
            .field("ok", true)
            .field("none", None::<&str>)
            .field("list", Json::strings(["x", "y"]))
            .field("inner", object().field("at", Some("2026-01-01")))
            .end();
        let back: serde_json::Value = serde_json::from_str(json.as_str()).unwrap();
        assert_eq!(
            back,
            serde_json::json!({
                "id": "a1", "n": 42, "ok": true, "none": null,
                "list": ["x", "y"], "inner": { "at": "2026-01-01" }
            })
        );
        assert_eq!(object().end().as_str(), "{}");
        assert_eq!(
            object().end_after("\"success\":true").as_str(),
            "{\"success\":true}"
        );
        assert_eq!(
            object()
                .field("a", 1i64)
                .end_after("\"success\":true")
                .as_str(),
            "{\"success\":true,\"a\":1}"
        );
        assert_eq!(Json::array([]).as_str(), "[]");
    }

    proptest! {
        #[test]
        fn any_text_is_written_as_serde_json_writes_it(text in "\\PC*|[\\x00-\\x1f\"\\\\/\u{2028}]{0,10}") {
            let mut ours = String::new();
            text.as_str().write(&mut ours);
            prop_assert_eq!(&ours, &serde_json::to_string(&text).unwrap());
        }
    }
}
