//! D1 as the worker uses it, through the `worker` crate: statements with
//! their `?` parameters bound (`query!`), batches, rows read into
//! `#[derive(Deserialize)]` structs, how many rows a write changed, and what
//! the cron's statements read and wrote (its cost, which the cron logs after
//! each run).

use std::cell::Cell;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use wasm_bindgen::JsValue;
pub use worker::{D1Database, D1PreparedStatement, D1Result};

/// The `DB` binding of `env`.
pub fn of(env: &worker::Env) -> worker::Result<D1Database> {
    env.d1("DB")
}

/// Runs `statements` as one transaction, in one round trip, for what they
/// do: a batch whose results are read is a [`Batch`].
pub async fn batch(db: &D1Database, statements: Vec<D1PreparedStatement>) -> worker::Result<()> {
    run_batch(db, statements).await.map(drop)
}

async fn run_batch(
    db: &D1Database,
    statements: Vec<D1PreparedStatement>,
) -> worker::Result<Vec<D1Result>> {
    let results = db.batch(statements).await?;
    count(&results);
    Ok(results)
}

/// Statements to run as one transaction, in one round trip, in the order
/// they were pushed. Each push answers a [`Handle`] through which that
/// statement's result is read, so a statement added anywhere in the batch
/// moves no other statement's read. (`S` is a statement; only tests use
/// anything but D1's.)
pub struct Batch<S = D1PreparedStatement> {
    statements: Vec<S>,
}

/// One statement of a [`Batch`], whose rows read as `T`; a statement run
/// for what it does (its changes, whether it returned a row) has the
/// default [`Unread`].
pub struct Handle<T = Unread> {
    at: usize,
    row: PhantomData<fn() -> T>,
}

/// The row type of a statement whose rows are not read.
pub enum Unread {}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Handle<T> {}

impl<T> Handle<T> {
    /// The same statement, for what it does rather than its rows.
    pub fn unread(self) -> Handle {
        Handle {
            at: self.at,
            row: PhantomData,
        }
    }
}

impl<S> Default for Batch<S> {
    fn default() -> Self {
        Self {
            statements: Vec::new(),
        }
    }
}

impl<S> Batch<S> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `statement`, whose rows are read as `T`.
    pub fn push<T>(&mut self, statement: S) -> Handle<T> {
        self.statements.push(statement);
        Handle {
            at: self.statements.len() - 1,
            row: PhantomData,
        }
    }

    /// Adds `statement`, run for what it does.
    pub fn add(&mut self, statement: S) -> Handle {
        self.push(statement)
    }

    fn into_statements(self) -> Vec<S> {
        self.statements
    }
}

impl Batch {
    /// Runs the batch: its results, read through the handles its pushes answered.
    pub async fn run(self, db: &D1Database) -> worker::Result<Results> {
        Ok(Results::new(run_batch(db, self.into_statements()).await?))
    }
}

/// What a [`Batch`] answered, one result per statement (`R` is D1's result
/// but in tests).
pub struct Results<R = D1Result> {
    results: Vec<R>,
}

impl<R> Results<R> {
    fn new(results: Vec<R>) -> Self {
        Self { results }
    }

    /// The result of `handle`'s statement.
    pub fn of<T>(&self, handle: Handle<T>) -> Option<&R> {
        self.results.get(handle.at)
    }
}

impl Results {
    /// The first row of `handle`'s statement, if it returned one.
    pub fn first<T: DeserializeOwned>(&self, handle: Handle<T>) -> worker::Result<Option<T>> {
        self.of(handle).map_or(Ok(None), first_of)
    }

    /// The rows of `handle`'s statement.
    pub fn rows<T: DeserializeOwned>(&self, handle: Handle<T>) -> worker::Result<Vec<T>> {
        self.of(handle).map_or(Ok(Vec::new()), D1Result::results)
    }

    /// Whether `handle`'s statement returned a row.
    pub fn returned_row<T>(&self, handle: Handle<T>) -> bool {
        self.of(handle.unread()).is_some_and(has_rows)
    }

    /// Rows `handle`'s write statement changed.
    pub fn changes<T>(&self, handle: Handle<T>) -> usize {
        self.of(handle.unread()).map_or(0, changes)
    }

    /// What the whole batch read and wrote.
    pub fn cost(&self) -> Rows {
        cost(&self.results)
    }
}

fn has_rows(result: &D1Result) -> bool {
    result
        .results::<IgnoredAny>()
        .is_ok_and(|rows| !rows.is_empty())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What D1 does with a batch, as far as the handles see it: one result
    /// per statement, in order (here, each statement's result is its text).
    fn run(batch: Batch<&'static str>) -> Results<&'static str> {
        Results::new(batch.into_statements())
    }

    #[test]
    fn a_handle_reads_its_own_statements_result_whatever_is_pushed_before_it() {
        for before in 0..4 {
            let mut batch = Batch::new();
            for _ in 0..before {
                batch.add("a statement pushed before");
            }
            let mine: Handle<Count> = batch.push("mine");
            let next = batch.add("the statement after");
            let results = run(batch);
            assert_eq!(results.of(mine), Some(&"mine"), "{before} before");
            assert_eq!(results.of(next), Some(&"the statement after"));
            assert_eq!(results.of(mine.unread()), Some(&"mine"));
        }
    }

    #[test]
    fn a_helper_that_pushes_several_statements_hands_back_each_ones_handle() {
        struct Pair {
            first: Handle,
            second: Handle<Count>,
        }
        fn pair(batch: &mut Batch<&'static str>) -> Pair {
            Pair {
                first: batch.add("first"),
                second: batch.push("second"),
            }
        }
        let mut batch = Batch::new();
        batch.add("the caller's own");
        let pair = pair(&mut batch);
        let last = batch.add("last");
        let results = run(batch);
        assert_eq!(results.of(pair.first), Some(&"first"));
        assert_eq!(results.of(pair.second), Some(&"second"));
        assert_eq!(results.of(last), Some(&"last"));
    }
}
