//! D1 as the worker uses it: statements with their `?` parameters bound,
//! batches, the rows of an answer read into the worker's own row types, how
//! many rows a write changed, and what the cron's statements read and wrote
//! (its cost, which the cron logs after each run).
//!
//! The runtime's D1 objects are called directly, and a row is read column by
//! column into its type (`row!`): reading them through serde generated a
//! decoder per row type, a fifth of the worker's WASM.

use std::cell::Cell;

use js_sys::{Array, Promise, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::platform::{HostError, HostResult};

#[wasm_bindgen]
extern "C" {
    /// The D1 binding.
    pub type D1Database;

    #[wasm_bindgen(method, js_name = prepare)]
    fn prepare_js(this: &D1Database, sql: &str) -> D1PreparedStatement;

    #[wasm_bindgen(method, catch, js_name = batch)]
    fn batch_js(this: &D1Database, statements: &Array) -> Result<Promise, JsValue>;

    /// A statement, with its parameters once bound.
    pub type D1PreparedStatement;

    #[wasm_bindgen(method, variadic, js_name = bind)]
    fn bind_js(this: &D1PreparedStatement, values: Array) -> D1PreparedStatement;

    #[wasm_bindgen(method, catch, js_name = all)]
    fn all_js(this: &D1PreparedStatement) -> Result<Promise, JsValue>;

    /// What D1 answered one statement: its rows and its meta.
    pub type D1Result;

    #[wasm_bindgen(method, getter, js_name = results)]
    fn results_js(this: &D1Result) -> JsValue;

    #[wasm_bindgen(method, getter, js_name = meta)]
    fn meta_js(this: &D1Result) -> JsValue;
}

impl D1Database {
    /// The `DB` binding of `env`.
    pub fn of(env: &worker::Env) -> HostResult<Self> {
        let binding = Reflect::get(env, &JsValue::from_str("DB")).unwrap_or(JsValue::UNDEFINED);
        if binding.is_object() {
            Ok(binding.unchecked_into())
        } else {
            Err(HostError::new("the D1 binding DB is not configured"))
        }
    }

    /// `sql`, to bind and run (D1 reads it when it runs).
    pub fn prepare(&self, sql: &str) -> D1PreparedStatement {
        self.prepare_js(sql)
    }

    /// Runs `statements` as one transaction, in one round trip.
    pub async fn batch(&self, statements: Vec<D1PreparedStatement>) -> HostResult<Vec<D1Result>> {
        let list = Array::new();
        for statement in &statements {
            list.push(statement);
        }
        let answer = settle(self.batch_js(&list)).await?;
        let results: Vec<D1Result> = Array::from(&answer)
            .iter()
            .map(JsCast::unchecked_into)
            .collect();
        count(&results);
        Ok(results)
    }
}

impl D1PreparedStatement {
    /// Runs the statement alone: its rows and meta.
    pub async fn all(&self) -> HostResult<D1Result> {
        let result: D1Result = settle(self.all_js()).await?.unchecked_into();
        count(std::slice::from_ref(&result));
        Ok(result)
    }

    /// Runs the statement alone for what it does, not for its rows.
    pub async fn run(&self) -> HostResult<D1Result> {
        self.all().await
    }

    /// Runs the statement alone: its first row, if any.
    pub async fn first<T: FromRow>(&self) -> HostResult<Option<T>> {
        self.all().await?.first()
    }
}

/// What a promise of the runtime's settled to: its value, or why it failed.
async fn settle(promise: Result<Promise, JsValue>) -> HostResult<JsValue> {
    Ok(JsFuture::from(promise?).await?)
}

impl D1Result {
    /// The rows as the runtime answered them (none when it gave no list).
    fn list(&self) -> Array {
        let list = self.results_js();
        if list.is_object() {
            Array::from(&list)
        } else {
            Array::new()
        }
    }

    /// The rows, read into `T`.
    pub fn rows<T: FromRow>(&self) -> HostResult<Vec<T>> {
        let list = self.list();
        let mut rows = Vec::with_capacity(list.length() as usize);
        for row in list.iter() {
            rows.push(read(&row)?);
        }
        Ok(rows)
    }

    /// The first row, read into `T`.
    pub fn first<T: FromRow>(&self) -> HostResult<Option<T>> {
        let row = self.list().get(0);
        if row.is_undefined() {
            return Ok(None);
        }
        read(&row).map(Some)
    }

    /// Whether the statement returned a row.
    pub fn returned_row(&self) -> bool {
        self.list().length() > 0
    }

    /// Rows read and written, and rows a write changed, from the meta.
    pub fn meta(&self) -> Meta {
        let meta = self.meta_js();
        let number = |name: &str| -> usize {
            Reflect::get(&meta, &JsValue::from_str(name))
                .ok()
                .and_then(|v| v.as_f64())
                .map_or(0, |n| n as usize)
        };
        if !meta.is_object() {
            return Meta::default();
        }
        Meta {
            rows_read: number("rows_read"),
            rows_written: number("rows_written"),
            changes: number("changes"),
        }
    }
}

/// What D1's meta says of one statement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Meta {
    pub rows_read: usize,
    pub rows_written: usize,
    pub changes: usize,
}

