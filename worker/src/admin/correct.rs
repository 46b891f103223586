//! 'Corrigir WhatsApp': staff correct the number of a lead Jetimob has not
//! taken (or whose correction it refused), after checking it with the
//! person, before 'Reenviar'. The lead takes the number as a visitor's
//! correction or an accepted change gives it one (`crm::store::take_details!`,
//! as 'Aceitar' does): a lead Jetimob has gets a correction to deliver, one
//! it does not is sent with the new number. Audited in the same batch, only
//! while the session may act; the entry names the lead, never the numbers.
//!
//! `POST /api/leads/{id}/whatsapp` `{whatsapp}`.

use serde::Deserialize;
use worker::{Context, Env, Request, Response};

use super::actions::{Acting, act_with};
use crate::agency::messages;
use crate::audit::live_session::session_is_live;
use crate::auth::guard::Staff;
use crate::crm;
use crate::crm::store::{retry_applies, take_details};
use crate::formats::whatsapp::WhatsApp;
use crate::http::{self, ApiError, ApiResult, invalid_field};
use crate::platform::db::{self, D1PreparedStatement, query};
use crate::platform::{self, config};

/// Every statement binds: `?1` the lead, `?2` its name and `?3` its e-mail
/// as read (unchanged), `?4` the new number, `?5` the staff member's id,
/// `?6` now, `?7` the session, `?8` the staff member's e-mail.
macro_rules! correctable {
    () => {
        concat!(
            "name IS ?2 AND email IS ?3 AND whatsapp IS NOT ?4 AND ",
            retry_applies!(),
            " AND NOT EXISTS (SELECT 1 FROM leads o WHERE o.id != ?1 AND o.whatsapp = ?4) AND ",
            session_is_live!("?7", "?6")
        )
    };
}

const AUDIT_SQL: &str = concat!(
    "INSERT INTO audit_log (at, staff_id, staff_email, action, lead_id) \
     SELECT ?6, ?5, ?8, ",
    crate::audit::action_sql!(CorrectWhatsapp),
    ", id FROM leads WHERE id = ?1 AND ",
    correctable!()
);
const CORRECT_SQL: &str = concat!(
    "UPDATE leads SET ",
    take_details!(),
    " WHERE id = ?1 AND ",
    correctable!(),
    " AND ?5 IS ?5 AND ?8 IS ?8 \
     RETURNING id, (update_status IS 'pending' AND update_requested_at IS ?6) AS corrected"
);
const LEAD_SQL: &str = "SELECT name, email, whatsapp, delivery_status, update_status, \
     EXISTS (SELECT 1 FROM leads o WHERE o.id != ?1 AND o.whatsapp = ?2) AS taken \
     FROM leads WHERE id = ?1";

#[derive(Deserialize)]
struct LeadNow {
    name: String,
    email: String,
    whatsapp: String,
    delivery_status: String,
    update_status: Option<String>,
    taken: i64,
}

#[derive(Deserialize)]
struct Corrected {
    corrected: i64,
}

/// `POST /api/leads/{id}/whatsapp`.
pub async fn correct(
    req: &mut Request,
    env: &Env,
    ctx: &Context,
    staff: &Staff,
    id: &str,
) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let body = http::read_json_object(req).await?;
    let raw = body.text_or_empty("whatsapp");
    let number = WhatsApp::parse(&raw).map_err(|message| invalid_field(message, "whatsapp"))?;
    let db = config::database(env)?;
    let Some(lead) = db::first::<LeadNow>(&query!(&db, LEAD_SQL, id, number.as_str())).await?
    else {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    };
    if lead.whatsapp == number.as_str() {
        return Err(invalid_field(messages::WHATSAPP_UNCHANGED, "whatsapp"));
    }
    if lead.taken == 1 {
        return Err(invalid_field(
            messages::WHATSAPP_OF_ANOTHER_LEAD,
            "whatsapp",
        ));
    }
    if lead.delivery_status == "sent" && lead.update_status.as_deref() != Some("failed") {
        return Err(ApiError::Conflict(messages::WHATSAPP_IN_CRM.into()));
    }
    let now = platform::now_ms();
    let bind = |sql: &str| -> D1PreparedStatement {
        query!(
            &db,
            sql,
            id,
            lead.name,
            lead.email,
            number.as_str(),
            staff.user_id,
            now,
            staff.session_id,
            staff.email
        )
    };
    let mut acting = Acting::new(bind(AUDIT_SQL));
    let done = acting.change::<Corrected>(bind(CORRECT_SQL));
    let results = act_with(&db, staff, acting, now).await?;
    let Some(done) = results.first(done)? else {
        // Changed meanwhile (by the visitor, another colleague, the CRM).
        return Err(ApiError::Conflict(
            messages::WHATSAPP_CHANGED_MEANWHILE.into(),
        ));
    };
    if done.corrected == 1 {
        // Jetimob has the lead: it learns the number now, as from the form.
        ctx.wait_until(crm::deliver_correction(env.clone(), id.to_string()));
    }
    http::success_only()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crm::store::needs_correction;

    /// D1 refuses a statement whose highest placeholder is not the last value bound.
    #[test]
    fn both_statements_bind_their_eight_values() {
        for sql in [AUDIT_SQL, CORRECT_SQL] {
            assert!(sql.contains("?8"), "{sql}");
            assert!(!sql.contains("?9"), "{sql}");
        }
    }

    #[test]
    fn a_lead_jetimob_has_gets_a_correction_as_a_visitors_would() {
        assert!(CORRECT_SQL.contains(needs_correction!()));
        assert!(AUDIT_SQL.ends_with(correctable!()));
    }
}
