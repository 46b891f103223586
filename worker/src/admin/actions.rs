//! The actions on a lead: 'Marcar Enviado' and its 'Desfazer', 'Reenviar'
//! (to Jetimob, to Meta) and delete; and the batch every action on a lead
//! is written in, audited and only while the staff session may act.

use serde::Serialize;
use worker::{Env, Request, Response};

use super::shown::{Shown, shown_lead};
use super::store::{self, Action, LeadRow, StatusRow};
use crate::agency::messages;
use crate::auth::guard::{self, Staff};
use crate::crm::status::Delivery;
use crate::crm::{self, Outcome};
use crate::delivery;
use crate::http::{self, ApiError, ApiResult};
use crate::platform::db::{self, Batch, D1Database, D1PreparedStatement, Handle, Results, Unread};
use crate::platform::{self, config};

/// Writes a lead action's audit entry and its change (`change`), and reads
/// whether the staff session may still act, in one batch. Both are written
/// only while it may, so a session ended (or its account switched off)
/// between the request's check and this batch changes nothing, and answers
/// 401 like any ended session.
async fn act<T>(
    db: &D1Database,
    staff: &Staff,
    action: Action,
    id: &str,
    now: i64,
    change: D1PreparedStatement,
) -> ApiResult<(Results, Handle<T>)> {
    let mut acting = Acting::new(store::audit(db, staff, action, id, now));
    let change = acting.change(change);
    Ok((act_with(db, staff, acting, now).await?, change))
}

/// A lead action's batch: its audit entry, then the changes the caller
/// pushes (a row back from any of them says the action did something).
pub(super) struct Acting {
    batch: Batch,
    changes: Vec<Handle>,
}

impl Acting {
    pub(super) fn new(audit: D1PreparedStatement) -> Self {
        let mut batch = Batch::new();
        batch.add(audit);
        Self {
            batch,
            changes: Vec::new(),
        }
    }

    pub(super) fn change<T>(&mut self, statement: D1PreparedStatement) -> Handle<T> {
        let change = self.batch.push(statement);
        self.changes.push(change.unread());
        change
    }

    /// A change whose rows are not read.
    pub(super) fn add(&mut self, statement: D1PreparedStatement) -> Handle {
        self.change(statement)
    }
}

/// [`act`] with an audit entry and changes of the caller's own, read
/// through the handles [`Acting::change`] answered.
pub(super) async fn act_with(
    db: &D1Database,
    staff: &Staff,
    acting: Acting,
    now: i64,
) -> ApiResult<Results> {
    let Acting { mut batch, changes } = acting;
    let live = batch.add(store::session_live(db, staff, now));
    let results = batch.run(db).await?;
    let changed = changes.iter().any(|&change| results.returned_row(change));
    if !changed && !results.returned_row(live) {
        return Err(ApiError::Unauthorized(
            messages::AUTH_SESSION_REQUIRED.into(),
        ));
    }
    Ok(results)
}

/// Why an action changed nothing: the lead is gone, or already sent.
async fn unchanged(env: &Env, id: &str) -> ApiError {
    let status = match config::database(env) {
        Ok(db) => store::status(&db, id).await,
        Err(e) => Err(e),
    };
    match status {
        Ok(None) => ApiError::NotFound(messages::LEAD_NOT_FOUND.into()),
        Ok(Some(_)) => ApiError::Conflict(messages::LEAD_ALREADY_SENT.into()),
        Err(e) => e.into(),
    }
}

/// `POST /api/leads/{id}/mark-sent` `{name?, email?, whatsapp?}`: 'Marcar
/// Enviado', with the details the panel showed (what staff entered in the CRM).
pub(super) async fn mark_sent(
    req: &mut Request,
    env: &Env,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    require_mark_sent(staff)?;
    let body = http::read_json_object(req).await?;
    let field = |key| {
        body.text(key)
            .map_err(|()| ApiError::BadRequest(messages::INVALID_JSON.into()))
    };
    let entered = crm::store::Entered {
        name: field("name")?,
        email: field("email")?,
        whatsapp: field("whatsapp")?,
    };
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::mark_sent_by_staff(&db, id, now, &entered, &staff.session_id);
    let (results, marked) = act::<Unread>(&db, staff, Action::MarkSent, id, now, change).await?;
    if !results.returned_row(marked) {
        return Err(unchanged(env, id).await);
    }
    http::success_only()
}

