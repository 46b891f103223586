//! The API's error type and its JSON answer: `{"success": false, "error": …}`.

use serde::{Serialize, Serializer};

use crate::agency::messages;

use super::respond;

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
    /// A body that is not sent as what the endpoint reads.
    UnsupportedMediaType(String),
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

/// The body of an error answer.
#[derive(Serialize)]
struct Body<'a> {
    success: bool,
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    fields: Option<Named<'a>>,
}

/// The fields a 422 names, as an object of messages.
struct Named<'a>(&'a FieldErrors);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, message)| (name, message)))
    }
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
            ApiError::UnsupportedMediaType(_) => 415,
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
            | ApiError::UnsupportedMediaType(m)
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
    pub fn body(&self) -> String {
        let fields = match self {
            ApiError::Unprocessable { fields, .. } if !fields.is_empty() => Some(Named(fields)),
            _ => None,
        };
        let body = Body {
            success: false,
            error: self.message(),
            fields,
        };
        serde_json::to_string(&body).expect("strings always serialise")
    }

    pub fn into_response(self) -> worker::Response {
        if let ApiError::Internal(detail) = &self {
            worker::console_error!("internal error: {detail}");
        }
        let response = respond::json_text(self.status(), self.body());
        let headers = response.headers();
        let _ = match self {
            ApiError::MethodNotAllowed(allow) => headers.set("Allow", allow),
            ApiError::TooManyRequests(_) => headers.set("Retry-After", "60"),
            ApiError::Unauthorized(_) => headers.set("WWW-Authenticate", "Bearer"),
            _ => Ok(()),
        };
        response
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

/// A 422 naming the one field to fix.
pub fn invalid_field(message: &str, field: &'static str) -> ApiError {
    ApiError::Unprocessable {
        message: message.to_string(),
        fields: vec![(field, message.to_string())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_api_error_reads_as_the_json_the_pages_expect() {
        let body = invalid_field("Campo obrigatório.", "name").body();
        let back: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            back,
            serde_json::json!({
                "success": false,
                "error": "Campo obrigatório.",
                "fields": { "name": "Campo obrigatório." }
            })
        );
        let plain: serde_json::Value =
            serde_json::from_str(&ApiError::PayloadTooLarge.body()).unwrap();
        assert_eq!(
            plain,
            serde_json::json!({ "success": false, "error": messages::BODY_TOO_LARGE })
        );
    }
}
