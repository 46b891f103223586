//! 'Alteração pendente': new details for a lead, sent from a browser that
//! did not prove it sent the lead, wait for staff. 'Aceitar' gives the lead
//! those details (and the CRM a correction, for a lead it has); 'Recusar'
//! keeps the lead as it is. Each is audited in the batch that makes it, and
//! only while the staff session may act.
//!
//! `POST /api/leads/{id}/changes/{submission}/accept` and `…/refuse`.

use serde::Deserialize;
use worker::{Context, Env, Request, Response};

use super::actions::{Acting, act_with};
use crate::agency::messages;
use crate::attribution::attribution_columns;
use crate::audit::live_session::session_is_live;
use crate::audit::{Action, action_sql};
use crate::auth::guard::Staff;
use crate::crm;
use crate::crm::store::take_details;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::db::{self, D1Database, D1PreparedStatement, query};
use crate::platform::{self, config};

/// What staff decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Accept,
    Refuse,
}

/// The details a pending change brings.
#[derive(Deserialize)]
struct ChangeRow {
    name: String,
    email: String,
    whatsapp: String,
}

/// The change `?2` of lead `?1`, while it waits.
const PENDING_SQL: &str = "SELECT name, email, whatsapp FROM lead_submissions \
     WHERE id = ?2 AND lead_id = ?1 AND kind = 'pending'";

/// Nobody else has the e-mail `?3` or the WhatsApp `?4`: the lead may take them.
macro_rules! free_for_the_lead {
    () => {
        "NOT EXISTS (SELECT 1 FROM leads o WHERE o.id != ?1 AND (o.email = ?3 OR o.whatsapp = ?4))"
    };
}

/// Change `?5` of lead `?1` waits, and session `?7` may act at `?6`.
macro_rules! still_waiting {
    () => {
        concat!(
            "EXISTS (SELECT 1 FROM lead_submissions WHERE id = ?5 AND lead_id = ?1 AND kind = 'pending') \
             AND ",
            session_is_live!("?7", "?6")
        )
    };
}

/// Every statement of a decision binds the same values: `?1` the lead, `?2`
/// name, `?3` e-mail, `?4` WhatsApp (the change's), `?5` the change, `?6`
/// now, `?7` the session, `?8` the staff member's id, `?9` e-mail, `?10` the
/// action's name.
const AUDIT_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
     SELECT ?6, ?8, ?9, ?10, ?1 WHERE ",
    still_waiting!(),
    " AND (?10 = ",
    action_sql!(RefuseChange),
    " OR ",
    free_for_the_lead!(),
    ")"
);

/// 'Aceitar': the lead takes the change's details.
const ACCEPT_SQL: &str = concat!(
    "UPDATE leads SET ",
    take_details!(),
    " WHERE id = ?1 AND ?10 = ",
    action_sql!(AcceptChange),
    " AND ",
    free_for_the_lead!(),
    " AND ",
    still_waiting!(),
    " RETURNING id, (update_status IS 'pending' AND update_requested_at IS ?6) AS corrected"
);

/// The accepted change becomes the lead's correction: a submission of its
/// own (a new id, so the new-lead notices and the webhook hear of it), in
/// the place of the one that waited.
const CORRECTION_SQL: &str = concat!(
    "INSERT INTO lead_submissions (lead_id, submitted_at, name, email, whatsapp, origem, kind, ",
    attribution_columns!(),
    ") SELECT lead_id, submitted_at, name, email, whatsapp, origem, 'correction', ",
    attribution_columns!(),
    " FROM lead_submissions s WHERE ?10 = ",
    action_sql!(AcceptChange),
    " AND ",
    still_waiting!(),
    " AND s.id = ?5 AND EXISTS (SELECT 1 FROM leads l WHERE l.id = ?1 \
       AND l.name IS ?2 AND l.email IS ?3 AND l.whatsapp IS ?4)"
);

/// The change that waited goes: accepted, it is the correction above;
/// refused, it stays in the lead's story as 'refused'.
const SETTLE_SQL: &str = concat!(
    "UPDATE lead_submissions SET kind = 'refused', sender = NULL WHERE ?10 = ",
    action_sql!(RefuseChange),
    " AND id = ?5 AND ",
    still_waiting!(),
    " RETURNING id"
);
const DROP_ACCEPTED_SQL: &str = concat!(
    "DELETE FROM lead_submissions WHERE ?10 = ",
    action_sql!(AcceptChange),
    " AND id = ?5 AND ",
    still_waiting!(),
    " AND EXISTS (SELECT 1 FROM leads l WHERE l.id = ?1 \
       AND l.name IS ?2 AND l.email IS ?3 AND l.whatsapp IS ?4) RETURNING id"
);

/// 'Recusar todas': one entry in the activity for each change of lead `?1`
/// that waits, while session `?3` may act at `?2` (`?4`, `?5`: who).
const AUDIT_REFUSE_ALL_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
     SELECT ?2, ?4, ?5, ",
    action_sql!(RefuseChange),
    ", ?1 FROM lead_submissions WHERE lead_id = ?1 AND kind = 'pending' AND ",
    session_is_live!("?3", "?2")
);
/// …and every one of them refused.
const REFUSE_ALL_SQL: &str = concat!(
    "UPDATE lead_submissions SET kind = 'refused', sender = NULL \
     WHERE lead_id = ?1 AND kind = 'pending' AND ?4 IS ?4 AND ?5 IS ?5 AND ",
    session_is_live!("?3", "?2"),
    " RETURNING id"
);

