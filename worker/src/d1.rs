//! Reading what D1 answered a batch: the rows of one of its statements, the
//! first of them, whether it returned any, and how many rows a write changed;
//! binding parameters; and counting what the cron's statements read and
//! wrote (`Counted`), which the cron logs after each run.

use std::cell::Cell;

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

/// Rows D1 read and wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rows {
    pub read: usize,
    pub written: usize,
}

thread_local! {
    /// What the counted statements of this isolate read and wrote since
    /// [`start_counting`] (a cron run's cost, which D1 bills by rows read);
    /// `None` while nothing counts, so a request outside a cron run reads
    /// no answer's meta.
    static COUNTED: Cell<Option<Rows>> = const { Cell::new(None) };
}

/// Starts counting afresh.
pub fn start_counting() {
    COUNTED.with(|c| c.set(Some(Rows::default())));
}

/// What was counted since [`start_counting`], and counting stops. The count
/// is the isolate's: a request it serves meanwhile through a counted
/// statement adds to it.
pub fn finish_counting() -> Rows {
    COUNTED.with(Cell::take).unwrap_or_default()
}

/// What `results` read and wrote, from D1's meta of each.
pub fn cost(results: &[D1Result]) -> Rows {
    results
        .iter()
        .filter_map(|r| r.meta().ok().flatten())
        .fold(Rows::default(), |rows, m| Rows {
            read: rows.read + m.rows_read.unwrap_or_default(),
            written: rows.written + m.rows_written.unwrap_or_default(),
        })
}

fn count(results: &[D1Result]) {
    let Some(so_far) = COUNTED.with(Cell::get) else {
        return;
    };
    let these = cost(results);
    COUNTED.with(|c| {
        c.set(Some(Rows {
            read: so_far.read + these.read,
            written: so_far.written + these.written,
        }))
    });
}

/// A statement run with what it read and wrote counted (the cron's statements).
pub trait Counted {
    fn run_counted(self) -> impl Future<Output = worker::Result<D1Result>>;
    fn all_counted(self) -> impl Future<Output = worker::Result<D1Result>>;
    /// Its first row, if any.
    fn first_counted<T: DeserializeOwned>(self) -> impl Future<Output = worker::Result<Option<T>>>;
}

impl Counted for D1PreparedStatement {
    async fn run_counted(self) -> worker::Result<D1Result> {
        let result = self.run().await?;
        count(std::slice::from_ref(&result));
        Ok(result)
    }

    async fn all_counted(self) -> worker::Result<D1Result> {
        let result = self.all().await?;
        count(std::slice::from_ref(&result));
        Ok(result)
    }

    async fn first_counted<T: DeserializeOwned>(self) -> worker::Result<Option<T>> {
        let result = self.all_counted().await?;
        Ok(result.results::<T>()?.into_iter().next())
    }
}

/// A batch run with what its statements read and wrote counted.
pub async fn batch_counted(
    db: &D1Database,
    statements: Vec<D1PreparedStatement>,
) -> worker::Result<Vec<D1Result>> {
    let results = db.batch(statements).await?;
    count(&results);
    Ok(results)
}