/// `POST /api/leads/{id}/unmark-sent`: 'Desfazer' right after 'Marcar
/// Enviado' puts the lead back as it was, its automatic delivery resumed;
/// only within a minute of the mark, and by whoever marked it or an owner.
/// Answers the lead's delivery status again ('pending' or 'failed').
pub(super) async fn unmark_sent(
    req: &Request,
    env: &Env,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    require_mark_sent(staff)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::unmark_sent_by_staff(&db, id, now, &staff.session_id, &staff.user_id);
    let (results, back) = act::<StatusRow>(&db, staff, Action::UnmarkSent, id, now, change).await?;
    let Some(back) = results.first(back)? else {
        let state = crm::store::mark_state(&db, id).await?;
        let owner = staff.role == guard::Role::Owner;
        return Err(not_unmarked(state.as_ref(), &staff.user_id, owner, now));
    };
    http::success(&back)
}

/// 'Marcar Enviado' and its 'Desfazer' need the right an owner may take.
fn require_mark_sent(staff: &Staff) -> ApiResult<()> {
    if !staff.rights.mark_sent {
        return Err(ApiError::Forbidden(messages::MARK_SENT_NOT_ALLOWED.into()));
    }
    Ok(())
}

/// Why 'Desfazer' by the staff member `me` (an owner or not) changed
/// nothing, from the lead as it is now (`None`: gone).
fn not_unmarked(
    state: Option<&crm::store::MarkState>,
    me: &str,
    owner: bool,
    now: i64,
) -> ApiError {
    let Some(lead) = state else {
        return ApiError::NotFound(messages::LEAD_NOT_FOUND.into());
    };
    let within_window = lead
        .sent_at
        .is_some_and(|at| at > now - crm::store::UNMARK_WINDOW_MS);
    let someone_else = lead.marked_by_id.as_ref().is_some_and(|by| by != me);
    let message =
        if lead.delivery_status != Delivery::Sent || lead.sent_by.as_deref() != Some("staff") {
            messages::UNMARK_NOT_MARKED
        } else if lead.crm_took_it != 0 {
            messages::UNMARK_CRM_TOOK_IT
        } else if !within_window {
            messages::UNMARK_TOO_LATE
        } else if someone_else && !owner {
            messages::UNMARK_NOT_YOURS
        } else {
            // Sent by staff a moment ago, but not by a 'Marcar Enviado' of its own.
            messages::UNMARK_NOT_MARKED
        };
    ApiError::Conflict(message.into())
}