/// `POST /api/leads/{id}/changes/refuse-all`: every change that waits on the
/// lead is refused at once (a flood of them, say), each in the activity.
pub async fn refuse_all(
    req: &Request,
    env: &Env,
    staff: &Staff,
    lead_id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let bind = |sql: &str| -> D1PreparedStatement {
        query!(
            &db,
            sql,
            lead_id,
            now,
            staff.session_id,
            staff.user_id,
            staff.email
        )
    };
    let mut acting = Acting::new(bind(AUDIT_REFUSE_ALL_SQL));
    let refused = acting.change::<serde::de::IgnoredAny>(bind(REFUSE_ALL_SQL));
    let results = act_with(&db, staff, acting, now).await?;
    if !results.returned_row(refused) {
        return Err(ApiError::Conflict(messages::NO_CHANGE_WAITING.into()));
    }
    http::success(&RefusedAll {
        refused: results.rows(refused)?.len(),
    })
}

#[derive(serde::Serialize)]
struct RefusedAll {
    refused: usize,
}

#[derive(Deserialize)]
struct AcceptedRow {
    corrected: i64,
}

/// `POST /api/leads/{id}/changes/{change}/accept|refuse`.
pub async fn decide(
    req: &Request,
    env: &Env,
    ctx: &Context,
    staff: &Staff,
    lead_id: &str,
    change: &str,
    decision: Decision,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let change_id: i64 = change
        .parse()
        .map_err(|_| ApiError::NotFound(messages::CHANGE_NOT_FOUND.into()))?;
    let db = config::database(env)?;
    let Some(details) =
        db::first::<ChangeRow>(&query!(&db, PENDING_SQL, lead_id, change_id)).await?
    else {
        return Err(ApiError::Conflict(messages::CHANGE_NOT_PENDING.into()));
    };
    let now = platform::now_ms();
    let action = match decision {
        Decision::Accept => Action::AcceptChange,
        Decision::Refuse => Action::RefuseChange,
    }
    .name();
    let bind = |sql: &str| -> D1PreparedStatement {
        query!(
            &db,
            sql,
            lead_id,
            details.name,
            details.email,
            details.whatsapp,
            change_id,
            now,
            staff.session_id,
            staff.user_id,
            staff.email,
            action,
        )
    };
    let mut acting = Acting::new(bind(AUDIT_SQL));
    let accepted = acting.change::<AcceptedRow>(bind(ACCEPT_SQL));
    acting.add(bind(CORRECTION_SQL));
    let settle = acting.add(bind(SETTLE_SQL));
    let dropped = acting.add(bind(DROP_ACCEPTED_SQL));
    let results = act_with(&db, staff, acting, now).await?;
    let settled = results.returned_row(settle) || results.returned_row(dropped);
    if !settled {
        return Err(unsettled(&db, lead_id, change_id, decision).await);
    }
    if let Some(accepted) = results.first(accepted)?
        && accepted.corrected == 1
    {
        // The CRM has the lead: it learns the new details now, as from the form.
        ctx.wait_until(crm::deliver_correction(env.clone(), lead_id.to_string()));
    }
    http::success_only()
}

/// Why a decision changed nothing: the change was settled meanwhile, or
/// (accepting) its e-mail or WhatsApp is another lead's now.
async fn unsettled(db: &D1Database, lead_id: &str, change_id: i64, decision: Decision) -> ApiError {
    match db::first::<ChangeRow>(&query!(db, PENDING_SQL, lead_id, change_id)).await {
        Ok(Some(_)) if decision == Decision::Accept => {
            ApiError::Conflict(messages::CHANGE_TAKEN_BY_ANOTHER_LEAD.into())
        }
        Ok(_) => ApiError::Conflict(messages::CHANGE_NOT_PENDING.into()),
        Err(error) => error.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crm::store::{given_up_and_moot, needs_correction};

    /// D1 refuses a statement whose highest placeholder is not the last value bound.
    #[test]
    fn every_statement_uses_the_tenth_value() {
        for sql in [
            AUDIT_SQL,
            ACCEPT_SQL,
            CORRECTION_SQL,
            SETTLE_SQL,
            DROP_ACCEPTED_SQL,
        ] {
            assert!(sql.contains("?10"), "{sql}");
            assert!(!sql.contains("?11"), "{sql}");
        }
    }

    #[test]
    fn refusing_all_binds_its_five_values_in_both_statements() {
        for sql in [AUDIT_REFUSE_ALL_SQL, REFUSE_ALL_SQL] {
            assert!(sql.contains("?5"), "{sql}");
            assert!(!sql.contains("?6"), "{sql}");
        }
    }

    #[test]
    fn an_accepted_change_is_corrected_by_the_crm_as_a_visitors_would_be() {
        assert!(ACCEPT_SQL.contains(needs_correction!()));
        assert!(ACCEPT_SQL.contains(given_up_and_moot!()));
    }
}