/// The rows of the `index`-th statement of a batch (none if it has no such statement).
pub fn rows<T: FromRow>(results: &[D1Result], index: usize) -> HostResult<Vec<T>> {
    results.get(index).map_or(Ok(Vec::new()), D1Result::rows)
}

/// The first row of the `index`-th statement of a batch.
pub fn first_row<T: FromRow>(results: &[D1Result], index: usize) -> HostResult<Option<T>> {
    results.get(index).map_or(Ok(None), D1Result::first)
}

/// Whether the statement at `index` of a batch returned a row.
pub fn returned_row(results: &[D1Result], index: usize) -> bool {
    results.get(index).is_some_and(D1Result::returned_row)
}

/// Rows a write statement changed.
pub fn changes(result: &D1Result) -> usize {
    result.meta().changes
}

/// One row of an answer, read column by column by [`FromRow`]. A column
/// missing or of another type than its field is noted, and the row refused.
pub struct Row<'a> {
    object: &'a JsValue,
    refused: Cell<Option<&'static str>>,
}

/// A row type: built from a [`Row`] by reading each of its columns (`row!`).
pub trait FromRow: Sized {
    fn from_row(row: &Row) -> Self;
}

/// A column's value as a field of a row type.
pub trait Column: Sized {
    fn read(row: &Row, name: &'static str) -> Self;
}

fn read<T: FromRow>(object: &JsValue) -> HostResult<T> {
    let row = Row {
        object,
        refused: Cell::new(None),
    };
    let value = T::from_row(&row);
    match row.refused.get() {
        None => Ok(value),
        Some(column) => Err(HostError::new(format!(
            "D1 answered an unexpected value for the column {column}"
        ))),
    }
}

impl Row<'_> {
    /// The column `name` as `T`.
    pub fn column<T: Column>(&self, name: &'static str) -> T {
        T::read(self, name)
    }

    fn value(&self, name: &str) -> JsValue {
        Reflect::get(self.object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
    }

    fn refuse(&self, name: &'static str) {
        if self.refused.get().is_none() {
            self.refused.set(Some(name));
        }
    }

    /// The column as text: `Some(None)` for NULL (or a column the
    /// statement does not select), `None` for another type.
    fn text(&self, name: &'static str) -> Option<Option<String>> {
        let value = self.value(name);
        if value.is_null() || value.is_undefined() {
            return Some(None);
        }
        value.as_string().map(Some)
    }

    /// The column as an integer, as [`Row::text`].
    fn integer(&self, name: &'static str) -> Option<Option<i64>> {
        let value = self.value(name);
        if value.is_null() || value.is_undefined() {
            return Some(None);
        }
        let n = value.as_f64()?;
        (n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0).then_some(Some(n as i64))
    }
}

impl Column for Option<String> {
    fn read(row: &Row, name: &'static str) -> Self {
        row.text(name).unwrap_or_else(|| {
            row.refuse(name);
            None
        })
    }
}

impl Column for String {
    fn read(row: &Row, name: &'static str) -> Self {
        Option::<String>::read(row, name).unwrap_or_else(|| {
            row.refuse(name);
            String::new()
        })
    }
}

impl Column for Option<i64> {
    fn read(row: &Row, name: &'static str) -> Self {
        row.integer(name).unwrap_or_else(|| {
            row.refuse(name);
            None
        })
    }
}

impl Column for i64 {
    fn read(row: &Row, name: &'static str) -> Self {
        Option::<i64>::read(row, name).unwrap_or_else(|| {
            row.refuse(name);
            0
        })
    }
}

/// A row type and how it is read from an answer: each field from the column
/// of its name (`String`, `i64`, or either as an `Option` for NULL).
macro_rules! row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty),*
        }

        impl $crate::d1::FromRow for $name {
            fn from_row(row: &$crate::d1::Row) -> Self {
                Self {
                    $($field: row.column(stringify!($field))),*
                }
            }
        }
    };
}
pub(crate) use row;

row! {
    /// The row of a statement that answers one number, named `n`.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Count {
        pub n: i64,
    }
}

/// A statement with its `?` parameters bound in order: `query!(db, sql, a, b)`.
macro_rules! query {
    ($db:expr, $sql:expr, $($param:expr),+ $(,)?) => {
        $crate::d1::bind($db, $sql, &[$(&$param as &dyn $crate::d1::Param),+])
    };
}
pub(crate) use query;

/// `sql` prepared with `params` bound to its `?` placeholders.
pub fn bind(db: &D1Database, sql: &str, params: &[&dyn Param]) -> D1PreparedStatement {
    let values = Array::new();
    for param in params {
        values.push(&param.js());
    }
    db.prepare(sql).bind_js(values)
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
        .map(D1Result::meta)
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