/// `DELETE /api/leads/{id}`.
pub(super) async fn delete(
    req: &Request,
    env: &Env,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if !staff.rights.delete {
        return Err(ApiError::Forbidden(messages::DELETE_NOT_ALLOWED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = store::delete(&db, staff, id, now);
    let (results, deleted) = act::<Unread>(&db, staff, Action::Delete, id, now, change).await?;
    if !results.returned_row(deleted) {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    }
    http::success_only()
}

/// `POST /api/leads/{id}/resend`: 'Reenviar' makes the lead (or the
/// correction the CRM refused) due now and tries it at once; the answer says
/// how that attempt went.
pub(super) async fn resend(
    req: &Request,
    env: &Env,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if !crm::is_configured(env) {
        return Err(ApiError::Conflict(messages::CRM_NOT_CONFIGURED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::retry_now(&db, id, now, &staff.session_id);
    let (results, due) = act::<StatusRow>(&db, staff, Action::Resend, id, now, change).await?;
    let Some(due) = results.first(due)? else {
        return Err(unchanged(env, id).await);
    };
    // A lead the CRM has is resent for its correction.
    let outcome = if due.delivery_status == Delivery::Sent {
        crm::attempt_correction(env, id).await?
    } else {
        crm::attempt(env, id).await?
    };
    let lead = store::find(&db, id).await?;
    let (delivered, last_error) = match &outcome {
        Outcome::Delivered => (true, None),
        Outcome::Failed { last_error, .. } => (false, Some(last_error.as_str())),
        Outcome::NotClaimed | Outcome::NotConfigured => (false, None),
    };
    http::success(&Resent {
        delivered,
        last_error,
        lead: lead.as_ref().map(shown_lead),
    })
}

/// 'Reenviar' to Meta, while its 7 days last: the lead's event is due now,
/// in the activity ('resend', with the destination), and is sent at once.
const AUDIT_RESEND_META_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id, detail) \
     SELECT ?2, ?4, ?5, ",
    crate::audit::action_sql!(Resend),
    ", ?1, json_object('destino', 'meta') WHERE EXISTS (SELECT 1 FROM deliveries WHERE lead_id = ?1 AND destination = 'meta' \
       AND status IN ('failed', 'pending') AND event_at >= ?6) AND ",
    crate::audit::live_session::session_is_live!("?3", "?2")
);

/// `POST /api/leads/{id}/resend/meta`.
pub(super) async fn resend_to_meta(
    req: &Request,
    env: &Env,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if delivery::meta::Settings::from_env(env).is_none() {
        return Err(ApiError::Conflict(messages::META_NOT_CONFIGURED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let since = now - delivery::meta::WINDOW_MS;
    let audit = db::query!(
        &db,
        AUDIT_RESEND_META_SQL,
        id,
        now,
        staff.session_id,
        staff.user_id,
        staff.email,
        since
    );
    let change = delivery::store::retry(&db, id, delivery::meta::DESTINATION, now, since);
    let mut acting = Acting::new(audit);
    let retried = acting.add(change);
    let results = act_with(&db, staff, acting, now).await?;
    if !results.returned_row(retried) {
        return Err(ApiError::Conflict(messages::META_NOT_RESENDABLE.into()));
    }
    let sent = delivery::resend_to_meta(env, id).await?;
    http::success(&ResentToMeta {
        delivered: sent.is_ok(),
        last_error: sent.err(),
    })
}

/// The answer of 'Reenviar' to Meta.
#[derive(Serialize)]
struct ResentToMeta {
    delivered: bool,
    last_error: Option<String>,
}

/// The answer of 'Reenviar': how the attempt went, and the lead as it is now.
#[derive(Serialize)]
struct Resent<'a> {
    delivered: bool,
    last_error: Option<&'a str>,
    lead: Option<Shown<'a, LeadRow>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(state: Option<&crm::store::MarkState>, by: (&str, bool), now: i64) -> String {
        match not_unmarked(state, by.0, by.1, now) {
            ApiError::Conflict(message) => message,
            ApiError::NotFound(message) => format!("404 {message}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn desfazer_refused_says_why() {
        let now = 1_767_225_600_000;
        let marked = crm::store::MarkState {
            delivery_status: Delivery::Sent,
            sent_by: Some("staff".into()),
            sent_at: Some(now - 5_000),
            marked_by_id: Some("ana".into()),
            crm_took_it: 0,
        };
        let ana = ("ana", false);
        let bia = ("bia", false);
        let owner = ("dono", true);
        let cases = [
            (None, ana, format!("404 {}", messages::LEAD_NOT_FOUND)),
            (
                Some(crm::store::MarkState {
                    delivery_status: Delivery::Pending,
                    sent_by: None,
                    sent_at: None,
                    marked_by_id: None,
                    crm_took_it: 0,
                }),
                ana,
                messages::UNMARK_NOT_MARKED.into(),
            ),
            (
                Some(crm::store::MarkState {
                    sent_by: Some("crm".into()),
                    ..marked.clone()
                }),
                ana,
                messages::UNMARK_NOT_MARKED.into(),
            ),
            (
                Some(crm::store::MarkState {
                    crm_took_it: 1,
                    ..marked.clone()
                }),
                ana,
                messages::UNMARK_CRM_TOOK_IT.into(),
            ),
            (
                Some(crm::store::MarkState {
                    sent_at: Some(now - crm::store::UNMARK_WINDOW_MS),
                    ..marked.clone()
                }),
                ana,
                messages::UNMARK_TOO_LATE.into(),
            ),
            (Some(marked.clone()), bia, messages::UNMARK_NOT_YOURS.into()),
            (
                Some(marked.clone()),
                owner,
                messages::UNMARK_NOT_MARKED.into(),
            ),
        ];
        for (state, by, expected) in cases {
            assert_eq!(refusal(state.as_ref(), by, now), expected, "{state:?}");
        }
    }
}
