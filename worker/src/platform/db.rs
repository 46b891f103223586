//! D1 as the worker uses it, through the `worker` crate: statements with
//! their `?` parameters bound (`query!`), batches, rows read into
//! `#[derive(Deserialize)]` structs, how many rows a write changed, and what
//! the cron's statements read and wrote (its cost, which the cron logs after
//! each run).

use std::cell::Cell;

use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use wasm_bindgen::JsValue;
pub use worker::{D1Database, D1PreparedStatement, D1Result};

/// The `DB` binding of `env`.
pub fn of(env: &worker::Env) -> worker::Result<D1Database> {
    env.d1("DB")
}

/// Runs `statements` as one transaction, in one round trip.
pub async fn batch(
    db: &D1Database,
    statements: Vec<D1PreparedStatement>,
) -> worker::Result<Vec<D1Result>> {
    let results = db.batch(statements).await?;
    count(&results);
    Ok(results)
}

/// Runs `statement` alone: its rows and meta.
pub async fn all(statement: &D1PreparedStatement) -> worker::Result<D1Result> {
    let result = statement.all().await?;
    count(std::slice::from_ref(&result));
    Ok(result)
}

/// Runs `statement` alone for what it does, not for its rows.
pub async fn run(statement: &D1PreparedStatement) -> worker::Result<D1Result> {
    all(statement).await
}

/// Runs `statement` alone: its rows, read into `T`.
pub async fn rows_of<T: DeserializeOwned>(
    statement: &D1PreparedStatement,
) -> worker::Result<Vec<T>> {
    all(statement).await?.results()
}

/// Runs `statement` alone: its first row, if any.
pub async fn first<T: DeserializeOwned>(
    statement: &D1PreparedStatement,
) -> worker::Result<Option<T>> {
    first_of(&all(statement).await?)
}

/// The first row of `result`, read into `T`.
pub fn first_of<T: DeserializeOwned>(result: &D1Result) -> worker::Result<Option<T>> {
    Ok(result.results::<T>()?.into_iter().next())
}

/// The rows of the `index`-th statement of a batch (none if it has no such statement).
pub fn rows<T: DeserializeOwned>(results: &[D1Result], index: usize) -> worker::Result<Vec<T>> {
    results.get(index).map_or(Ok(Vec::new()), D1Result::results)
}

/// The first row of the `index`-th statement of a batch.
pub fn first_row<T: DeserializeOwned>(
    results: &[D1Result],
    index: usize,
) -> worker::Result<Option<T>> {
    results.get(index).map_or(Ok(None), first_of)
}

/// Whether the statement at `index` of a batch returned a row.
pub fn returned_row(results: &[D1Result], index: usize) -> bool {
    results
        .get(index)
        .and_then(|r| r.results::<IgnoredAny>().ok())
        .is_some_and(|rows| !rows.is_empty())
}

/// Rows a write statement changed.
pub fn changes(result: &D1Result) -> usize {
    meta(result).changes
}

/// What D1's meta says of one statement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Meta {
    pub rows_read: usize,
    pub rows_written: usize,
    pub changes: usize,
}

/// Rows read and written, and rows a write changed (zero where D1 gave no meta).
pub fn meta(result: &D1Result) -> Meta {
    match result.meta() {
        Ok(Some(m)) => Meta {
            rows_read: m.rows_read.unwrap_or_default(),
            rows_written: m.rows_written.unwrap_or_default(),
            changes: m.changes.unwrap_or_default(),
        },
        _ => Meta::default(),
    }
}

/// The row of a statement that answers one number, named `n`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct Count {
    pub n: i64,
}

/// A statement with its `?` parameters bound in order: `query!(db, sql, a, b)`.
macro_rules! query {
    ($db:expr, $sql:expr, $($param:expr),+ $(,)?) => {
        $crate::platform::db::bind($db, $sql, &[$($crate::platform::db::Param::value(&$param)),+])
    };
}
pub(crate) use query;

/// `sql` prepared with `values` bound to its `?` placeholders.
pub fn bind(db: &D1Database, sql: &str, values: &[JsValue]) -> D1PreparedStatement {
    // D1 refuses to bind only values it cannot store (`undefined`, an
    // object); `Param` makes text, integers and NULL, so this cannot fail.
    db.prepare(sql)
        .bind(values)
        .expect("text, integers and NULL always bind")
}

/// A value a statement's parameter can take: text, an integer, or NULL.
pub trait Param {
    fn value(&self) -> JsValue;
}

impl Param for str {
    fn value(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl Param for String {
    fn value(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl Param for i64 {
    fn value(&self) -> JsValue {
        // Every integer the worker binds (times in ms, counts, limits) is
        // well within a JavaScript number's exact range.
        JsValue::from_f64(*self as f64)
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> JsValue {
        (**self).value()
    }
}

impl<T: Param> Param for Option<T> {
    fn value(&self) -> JsValue {
        self.as_ref().map_or(JsValue::NULL, Param::value)
    }
}

/// Rows D1 read and wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rows {
    pub read: usize,
    pub written: usize,
}

thread_local! {
    /// What the statements of this isolate read and wrote since
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
/// is the isolate's: a request it serves meanwhile adds to it.
pub fn finish_counting() -> Rows {
    COUNTED.with(Cell::take).unwrap_or_default()
}

/// What `results` read and wrote, from D1's meta of each.
pub fn cost(results: &[D1Result]) -> Rows {
    results
        .iter()
        .map(meta)
        .fold(Rows::default(), |rows, m| Rows {
            read: rows.read + m.rows_read,
            written: rows.written + m.rows_written,
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
