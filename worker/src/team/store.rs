//! The team's accounts in D1, as owners see and change them: each query once.
//!
//! Each change is written with its audit entry in one batch, both under the
//! same condition (written once, in [`TeamAction::applies_to`]), so the trail
//! records exactly the changes that happened, and the rule that the panel
//! always keeps an active owner holds in the statement itself, whatever runs
//! at the same time.

use serde::Deserialize;

use crate::agency::roles::{Role, role_sql};
use crate::alerts::notices::notices_from_now;
use crate::alerts::owner_mails::alert_missed_at;
use crate::audit::Action;
use crate::audit::live_session::{live_row, may_act};
use crate::auth::guard::Staff;
use crate::auth::staff::mailbox;
use crate::platform::db::{self, D1Database, D1PreparedStatement, query};

/// An account's columns as 'Equipe' shows them, `$now` the parameter that
/// holds the time: the same for the list and for one account after an action.
macro_rules! account_columns {
    ($now:literal) => {
        concat!(
            "u.id, u.email, u.role, u.created_at, u.confirmed_at, u.last_sign_in_at, u.disabled_at, \
             u.approved_at, u.can_export, u.can_delete, u.can_mark_sent, u.can_import_spend, \
             (SELECT count(*) FROM staff_sessions s \
                WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > ",
            $now,
            ") AS live_sessions, \
             CASE WHEN u.role = ", role_sql!(Owner), " AND u.disabled_at IS NULL THEN ",
            alert_missed_at!("u.email"),
            " END AS alert_missed_at"
        )
    };
}

const LIST_SQL: &str = concat!(
    "SELECT ",
    account_columns!("?1"),
    " FROM staff_users u ORDER BY u.disabled_at IS NOT NULL, u.role != ",
    role_sql!(Owner),
    ", u.email"
);

const FIND_SQL: &str = concat!(
    "SELECT ",
    account_columns!("?2"),
    " FROM staff_users u WHERE u.id = ?1"
);

/// The owner acting (`?3`, from session `?6`) is still an active owner, on a
/// session that may still act, when the batch runs: one switched off,
/// removed or signed out since the request's own check changes nothing, so
/// two owners acting on each other at once cannot leave the panel without
/// one, and 'Encerrar sessões' stops an owner's actions already on their way.
macro_rules! actor_is_owner {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM staff_sessions ms JOIN staff_users me ON me.id = ms.user_id \
             WHERE ms.id = ?6 AND me.id = ?3 AND me.role = ",
            role_sql!(Owner),
            " AND ",
            may_act!("ms", "me", "?2"),
            ")"
        )
    };
}

const END_SESSIONS_SQL: &str = concat!(
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL AND ",
    actor_is_owner!()
);

/// The account (`email`) reaches the mailbox of the account `?1`, if this
/// batch switched `?1` off (at `?2`) and `?1` is that mailbox's own address,
/// as SQL: 'Desativar' on a person's address ends their access by every
/// address of theirs, while on an alias (`ana+x@`, which anyone can sign up
/// for Ana's mailbox) it ends that alias only.
macro_rules! in_mailbox_switched_off_now {
    () => {
        concat!(
            mailbox!("email"),
            " = (SELECT a.email FROM staff_users a WHERE a.id = ?1 AND a.disabled_at = ?2 AND a.email = ",
            mailbox!("a.email"),
            ")"
        )
    };
}

/// The person's other accounts still on (`ana+x@` beside `ana@`, made before
/// `ana@` was switched off), never the owner acting (`?3`), who stays an
/// active owner (the batch switched `?1` off only if `?3` was one).
const OTHER_ADDRESSES: &str = concat!(
    "disabled_at IS NULL AND id != ?3 AND ",
    in_mailbox_switched_off_now!()
);

/// After 'Desativar' (or 'Recusar'): every session of the account this batch
/// switched off ends, and of every account of its mailbox it took along.
const END_SESSIONS_OF_DISABLED_SQL: &str = concat!(
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE revoked_at IS NULL AND user_id IN \
       (SELECT id FROM staff_users WHERE disabled_at = ?2 AND (id = ?1 OR ",
    in_mailbox_switched_off_now!(),
    "))"
);

/// A colleague's right (`$column`) is `$value` now, so switching it changes
/// something; owners have every right and none to switch (`?3`, the owner
/// acting, must still be one).
macro_rules! staff_right_is {
    ($column:literal, $value:literal) => {
        concat!(
            "role = ",
            role_sql!(Staff),
            " AND ",
            $column,
            " = ",
            $value,
            " AND ",
            actor_is_owner!()
        )
    };
}

/// Another confirmed owner who is not switched off (`?1` is the account acted on).
macro_rules! another_active_owner {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM staff_users o WHERE o.role = ",
            role_sql!(Owner),
            " AND o.disabled_at IS NULL AND o.confirmed_at IS NOT NULL AND o.id != ?1)"
        )
    };
}

