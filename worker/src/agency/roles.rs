//! Who is who on the agency's team: an account is an owner ('Responsável')
//! or staff ('Equipe'). One name for each, whether `staff_users.role` stores
//! it, the API answers it (the pages' `Role`) or a statement compares it in
//! its SQL text; `auth::staff`'s tests hold the three equal.

use serde::{Deserialize, Serialize};

/// A staff account's role: as `staff_users.role` stores it and the API
/// answers it (`"owner"`, `"staff"`; the pages' `Role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// 'Responsável': manages the team and sees the activity.
    Owner,
    Staff,
}

/// A role's name as a statement's text writes it (`'owner'`), for the
/// statements that compare or set `staff_users.role` inside their SQL; a
/// test holds each equal to the name serde gives the [`Role`].
macro_rules! role_sql {
    (Owner) => {
        "'owner'"
    };
    (Staff) => {
        "'staff'"
    };
}
pub(crate) use role_sql;
