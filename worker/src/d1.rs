//! Reading what D1 answered a batch: the rows of one of its statements, the
//! first of them, whether it returned any, and how many rows a write changed.

use serde::de::DeserializeOwned;
use worker::D1Result;

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