/// An account on the 'Equipe' page.
#[derive(Debug, Clone, Deserialize)]
pub struct AccountRow {
    pub id: String,
    pub email: String,
    pub role: Role,
    pub created_at: i64,
    pub confirmed_at: Option<i64>,
    pub last_sign_in_at: Option<i64>,
    pub disabled_at: Option<i64>,
    pub approved_at: Option<i64>,
    pub can_export: i64,
    pub can_delete: i64,
    pub can_mark_sent: i64,
    pub can_import_spend: i64,
    pub live_sessions: i64,
    /// For an owner still on: when the newest incident e-mail the e-mail API
    /// kept refusing to this address was written, if none reached it since.
    pub alert_missed_at: Option<i64>,
}

/// What an owner can do to an account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeamAction {
    /// 'Desativar': no sign-in, every session ends at once, for every
    /// address of the person's mailbox (`ana+x@` with `ana@`).
    Disable,
    /// 'Reativar'.
    Enable,
    /// 'Encerrar sessões': every session of the account ends.
    EndSessions,
    /// 'Tornar responsável'.
    MakeOwner,
    /// 'Remover responsável'.
    RemoveOwner,
    /// 'Aprovar': an account waiting for approval gets in.
    Approve,
    /// 'Recusar': an account waiting for approval is switched off instead.
    Refuse,
    /// What a colleague may do: 'Exportar CSV', 'Excluir' and 'Marcar
    /// Enviado', given or taken.
    AllowExport,
    DenyExport,
    AllowDelete,
    DenyDelete,
    AllowMarkSent,
    DenyMarkSent,
    /// 'Importar investimento': given or taken (nobody but owners has it at first).
    AllowImportSpend,
    DenyImportSpend,
}

impl TeamAction {
    pub fn parse(segment: &str) -> Option<Self> {
        Some(match segment {
            "disable" => TeamAction::Disable,
            "enable" => TeamAction::Enable,
            "end-sessions" => TeamAction::EndSessions,
            "make-owner" => TeamAction::MakeOwner,
            "remove-owner" => TeamAction::RemoveOwner,
            "approve" => TeamAction::Approve,
            "refuse" => TeamAction::Refuse,
            "allow-export" => TeamAction::AllowExport,
            "deny-export" => TeamAction::DenyExport,
            "allow-delete" => TeamAction::AllowDelete,
            "deny-delete" => TeamAction::DenyDelete,
            "allow-mark-sent" => TeamAction::AllowMarkSent,
            "deny-mark-sent" => TeamAction::DenyMarkSent,
            "allow-import-spend" => TeamAction::AllowImportSpend,
            "deny-import-spend" => TeamAction::DenyImportSpend,
            _ => return None,
        })
    }

    pub fn audited_as(self) -> Action {
        match self {
            TeamAction::Disable => Action::Disable,
            TeamAction::Enable => Action::Enable,
            TeamAction::EndSessions => Action::EndSessions,
            TeamAction::MakeOwner => Action::MakeOwner,
            TeamAction::RemoveOwner => Action::RemoveOwner,
            TeamAction::Approve => Action::Approve,
            TeamAction::Refuse => Action::Refuse,
            TeamAction::AllowExport
            | TeamAction::DenyExport
            | TeamAction::AllowDelete
            | TeamAction::DenyDelete
            | TeamAction::AllowMarkSent
            | TeamAction::DenyMarkSent
            | TeamAction::AllowImportSpend
            | TeamAction::DenyImportSpend => Action::Permissions,
        }
    }

