//! Reading what D1 answered a batch: the rows of one of its statements, the
//! first of them, whether it returned any, and how many rows a write changed.

use serde::de::DeserializeOwned;
use worker::wasm_bindgen::JsValue;
use worker::{D1Database, D1PreparedStatement, D1Result};

/// The rows of the `index`-th statement of a batch (none if it has no such statement).
pub fn rows<T: DeserializeOwned>(results: &[D1Result], index: usize) -> worker::Result<Vec<T>> {
    results
        .get(index)
        .map(|r| r.results())
        .transpose()
        .map(Option::unwrap_or_default)
}

/// The first row of the `index`-th statement of a batch.
pub fn first_row<T: DeserializeOwned>(
    results: &[D1Result],
    index: usize,
) -> worker::Result<Option<T>> {
    Ok(rows(results, index)?.into_iter().next())
}

/// Whether the statement at `index` of a batch returned a row.
pub fn returned_row(results: &[D1Result], index: usize) -> bool {
    results
        .get(index)
        .and_then(|r| r.results::<serde_json::Value>().ok())
        .is_some_and(|rows| !rows.is_empty())
}

/// Rows a write statement changed.
pub fn changes(result: &D1Result) -> usize {
    result
        .meta()
        .ok()
        .flatten()
        .and_then(|m| m.changes)
        .unwrap_or_default()
}

/// A statement with its `?` parameters bound in order: `query!(db, sql, a, b)`.
macro_rules! query {
    ($db:expr, $sql:expr, $($param:expr),+ $(,)?) => {
        $crate::d1::bind($db, $sql, &[$($crate::d1::Param::js(&$param)),+])
    };
}
pub(crate) use query;

/// `sql` prepared with `params` bound to its `?` placeholders.
pub fn bind(
    db: &D1Database,
    sql: impl Into<String>,
    params: &[JsValue],
) -> worker::Result<D1PreparedStatement> {
    db.prepare(sql).bind(params)
}

/// A value a statement's parameter can take: text, an integer, or NULL.
pub trait Param {
    fn js(&self) -> JsValue;
}

impl Param for str {
    fn js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl Param for String {
    fn js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl Param for i64 {
    fn js(&self) -> JsValue {
        // Every integer the worker binds (times in ms, counts, limits) is
        // well within a JavaScript number's exact range.
        JsValue::from_f64(*self as f64)
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn js(&self) -> JsValue {
        (**self).js()
    }
}

impl<T: Param> Param for Option<T> {
    fn js(&self) -> JsValue {
        self.as_ref().map_or(JsValue::NULL, Param::js)
    }
}
