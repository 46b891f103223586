//! The staff panel's API under `/api/leads`: list with counters, CSV export,
//! 'Marcar Enviado', 'Reenviar' and delete. Every call needs a live staff
//! session; changes also need our own Origin, and each one is audited.

mod changes;
mod lead_csv;
pub mod query;
mod store;

use futures_util::{StreamExt, stream};
use sha2::{Digest, Sha256};
use worker::{Context, Env};

use crate::audit::{self, Actor, Subject};
use crate::auth::guard::{self, Staff};
use crate::crm::{self, Outcome};
use crate::d1::{D1Database, D1PreparedStatement, D1Result};
use crate::dates::{self, iso};
use crate::http::{self, ApiError, ApiResult};
use crate::json::{self, Json};
use crate::leads::domain::format_whatsapp;
use crate::web::{self, Headers, Method, Request, Response};
use crate::{config, d1, messages, platform};
use changes::Decision;
use query::{Cursor, LeadQuery, PAGE_SIZE, StatusFilter};
use store::{Action, Counts, LeadRow, StatusRow};

/// Rows per D1 query of the export; 100,000 leads take 50 queries.
const EXPORT_BATCH: i64 = 2_000;

pub async fn route(req: Request, env: &Env, ctx: &Context, path: &str) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let rest = path.trim_start_matches("/api/leads");
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match (segments.as_slice(), req.method()) {
        ([], Method::Get) => list(&req, env).await,
        (["export.csv"], Method::Get) => export(&req, env, &staff).await,
        ([id], Method::Get) => story(env, id).await,
        ([id, "mark-sent"], Method::Post) => mark_sent(&req, env, &staff, id).await,
        ([id, "resend"], Method::Post) => resend(&req, env, &staff, id).await,
        ([id, "unmark-sent"], Method::Post) => unmark_sent(&req, env, &staff, id).await,
        ([id], Method::Delete) => delete(&req, env, &staff, id).await,
        ([id, "changes", change, "accept"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Accept).await
        }
        ([id, "changes", change, "refuse"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Refuse).await
        }
        ([_, "changes", _, "accept" | "refuse"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([] | ["export.csv"], _) => Err(ApiError::MethodNotAllowed("GET")),
        ([_, "mark-sent" | "resend"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([_, "unmark-sent"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([_], _) => Err(ApiError::MethodNotAllowed("GET, DELETE")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}

/// A lead as the panel shows it: timestamps in ISO 8601 (UTC), the WhatsApp
/// number also formatted; `update_status` is the correction the CRM still
/// has to learn ('pending', 'failed' or null), `duplicate_of` another lead a
/// submission tied this one to ('Possível duplicado').
fn lead_json(l: &LeadRow) -> json::Object {
    let last_touch = l.last_touch().map(|t| {
        json::object()
            .field("at", iso(t.at))
            .field("origem", &t.origem)
            .field("utm_source", &t.utm_source)
            .field("utm_medium", &t.utm_medium)
            .field("utm_campaign", &t.utm_campaign)
            .field("gclid", &t.gclid)
            .field("fbclid", &t.fbclid)
    });
    json::object()
        .field("id", &l.id)
        .field("name", &l.name)
        .field("email", &l.email)
        .field("whatsapp", &l.whatsapp)
        .field("whatsapp_display", format_whatsapp(&l.whatsapp))
        .field("origem", &l.origem)
        .field("jetimob_enviado", l.jetimob_enviado == 1)
        .field("delivery_status", &l.delivery_status)
        .field("delivery_attempts", l.delivery_attempts)
        .field("next_attempt_at", l.next_attempt_at.and_then(iso))
        .field("last_error", &l.last_error)
        .field("sent_at", l.sent_at.and_then(iso))
        .field("sent_by", &l.sent_by)
        .field("created_at", iso(l.created_at))
        .field("submission_count", l.submission_count)
        .field("last_submitted_at", iso(l.last_submitted_at))
        .field("utm_source", &l.utm_source)
        .field("utm_medium", &l.utm_medium)
        .field("utm_campaign", &l.utm_campaign)
        .field("utm_term", &l.utm_term)
        .field("utm_content", &l.utm_content)
        .field("gclid", &l.gclid)
        .field("fbclid", &l.fbclid)
        .field("referrer", &l.referrer)
        .field("source", &l.source)
        .field("referrer_host", &l.referrer_host)
        .field("page_url", &l.page_url)
        .field("update_status", &l.update_status)
        .field("update_last_error", &l.update_last_error)
        .field("duplicate_of", &l.duplicate_of)
        .field("last_touch", last_touch)
        .field("pending_changes", l.pending_changes)
        .field("marked_by", &l.marked_by)
}

/// `GET /api/leads/{id}`: the lead's story (its newest entries, see
/// `store::STORY_NEWEST`).
async fn story(env: &Env, id: &str) -> ApiResult<Response> {
    let db = config::database(env)?;
    let Some(story) = store::story(&db, id).await? else {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    };
    let submissions = Json::array(story.submissions.iter().map(|s| {
        json::object()
            .field("id", s.id)
            .field("at", iso(s.submitted_at))
            .field("name", &s.name)
            .field("email", &s.email)
            .field("whatsapp", &s.whatsapp)
            .field("whatsapp_display", format_whatsapp(&s.whatsapp))
            .field("origem", &s.origem)
            .field("utm_source", &s.utm_source)
            .field("utm_medium", &s.utm_medium)
            .field("utm_campaign", &s.utm_campaign)
            .field("utm_term", &s.utm_term)
            .field("utm_content", &s.utm_content)
            .field("gclid", &s.gclid)
            .field("fbclid", &s.fbclid)
            .field("referrer", &s.referrer)
            .field("page_url", &s.page_url)
            .field("kind", &s.kind)
            .end()
    }));
    let attempts = Json::array(story.attempts.iter().map(|a| {
        json::object()
            .field("id", a.id)
            .field("at", iso(a.at))
            .field("kind", &a.kind)
            .field("outcome", &a.outcome)
            .field("detail", &a.detail)
            .end()
    }));
    let actions = Json::array(story.actions.iter().map(|a| {
        json::object()
            .field("id", a.id)
            .field("at", iso(a.at))
            .field("staff_email", &a.staff_email)
            .field("action", &a.action)
            .end()
    }));
    let linked = Json::array(story.linked.iter().map(|l| {
        json::object()
            .field("id", &l.id)
            .field("name", &l.name)
            .field("email", &l.email)
            .field("whatsapp_display", format_whatsapp(&l.whatsapp))
            .end()
    }));
    // What the page leaves out (the oldest after the first submission, the
    // oldest attempts and actions), for it to say so.
    let hidden = json::object()
        .field(
            "submissions",
            story.totals.submissions - story.submissions.len() as i64,
        )
        .field(
            "attempts",
            story.totals.attempts - story.attempts.len() as i64,
        )
        .field("actions", story.totals.actions - story.actions.len() as i64);
    http::success(
        json::object()
            .field("lead", lead_json(&story.lead))
            .field("submissions", submissions)
            .field("attempts", attempts)
            .field("actions", actions)
            .field("possible_duplicates", linked)
            .field("hidden", hidden)
            .field("crm_configured", crm::is_configured(env)),
    )
}

/// How many leads a filter covers, from the counters alone.
fn filtered_total(status: StatusFilter, counts: &Counts) -> i64 {
    match status {
        StatusFilter::All => counts.total(),
        StatusFilter::Pending => counts.pending + counts.failed,
        StatusFilter::Sent => counts.sent,
        StatusFilter::Failed => counts.attention,
        StatusFilter::Duplicates => counts.duplicates,
        StatusFilter::PendingChanges => counts.pending_changes,
    }
}

/// `GET /api/leads?status=&q=&page=[&after=|&before=]`: a page of 50, newest
/// first, the counters and the open delivery incident. `first` and `last`
/// are the keys 'Anterior' and 'Próxima' send back as `before` and `after`.
///
/// The answer is tagged (`ETag`) with what it depends on: the address, the
/// change counter, the banner and whether the CRM is set up. A reload that
/// sends the tag back (`If-None-Match`) while none of them moved is answered
/// 304 after reading a few rows, not the page and every match of a search.
async fn list(req: &Request, env: &Env) -> ApiResult<Response> {
    let url = http::RequestUrl::of(req)?;
    let q = LeadQuery::from_url(&url);
    let db = config::database(env)?;
    let crm_configured = crm::is_configured(env);
    let tag_of = |state: &store::ListState, incident: &Json| {
        list_tag(url.query(), crm_configured, state.changes, incident)
    };
    // What a tag that no longer matches cost before the page was read.
    let mut probed = 0;
    if let Some(known) = req.header("If-None-Match") {
        let state = store::list_state(&db).await?;
        probed = state.rows_read;
        let tag = tag_of(&state, &incident_json(&state, platform::now_ms()));
        if let Some(tag) = tag.filter(|tag| tag_matches(&known, tag)) {
            let response = Response::empty(304);
            response.headers().set("ETag", &tag);
            response
                .headers()
                .set("D1-Rows-Read", &state.rows_read.to_string());
            return Ok(response);
        }
    }
    let page = store::page_and_counts(&db, &q).await?;
    let counts = page.counts;
    let total = page
        .matches
        .unwrap_or_else(|| filtered_total(q.status, &counts));
    let leads = Json::array(page.leads.iter().map(|l| lead_json(l).end()));
    let key = |lead: Option<&LeadRow>| lead.map(|l| Cursor::key(l.created_at, &l.id));
    let incident = incident_json(&page.state, platform::now_ms());
    let tag = tag_of(&page.state, &incident);
    let counts = json::object()
        .field("total", counts.total())
        .field("sent", counts.sent)
        .field("pending", counts.pending + counts.failed)
        .field("failed", counts.failed)
        // 'Precisam de atenção' and 'Falharam': given up, or with a
        // correction given up.
        .field("attention", counts.attention)
        .field("duplicates", counts.duplicates);
    let response = http::success(
        json::object()
            .field("leads", leads)
            .field("page", q.page)
            .field("page_size", PAGE_SIZE)
            .field("total", total)
            .field("pages", (total + PAGE_SIZE - 1) / PAGE_SIZE)
            .field("first", key(page.leads.first()))
            .field("last", key(page.leads.last()))
            .field("counts", counts)
            // 'Alteração pendente': leads whose new details wait for staff.
            .field("pending_changes", page.counts.pending_changes)
            .field("crm_configured", crm_configured)
            .field("incident", &incident),
    )?;
    if let Some(tag) = tag {
        response.headers().set("ETag", &tag);
    }
    // What the page cost in D1 rows, for `make bench` (staff only see it).
    response
        .headers()
        .set("D1-Rows-Read", &(probed + page.state.rows_read).to_string());
    Ok(response)
}

/// While leads are not reaching Jetimob, the cron that sends them (and the
/// alerts) stopped, or e-mail fails: the banner's words; else null.
fn incident_json(state: &store::ListState, now: i64) -> Json {
    let Some((since, words)) = state.heartbeat.banner(state.incident.as_ref(), now) else {
        return Json::null();
    };
    let details = words.details.iter().map(|(what, todo)| {
        json::object()
            .field("what", what)
            .field("todo", todo)
            .field("owners", messages::OWNERS_TODOS.contains(&todo.as_str()))
            .end()
    });
    json::object()
        .field("since", since)
        .field("summary", words.summary)
        .field("details", Json::array(details))
        .field("kept", words.kept)
        .end()
}

/// The list's tag: the change counter, and a digest of the rest the answer
/// depends on besides the leads. Weak: the same leads, however the answer is
/// encoded on the way (the edge compresses it). None without a counter: a
/// list whose changes cannot be told is never answered 304.
fn list_tag(
    query: &str,
    crm_configured: bool,
    changes: Option<i64>,
    incident: &Json,
) -> Option<String> {
    let changes = changes?;
    let digest = Sha256::new()
        .chain_update(query)
        .chain_update([0, u8::from(crm_configured)])
        .chain_update(incident.as_str())
        .finalize();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    Some(format!("W/\"{changes}-{hex}\""))
}

/// Whether `If-None-Match` names `tag`, compared weakly (RFC 9110 13.1.2).
fn tag_matches(if_none_match: &str, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let tag = opaque(tag);
    if_none_match
        .split(',')
        .any(|known| known.trim() == "*" || opaque(known) == tag)
}

/// `GET /api/leads/export.csv?status=&q=`: every lead of the filter, streamed
/// in keyset pages so 100,000 leads fit the worker's limits. The first page is
/// read before answering, so a failing database is a 500, not a cut file.
async fn export(req: &Request, env: &Env, staff: &Staff) -> ApiResult<Response> {
    if !staff.can_export {
        return Err(ApiError::Forbidden(messages::EXPORT_NOT_ALLOWED.into()));
    }
    let q = LeadQuery::from_url(&http::RequestUrl::of(req)?);
    let db = config::database(env)?;
    let exported = audit::record(
        &db,
        Actor {
            id: Some(&staff.user_id),
            email: &staff.email,
        },
        audit::Action::Export,
        Subject::Nothing,
        platform::now_ms(),
    );
    let (_, first) = futures_util::try_join!(
        async { exported.run().await.map(|_| ()) },
        store::first_page(&db, &q, EXPORT_BATCH)
    )?;
    let mut head = format!("{}{}", crate::csv::BOM, lead_csv::header());
    head.extend(first.iter().map(lead_csv::row));
    let after = next_cursor(&first);
    // Each later page is read only while the session may read it: an export
    // running when its account is switched off ('Desativar') or signed out
    // stops there, and the download fails instead of finishing.
    let rest = stream::unfold(
        (after, db, q, staff.clone()),
        |(after, db, q, staff)| async move {
            let (created_at, id) = after?;
            let now = platform::now_ms();
            let page = (created_at, id.as_str());
            match store::page_after_while_live(&db, &staff, &q, page, EXPORT_BATCH, now).await {
                Ok(Some(rows)) if rows.is_empty() => None,
                Ok(Some(rows)) => {
                    let chunk: String = rows.iter().map(lead_csv::row).collect();
                    Some((Ok(chunk.into_bytes()), (next_cursor(&rows), db, q, staff)))
                }
                Ok(None) => {
                    worker::console_log!("export: stopped, its staff session ended while it ran");
                    let ended = "the staff session ended".to_string();
                    Some((Err(ended), (None, db, q, staff)))
                }
                Err(error) => {
                    worker::console_error!("export: a page of leads could not be read: {error}");
                    Some((Err(error.to_string()), (None, db, q, staff)))
                }
            }
        },
    );
    let body = stream::once(async move { Ok(head.into_bytes()) }).chain(rest);
    // The day staff are in (Brasília), not UTC's, which is tomorrow from 21:00.
    let date = dates::brasilia_day(platform::now_ms());
    let headers = Headers::new();
    headers.set("Content-Type", "text/csv; charset=utf-8");
    headers.set(
        "Content-Disposition",
        &format!("attachment; filename=\"leads-{date}.csv\""),
    );
    Ok(Response::new(200, &headers, &web::stream_body(body)))
}

/// Where the next export page starts; `None` after a short (last) page.
fn next_cursor(rows: &[LeadRow]) -> Option<(i64, String)> {
    if (rows.len() as i64) < EXPORT_BATCH {
        return None;
    }
    rows.last().map(|l| (l.created_at, l.id.clone()))
}

/// Writes a lead action's audit entry and its change (`change`), and reads
/// whether the staff session may still act, in one batch. Both are written
/// only while it may, so a session ended (or its account switched off)
/// between the request's check and this batch changes nothing, and answers
/// 401 like any ended session.
async fn act(
    db: &D1Database,
    staff: &Staff,
    action: Action,
    id: &str,
    now: i64,
    change: D1PreparedStatement,
) -> ApiResult<Vec<D1Result>> {
    let audit = store::audit(db, staff, action, id, now);
    act_with(db, staff, audit, vec![change], now).await
}

/// [`act`] with an audit entry and changes of the caller's own: the results
/// are the entry's, each change's in order, then the session's.
async fn act_with(
    db: &D1Database,
    staff: &Staff,
    audit: D1PreparedStatement,
    changes: Vec<D1PreparedStatement>,
    now: i64,
) -> ApiResult<Vec<D1Result>> {
    let count = changes.len();
    let mut statements = vec![audit];
    statements.extend(changes);
    statements.push(store::session_live(db, staff, now));
    let results = db.batch(statements).await?;
    let changed = (1..=count).any(|i| d1::returned_row(&results, i));
    if !changed && !d1::returned_row(&results, count + 1) {
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
async fn mark_sent(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
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
    let results = act(&db, staff, Action::MarkSent, id, now, change).await?;
    if !d1::returned_row(&results, 1) {
        return Err(unchanged(env, id).await);
    }
    http::success(json::object())
}

/// `POST /api/leads/{id}/unmark-sent`: 'Desfazer' right after 'Marcar
/// Enviado' puts the lead back as it was, its automatic delivery resumed;
/// only within a minute of the mark, and by whoever marked it or an owner.
/// Answers the lead's delivery status again ('pending' or 'failed').
async fn unmark_sent(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::unmark_sent_by_staff(&db, id, now, &staff.session_id, &staff.user_id);
    let results = act(&db, staff, Action::UnmarkSent, id, now, change).await?;
    let Some(back) = d1::first_row::<StatusRow>(&results, 1)? else {
        let state = crm::store::mark_state(&db, id).await?;
        let owner = staff.role == guard::Role::Owner;
        return Err(not_unmarked(state.as_ref(), &staff.user_id, owner, now));
    };
    http::success(json::object().field("delivery_status", &back.delivery_status))
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
    let message = if lead.delivery_status != "sent" || lead.sent_by.as_deref() != Some("staff") {
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
async fn delete(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if !staff.can_delete {
        return Err(ApiError::Forbidden(messages::DELETE_NOT_ALLOWED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = store::delete(&db, staff, id, now);
    let results = act(&db, staff, Action::Delete, id, now, change).await?;
    if !d1::returned_row(&results, 1) {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    }
    http::success(json::object())
}

/// `POST /api/leads/{id}/resend`: 'Reenviar' makes the lead (or the
/// correction the CRM refused) due now and tries it at once; the answer says
/// how that attempt went.
async fn resend(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if !crm::is_configured(env) {
        return Err(ApiError::Conflict(messages::CRM_NOT_CONFIGURED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::retry_now(&db, id, now, &staff.session_id);
    let results = act(&db, staff, Action::Resend, id, now, change).await?;
    let Some(due) = d1::first_row::<StatusRow>(&results, 1)? else {
        return Err(unchanged(env, id).await);
    };
    // A lead the CRM has is resent for its correction.
    let outcome = if due.delivery_status == "sent" {
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
    http::success(
        json::object()
            .field("delivered", delivered)
            .field("last_error", last_error)
            .field("lead", lead.as_ref().map(lead_json)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_counts_every_lead_not_yet_in_the_crm() {
        let counts = Counts {
            pending: 7,
            sent: 10,
            failed: 3,
            duplicates: 2,
            // The 3 given up, and 1 sent lead whose correction was given up.
            attention: 4,
            pending_changes: 1,
        };
        assert_eq!(counts.total(), 20);
        assert_eq!(filtered_total(StatusFilter::All, &counts), 20);
        assert_eq!(filtered_total(StatusFilter::Pending, &counts), 10);
        assert_eq!(filtered_total(StatusFilter::Sent, &counts), 10);
        assert_eq!(filtered_total(StatusFilter::Failed, &counts), 4);
    }

    #[test]
    fn the_tag_moves_with_the_leads_the_address_the_banner_and_the_crm() {
        let banner = json::object()
            .field("summary", "Leads não estão chegando ao Jetimob")
            .end();
        let tag = list_tag("status=falhas", true, Some(7), &Json::null());
        assert!(
            tag.as_deref().is_some_and(|t| t.starts_with("W/\"7-")),
            "{tag:?}"
        );
        assert_eq!(tag, list_tag("status=falhas", true, Some(7), &Json::null()));
        for other in [
            list_tag("status=falhas", true, Some(8), &Json::null()),
            list_tag("status=enviados", true, Some(7), &Json::null()),
            list_tag("status=falhas", false, Some(7), &Json::null()),
            list_tag("status=falhas", true, Some(7), &banner),
        ] {
            assert_ne!(tag, other);
        }
        // Without its counter, a list is never tagged, so never told unchanged.
        assert_eq!(list_tag("status=falhas", true, None, &Json::null()), None);
    }

    #[test]
    fn if_none_match_is_compared_weakly_and_may_list_tags() {
        let tag = list_tag("", true, Some(3), &Json::null()).unwrap_or_default();
        let strong = tag.trim_start_matches("W/");
        assert!(tag_matches(&tag, &tag));
        assert!(tag_matches(strong, &tag));
        assert!(tag_matches(&format!("W/\"1-00\", {tag}"), &tag));
        assert!(tag_matches("*", &tag));
        assert!(!tag_matches("W/\"3-00\"", &tag));
        assert!(!tag_matches("", &tag));
        let next = list_tag("", true, Some(4), &Json::null()).unwrap_or_default();
        assert!(!tag_matches(&next, &tag));
    }

    #[test]
    fn timestamps_are_iso_8601_in_utc() {
        assert_eq!(
            iso(1_767_225_600_000).as_deref(),
            Some("2026-01-01T00:00:00.000Z")
        );
    }

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
            delivery_status: "sent".into(),
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
                    delivery_status: "pending".into(),
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
