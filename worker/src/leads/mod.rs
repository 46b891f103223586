//! Leads: what a visitor leaves on the landing page.

pub mod answers;
pub mod domain;
pub mod proof;
pub mod store;
pub mod submit;