    /// The right a permission change gives or takes, and which: its audit
    /// entry's detail, as SQL.
    fn detail(self) -> &'static str {
        match self {
            TeamAction::AllowExport => r#"json('{"right":"export","allowed":true}')"#,
            TeamAction::DenyExport => r#"json('{"right":"export","allowed":false}')"#,
            TeamAction::AllowDelete => r#"json('{"right":"delete","allowed":true}')"#,
            TeamAction::DenyDelete => r#"json('{"right":"delete","allowed":false}')"#,
            TeamAction::AllowMarkSent => r#"json('{"right":"mark_sent","allowed":true}')"#,
            TeamAction::DenyMarkSent => r#"json('{"right":"mark_sent","allowed":false}')"#,
            TeamAction::AllowImportSpend => r#"json('{"right":"import_spend","allowed":true}')"#,
            TeamAction::DenyImportSpend => r#"json('{"right":"import_spend","allowed":false}')"#,
            _ => "NULL",
        }
    }

    /// A permission change: owners always have every right.
    pub fn is_permission(self) -> bool {
        self.audited_as() == Action::Permissions
    }

    /// When the action changes the account `?1` (`?3`: the owner acting,
    /// who must still be an active owner).
    fn applies_to(self) -> &'static str {
        match self {
            TeamAction::Disable => concat!(
                "disabled_at IS NULL AND id != ?3 AND (role != ",
                role_sql!(Owner),
                " OR confirmed_at IS NULL OR ",
                another_active_owner!(),
                ") AND ",
                actor_is_owner!()
            ),
            TeamAction::Enable => concat!("disabled_at IS NOT NULL AND ", actor_is_owner!()),
            TeamAction::EndSessions => actor_is_owner!(),
            // Approved first: an owner gets every right and the new-lead e-mails.
            TeamAction::MakeOwner => concat!(
                "role = ",
                role_sql!(Staff),
                " AND confirmed_at IS NOT NULL AND approved_at IS NOT NULL \
                 AND disabled_at IS NULL AND ",
                actor_is_owner!()
            ),
            TeamAction::RemoveOwner => concat!(
                "role = ",
                role_sql!(Owner),
                " AND ",
                another_active_owner!(),
                " AND ",
                actor_is_owner!()
            ),
            TeamAction::Approve => concat!(
                "approved_at IS NULL AND confirmed_at IS NOT NULL AND disabled_at IS NULL AND ",
                actor_is_owner!()
            ),
            TeamAction::Refuse => concat!(
                "approved_at IS NULL AND disabled_at IS NULL AND id != ?3 AND ",
                actor_is_owner!()
            ),
            TeamAction::AllowExport => staff_right_is!("can_export", 0),
            TeamAction::DenyExport => staff_right_is!("can_export", 1),
            TeamAction::AllowDelete => staff_right_is!("can_delete", 0),
            TeamAction::DenyDelete => staff_right_is!("can_delete", 1),
            TeamAction::AllowMarkSent => staff_right_is!("can_mark_sent", 0),
            TeamAction::DenyMarkSent => staff_right_is!("can_mark_sent", 1),
            TeamAction::AllowImportSpend => staff_right_is!("can_import_spend", 0),
            TeamAction::DenyImportSpend => staff_right_is!("can_import_spend", 1),
        }
    }

    /// The change to the account itself, if the action has one.
    fn change(self) -> Option<&'static str> {
        match self {
            TeamAction::Disable => Some("UPDATE staff_users SET disabled_at = ?2"),
            // Back from being switched off: told of new leads from now on,
            // not of every lead it missed meanwhile.
            TeamAction::Enable => Some(concat!(
                "UPDATE staff_users SET disabled_at = NULL, notices_sent_through = ",
                notices_from_now!()
            )),
            TeamAction::EndSessions => None,
            // Owners get the new-lead notices by default (from now on).
            TeamAction::MakeOwner => Some(concat!(
                "UPDATE staff_users SET role = ",
                role_sql!(Owner),
                ", notices_sent_through = \
                 CASE WHEN lead_notices = 0 THEN ",
                notices_from_now!(),
                " ELSE notices_sent_through END, lead_notices = 1"
            )),
            TeamAction::RemoveOwner => {
                Some(concat!("UPDATE staff_users SET role = ", role_sql!(Staff)))
            }
            TeamAction::Approve => Some("UPDATE staff_users SET approved_at = ?2"),
            TeamAction::Refuse => Some("UPDATE staff_users SET disabled_at = ?2"),
            TeamAction::AllowExport => Some("UPDATE staff_users SET can_export = 1"),
            TeamAction::DenyExport => Some("UPDATE staff_users SET can_export = 0"),
            TeamAction::AllowDelete => Some("UPDATE staff_users SET can_delete = 1"),
            TeamAction::DenyDelete => Some("UPDATE staff_users SET can_delete = 0"),
            TeamAction::AllowMarkSent => Some("UPDATE staff_users SET can_mark_sent = 1"),
            TeamAction::DenyMarkSent => Some("UPDATE staff_users SET can_mark_sent = 0"),
            TeamAction::AllowImportSpend => Some("UPDATE staff_users SET can_import_spend = 1"),
            TeamAction::DenyImportSpend => Some("UPDATE staff_users SET can_import_spend = 0"),
        }
    }

    /// Ends every session of the account, once the change is made.
    fn ends_sessions(self) -> Option<&'static str> {
        match self {
            TeamAction::Disable | TeamAction::Refuse => Some(END_SESSIONS_OF_DISABLED_SQL),
            TeamAction::EndSessions => Some(END_SESSIONS_SQL),
            _ => None,
        }
    }
}

pub async fn list(db: &D1Database, now: i64) -> worker::Result<Vec<AccountRow>> {
    db::rows_of(&query!(db, LIST_SQL, now)).await
}

