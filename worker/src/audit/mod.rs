//! The audit trail, written: who did what, when, to which lead or account. A
//! lead is named by its id only, never by a visitor's personal data, so the
//! trail outlives a deleted lead without keeping it. Every entry is written in
//! the same D1 batch as the change it records. 'Atividade'
//! (`team::activity`) reads it.
//!
//! And the condition each staff change carries beside its entry: that its
//! session may still act (`live_session`).

pub mod live_session;

use serde::{Deserialize, Serialize};

use crate::platform::db::{D1Database, D1PreparedStatement, query};

/// What was done: every action the trail records, as `audit_log.action`
/// stores it and the API names it (the pages' `AuditAction`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    SignIn,
    SignInFailed,
    Confirm,
    PasswordReset,
    PasswordChange,
    Disable,
    Enable,
    EndSessions,
    MakeOwner,
    RemoveOwner,
    Approve,
    Refuse,
    Permissions,
    Export,
    /// Owners told that someone reads far more leads than they work
    /// (`admin::reads`).
    BulkRead,
    MarkSent,
    /// 'Desfazer' right after 'Marcar Enviado'.
    UnmarkSent,
    Resend,
    AcceptChange,
    RefuseChange,
    Delete,
    Contact,
    Uncontact,
    CorrectWhatsapp,
    Settings,
}

impl Action {
    /// Every action, in the order 'Atividade' lists them.
    pub const ALL: [Action; 25] = [
        Action::SignIn,
        Action::SignInFailed,
        Action::Confirm,
        Action::PasswordReset,
        Action::PasswordChange,
        Action::Disable,
        Action::Enable,
        Action::EndSessions,
        Action::MakeOwner,
        Action::RemoveOwner,
        Action::Approve,
        Action::Refuse,
        Action::Permissions,
        Action::Export,
        Action::BulkRead,
        Action::MarkSent,
        Action::UnmarkSent,
        Action::Resend,
        Action::AcceptChange,
        Action::RefuseChange,
        Action::Delete,
        Action::Contact,
        Action::Uncontact,
        Action::CorrectWhatsapp,
        Action::Settings,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::SignIn => "sign_in",
            Action::SignInFailed => "sign_in_failed",
            Action::Confirm => "confirm",
            Action::PasswordReset => "password_reset",
            Action::PasswordChange => "password_change",
            Action::Disable => "disable",
            Action::Enable => "enable",
            Action::EndSessions => "end_sessions",
            Action::MakeOwner => "make_owner",
            Action::RemoveOwner => "remove_owner",
            Action::Approve => "approve",
            Action::Refuse => "refuse",
            Action::Permissions => "permissions",
            Action::Export => "export",
            Action::BulkRead => "bulk_read",
            Action::MarkSent => "mark_sent",
            Action::UnmarkSent => "unmark_sent",
            Action::Resend => "resend",
            Action::AcceptChange => "accept_change",
            Action::RefuseChange => "refuse_change",
            Action::Delete => "delete",
            Action::Contact => "contact",
            Action::Uncontact => "uncontact",
            Action::CorrectWhatsapp => "correct_whatsapp",
            Action::Settings => "settings",
        }
    }

    /// The action `name` names, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// An action's name as a statement's text writes it (`'mark_sent'`), for the
/// statements that write or read an entry of one action inside their SQL;
/// a test holds each equal to [`Action::name`].
macro_rules! action_sql {
    (MarkSent) => {
        "'mark_sent'"
    };
    (Resend) => {
        "'resend'"
    };
    (AcceptChange) => {
        "'accept_change'"
    };
    (RefuseChange) => {
        "'refuse_change'"
    };
    (Contact) => {
        "'contact'"
    };
    (Uncontact) => {
        "'uncontact'"
    };
    (CorrectWhatsapp) => {
        "'correct_whatsapp'"
    };
    (Settings) => {
        "'settings'"
    };
}
pub(crate) use action_sql;

/// Who did it: an account, or (a failed sign-in) only the address typed.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub id: Option<&'a str>,
    pub email: &'a str,
}

/// What it was done to.
#[derive(Debug, Clone, Copy)]
pub enum Subject<'a> {
    Nothing,
    Account(&'a str),
}

const RECORD_SQL: &str = "INSERT INTO audit_log (at, staff_id, staff_email, action, account_id) \
     VALUES (?1, ?2, ?3, ?4, ?5)";
/// [`RECORD_SQL`], written only if the actor's account (`?2`) meets
/// `$state` when the batch runs.
macro_rules! record_if_account {
    ($state:expr) => {
        concat!(
            "INSERT INTO audit_log (at, staff_id, staff_email, action, account_id) \
             SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS \
               (SELECT 1 FROM staff_users WHERE id = ?2 AND ",
            $state,
            ")"
        )
    };
}
const RECORD_IF_STANDS_SQL: &str = record_if_account!("disabled_at IS NULL AND password_hash = ?6");
const RECORD_IF_OFF_SQL: &str = record_if_account!("disabled_at IS NOT NULL");
const RECORD_IF_PASSWORD_CHANGED_SQL: &str =
    record_if_account!("disabled_at IS NULL AND password_hash != ?6");

/// The state the actor's account must be in, when the batch runs, for an
/// entry to be written: a sign-in that races 'Desativar' or a new password
/// is recorded as what its answer says, made or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IfAccount<'a> {
    /// Switched on, with the password the sign-in checked (its hash).
    Stands(&'a str),
    /// Switched off.
    Off,
    /// Switched on, with a password other than the one checked (its hash).
    PasswordChanged(&'a str),
}

/// The longest address kept for a failed sign-in (what was typed).
const MAX_EMAIL_CHARS: usize = 254;

/// An entry, as a statement for the change's own batch.
pub fn record(
    db: &D1Database,
    actor: Actor,
    action: Action,
    subject: Subject,
    now: i64,
) -> D1PreparedStatement {
    let (account, email) = entry_params(actor, subject);
    query!(db, RECORD_SQL, now, actor.id, email, action.name(), account)
}

const RECORD_DETAIL_SQL: &str = "INSERT INTO audit_log \
       (at, staff_id, staff_email, action, account_id, detail) \
     VALUES (?1, ?2, ?3, ?4, ?5, json(?6)) RETURNING id";

/// An entry with its detail (JSON, never a lead's personal data), as a
/// statement that answers the entry's id (see [`EntryId`]).
pub fn record_detail(
    db: &D1Database,
    actor: Actor,
    action: Action,
    subject: Subject,
    detail: &serde_json::Value,
    now: i64,
) -> D1PreparedStatement {
    let (account, email) = entry_params(actor, subject);
    let detail = detail.to_string();
    query!(
        db,
        RECORD_DETAIL_SQL,
        now,
        actor.id,
        email,
        action.name(),
        account,
        detail
    )
}

/// The id [`record_detail`] answers.
#[derive(Debug, Clone, Copy, serde::Deserialize)]
pub struct EntryId {
    pub id: i64,
}

const SET_DETAIL_SQL: &str =
    "UPDATE audit_log SET detail = json_patch(coalesce(detail, '{}'), json(?2)) WHERE id = ?1";

/// Sets members of an entry's detail (`patch`, an object merged into it):
/// an export's rows as it streams, and how it ended.
pub fn set_detail(db: &D1Database, id: i64, patch: &serde_json::Value) -> D1PreparedStatement {
    query!(db, SET_DETAIL_SQL, id, patch.to_string())
}

/// An entry written only if the actor's account is `state` as the batch
/// finds it.
pub fn record_if(
    db: &D1Database,
    state: IfAccount,
    actor: Actor,
    action: Action,
    subject: Subject,
    now: i64,
) -> D1PreparedStatement {
    let (sql, checked) = match state {
        IfAccount::Stands(hash) => (RECORD_IF_STANDS_SQL, Some(hash)),
        IfAccount::Off => (RECORD_IF_OFF_SQL, None),
        IfAccount::PasswordChanged(hash) => (RECORD_IF_PASSWORD_CHANGED_SQL, Some(hash)),
    };
    let (account, email) = entry_params(actor, subject);
    match checked {
        Some(hash) => query!(db, sql, now, actor.id, email, action.name(), account, hash),
        None => query!(db, sql, now, actor.id, email, action.name(), account),
    }
}

/// The account an entry is about, and the actor's address as kept.
fn entry_params<'a>(actor: Actor, subject: Subject<'a>) -> (Option<&'a str>, String) {
    let account = match subject {
        Subject::Nothing => None,
        Subject::Account(id) => Some(id),
    };
    (account, actor.email.chars().take(MAX_EMAIL_CHARS).collect())
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// The members of the pages' union type `name` (`pages/src/lib/vocabulary.ts`).
    pub fn pages_union(name: &str) -> Vec<&'static str> {
        let text = include_str!("../../../pages/src/lib/vocabulary.ts");
        let start = text
            .find(&format!("export type {name} ="))
            .expect("the union is in vocabulary.ts");
        let union = &text[start..];
        let union = &union[..union.find(';').expect("the union ends")];
        union.split('"').skip(1).step_by(2).collect()
    }

    #[test]
    fn the_pages_know_every_action_by_the_same_name() {
        let names: Vec<&str> = Action::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(pages_union("AuditAction"), names);
    }

    #[test]
    fn each_action_is_named_alike_in_the_trail_and_on_the_wire() {
        for action in Action::ALL {
            let wire = serde_json::to_value(action).unwrap();
            assert_eq!(wire, serde_json::json!(action.name()));
            assert_eq!(serde_json::from_value::<Action>(wire).unwrap(), action);
            assert_eq!(Action::parse(action.name()), Some(action));
        }
    }

    #[test]
    fn names_in_sql_are_the_actions() {
        for (sql, action) in [
            (action_sql!(MarkSent), Action::MarkSent),
            (action_sql!(Resend), Action::Resend),
            (action_sql!(AcceptChange), Action::AcceptChange),
            (action_sql!(RefuseChange), Action::RefuseChange),
            (action_sql!(Contact), Action::Contact),
            (action_sql!(Uncontact), Action::Uncontact),
            (action_sql!(CorrectWhatsapp), Action::CorrectWhatsapp),
            (action_sql!(Settings), Action::Settings),
        ] {
            assert_eq!(sql, format!("'{}'", action.name()));
        }
    }
}