pub async fn find(db: &D1Database, id: &str, now: i64) -> worker::Result<Option<AccountRow>> {
    db::first(&query!(db, FIND_SQL, id, now)).await
}

/// The statements [`apply`] pushed that tell how it went.
pub struct Applied {
    /// The audit entry: it changed a row if the action applied.
    pub entry: db::Handle,
    /// A row if the acting owner's session may still act.
    pub session_live: db::Handle,
}

/// The audit entry, then the change, then what follows from it, all under
/// the action's condition, then whether the acting owner's session may
/// still act.
pub fn apply(
    batch: &mut db::Batch,
    db: &D1Database,
    action: TeamAction,
    account_id: &str,
    owner: &Staff,
    now: i64,
) -> Applied {
    let values = Values {
        account_id,
        now,
        owner,
        action,
    };
    let condition = action.applies_to();
    // One audit entry per account the statement's condition picks.
    let detail = action.detail();
    let audit = |accounts: &str| {
        values.bind(
            db,
            &format!(
                "INSERT INTO audit_log (at, staff_id, staff_email, action, account_id, detail) \
                 SELECT ?2, ?3, ?4, ?5, id, {detail} FROM staff_users WHERE {accounts}"
            ),
        )
    };
    let entry = batch.add(audit(&format!("id = ?1 AND {condition}")));
    if let Some(change) = action.change() {
        batch.add(values.bind(db, &format!("{change} WHERE id = ?1 AND {condition}")));
    }
    if action == TeamAction::Disable {
        // The person's other addresses go with it, each in the audit trail.
        batch.add(audit(OTHER_ADDRESSES));
        let change = format!("UPDATE staff_users SET disabled_at = ?2 WHERE {OTHER_ADDRESSES}");
        batch.add(values.bind(db, &change));
    }
    if let Some(sql) = action.ends_sessions() {
        batch.add(values.bind(db, sql));
    }
    let session_live = batch.add(values.bind(db, SESSION_LIVE_SQL));
    Applied {
        entry,
        session_live,
    }
}

/// Whether the acting owner's session (`?6`) may still act.
const SESSION_LIVE_SQL: &str = live_row!("?6", "?2");

/// What a team action's statements bind: `?1` the account acted on, `?2`
/// now, `?3` and `?4` the owner acting, `?5` the action's name in the audit
/// trail, `?6` the owner's session.
struct Values<'a> {
    account_id: &'a str,
    now: i64,
    owner: &'a Staff,
    action: TeamAction,
}

impl Values<'_> {
    /// Binds `?1`… up to the last one `sql` uses (D1 refuses more values
    /// than the statement has placeholders).
    fn bind(&self, db: &D1Database, sql: &str) -> D1PreparedStatement {
        let (id, now, owner) = (self.account_id, self.now, self.owner);
        let name = self.action.audited_as().name();
        let used = (1..=6).rev().find(|n| sql.contains(&format!("?{n}")));
        match used {
            Some(6) => query!(
                db,
                sql,
                id,
                now,
                owner.user_id,
                owner.email,
                name,
                owner.session_id
            ),
            Some(5) => query!(db, sql, id, now, owner.user_id, owner.email, name),
            Some(4) => query!(db, sql, id, now, owner.user_id, owner.email),
            Some(3) => query!(db, sql, id, now, owner.user_id),
            Some(2) => query!(db, sql, id, now),
            _ => query!(db, sql, id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_action_has_its_segment() {
        for (segment, action) in [
            ("disable", TeamAction::Disable),
            ("enable", TeamAction::Enable),
            ("end-sessions", TeamAction::EndSessions),
            ("make-owner", TeamAction::MakeOwner),
            ("remove-owner", TeamAction::RemoveOwner),
        ] {
            assert_eq!(TeamAction::parse(segment), Some(action));
        }
        assert_eq!(TeamAction::parse("delete"), None);
    }

    #[test]
    fn an_owner_can_be_switched_off_or_demoted_only_while_another_active_owner_remains() {
        for action in [TeamAction::Disable, TeamAction::RemoveOwner] {
            assert!(action.applies_to().contains(concat!(
                "o.role = ",
                role_sql!(Owner),
                " AND o.disabled_at IS NULL"
            )));
        }
        assert!(TeamAction::Disable.applies_to().contains("id != ?3"));
    }

    #[test]
    fn every_action_needs_its_owner_still_an_active_owner() {
        for action in [
            TeamAction::Disable,
            TeamAction::Enable,
            TeamAction::EndSessions,
            TeamAction::MakeOwner,
            TeamAction::RemoveOwner,
        ] {
            assert!(action.applies_to().contains(actor_is_owner!()));
        }
        assert!(END_SESSIONS_SQL.contains(actor_is_owner!()));
    }
}
