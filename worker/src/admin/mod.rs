//! The staff panel's API under `/api/leads`: list with counters, CSV export,
//! 'Marcar Enviado', 'Reenviar' and delete. Every call needs a live staff
//! session; changes also need our own Origin, and each one is audited.

mod changes;
mod contact;
mod correct;
mod export;
mod lead_csv;
pub mod query;
mod reads;
mod shown;
mod store;

use serde::Serialize;
use sha2::{Digest, Sha256};
use worker::{Context, Env, Method, Request, Response};

use crate::alerts::incidents;
use crate::auth::guard::{self, Rights, Staff};
use crate::crm::status::Delivery;
use crate::crm::{self, Outcome};
use crate::db::{self, D1Database, D1PreparedStatement, D1Result};
use crate::http::{self, ApiError, ApiResult, HeaderText};
use crate::{config, dates, delivery, messages, platform};
use changes::Decision;
use query::{Cursor, LeadQuery, PAGE_SIZE, StatusFilter};
use shown::{Shown, shown, shown_lead};
use store::{Action, ActionRow, AttemptRow, Counts, LeadRow, StatusRow, StoryTotals};

pub async fn route(mut req: Request, env: &Env, ctx: &Context, path: &str) -> ApiResult<Response> {
    let staff = guard::require_staff(&req, env).await?;
    let rest = path.trim_start_matches("/api/leads");
    let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    match (segments.as_slice(), req.method()) {
        ([], Method::Get) => list(&req, env, ctx, &staff).await,
        (["export.csv"], Method::Get) => export::export(&req, env, &staff).await,
        ([id], Method::Get) => story(env, &staff, id).await,
        ([id, "mark-sent"], Method::Post) => mark_sent(&mut req, env, &staff, id).await,
        ([id, "resend"], Method::Post) => resend(&req, env, &staff, id).await,
        ([id, "resend", "meta"], Method::Post) => resend_to_meta(&req, env, &staff, id).await,
        ([_, "resend", _], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([id, "unmark-sent"], Method::Post) => unmark_sent(&req, env, &staff, id).await,
        ([id, "contact"], Method::Post) => contact::record(&req, env, &staff, id).await,
        ([id, "uncontact"], Method::Post) => contact::undo(&req, env, &staff, id).await,
        ([id, "whatsapp"], Method::Post) => correct::correct(&mut req, env, ctx, &staff, id).await,
        ([id], Method::Delete) => delete(&req, env, &staff, id).await,
        ([id, "changes", "refuse-all"], Method::Post) => {
            changes::refuse_all(&req, env, &staff, id).await
        }
        ([_, "changes", "refuse-all"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([id, "changes", change, "accept"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Accept).await
        }
        ([id, "changes", change, "refuse"], Method::Post) => {
            changes::decide(&req, env, ctx, &staff, id, change, Decision::Refuse).await
        }
        ([_, "changes", _, "accept" | "refuse"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([] | ["export.csv"], _) => Err(ApiError::MethodNotAllowed("GET")),
        ([_, "mark-sent" | "resend"], _) => Err(ApiError::MethodNotAllowed("POST")),
        ([_, "unmark-sent" | "contact" | "uncontact" | "whatsapp"], _) => {
            Err(ApiError::MethodNotAllowed("POST"))
        }
        ([_], _) => Err(ApiError::MethodNotAllowed("GET, DELETE")),
        _ => Err(ApiError::NotFound(messages::NOT_FOUND.into())),
    }
}

/// The answer of `GET /api/leads/{id}`.
#[derive(Serialize)]
struct StoryAnswer<'a> {
    lead: Shown<'a, LeadRow>,
    submissions: Vec<Shown<'a, store::SubmissionRow>>,
    /// The changes waiting for staff, oldest first, apart from the history.
    waiting_changes: Vec<Shown<'a, store::SubmissionRow>>,
    attempts: &'a [AttemptRow],
    actions: &'a [ActionRow],
    possible_duplicates: Vec<Shown<'a, store::LinkedRow>>,
    /// What the page leaves out (the oldest after the first submission, the
    /// oldest attempts and actions), for it to say so.
    hidden: StoryTotals,
    crm_configured: bool,
    /// Its deliveries besides Jetimob's, each destination's state (none: não se aplica).
    deliveries: Vec<DeliveryShown<'a>>,
    /// Whether Meta's Conversions API is configured.
    meta_configured: bool,
    /// What the person asking may do to it: the page shows only those buttons.
    rights: Rights,
}

/// A delivery as the lead's page shows it: its times as the panel reads them.
#[derive(Serialize)]
struct DeliveryShown<'a> {
    destination: &'a str,
    status: &'a str,
    attempts: i64,
    next_attempt_at: Option<String>,
    last_attempt_at: Option<String>,
    last_error: Option<&'a str>,
    sent_at: Option<String>,
    /// Whether 'Reenviar' can still send it (its event's window is open).
    can_resend: bool,
}

/// `GET /api/leads/{id}`: the lead's story (its newest entries, see
/// `store::STORY_NEWEST`).
async fn story(env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    let db = config::database(env)?;
    let Some(story) = store::story(&db, id).await? else {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    };
    let totals = story.totals;
    http::success(&StoryAnswer {
        lead: shown_lead(&story.lead),
        submissions: story
            .submissions
            .iter()
            .map(|s| shown(s, &s.whatsapp))
            .collect(),
        waiting_changes: story
            .waiting
            .iter()
            .map(|s| shown(s, &s.whatsapp))
            .collect(),
        attempts: &story.attempts,
        actions: &story.actions,
        possible_duplicates: story.linked.iter().map(|l| shown(l, &l.whatsapp)).collect(),
        hidden: StoryTotals {
            submissions: totals.submissions - story.submissions.len() as i64,
            attempts: totals.attempts - story.attempts.len() as i64,
            actions: totals.actions - story.actions.len() as i64,
        },
        crm_configured: crm::is_configured(env),
        deliveries: story
            .deliveries
            .iter()
            .map(|d| DeliveryShown {
                destination: &d.destination,
                status: &d.status,
                attempts: d.attempts,
                next_attempt_at: d.next_attempt_at.and_then(dates::iso),
                last_attempt_at: d.last_attempt_at.and_then(dates::iso),
                last_error: d.last_error.as_deref(),
                sent_at: d.sent_at.and_then(dates::iso),
                // 'Reenviar ao Meta'; the answers go by themselves.
                can_resend: d.destination == delivery::meta::DESTINATION
                    && matches!(d.status.as_str(), "failed" | "pending")
                    && story.lead.created_at >= platform::now_ms() - delivery::meta::WINDOW_MS,
            })
            .collect(),
        meta_configured: delivery::meta::Settings::from_env(env).is_some(),
        rights: staff.rights,
    })
}

/// How many leads a filter covers, from the counters alone.
fn filtered_total(status: StatusFilter, counts: &Counts) -> i64 {
    match status {
        StatusFilter::All => counts.total(),
        StatusFilter::Pending => counts.pending,
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
/// change counter, the banner, whether the CRM is set up and what the person
/// may do. A reload that sends the tag back (`If-None-Match`) while none of
/// them moved is answered 304 after reading a few rows, not the page and
/// every match of a search.
///
/// A colleague without 'Exportar CSV' is shown a limited number of leads an
/// hour ([`reads`]): a view new this hour is charged before it is read, and
/// refused with 429 past the limit.
async fn list(req: &Request, env: &Env, ctx: &Context, staff: &Staff) -> ApiResult<Response> {
    let url = req.url()?;
    let q = LeadQuery::from_url(&url, &staff.user_id);
    let db = config::database(env)?;
    let crm_configured = crm::is_configured(env);
    let query = url.query().unwrap_or_default();
    let tag_of = |state: &store::ListState, incident: &str| {
        list_tag(query, crm_configured, staff.rights, state.changes, incident)
    };
    // What a tag that no longer matches cost before the page was read.
    let mut probed = 0;
    if let Some(known) = req.header("If-None-Match") {
        let state = store::list_state(&db).await?;
        probed = state.rows_read;
        let incident = serde_json::to_string(&banner(&state, platform::now_ms()))?;
        let tag = tag_of(&state, &incident);
        if let Some(tag) = tag.filter(|tag| tag_matches(&known, tag)) {
            let response = http::empty(304);
            response.headers().set("ETag", &tag)?;
            response
                .headers()
                .set("D1-Rows-Read", &state.rows_read.to_string())?;
            return Ok(response);
        }
    }
    let charged = match staff.rights.export {
        true => None,
        false => Some(charge_view(&db, staff, query).await?),
    };
    let page = store::page_and_counts(&db, &q, &staff.user_id).await?;
    if let Some((view, reads::Charge::Charged(cost), at)) = &charged {
        let shown = page.leads.len() as i64;
        settle_view(&db, ctx, env, staff, view, cost - shown, *at).await?;
    }
    let counts = page.counts;
    let total = page
        .matches
        .unwrap_or_else(|| filtered_total(q.status, &counts));
    let key = |lead: Option<&LeadRow>| lead.map(|l| Cursor::key(l.created_at, &l.id));
    let incident = banner(&page.state, platform::now_ms());
    let tag = tag_of(&page.state, &serde_json::to_string(&incident)?);
    let response = http::success(&ListAnswer {
        leads: page.leads.iter().map(shown_lead).collect(),
        page: q.page,
        page_size: PAGE_SIZE,
        total,
        pages: (total + PAGE_SIZE - 1) / PAGE_SIZE,
        first: key(page.leads.first()),
        last: key(page.leads.last()),
        counts: CountsAnswer {
            total: counts.total(),
            sent: counts.sent,
            pending: counts.pending,
            failed: counts.failed,
            attention: counts.attention,
            duplicates: counts.duplicates,
            delivered: counts.delivered,
            uncontacted: counts.uncontacted,
            mine: counts.mine,
        },
        pending_changes: counts.pending_changes,
        refused: page.refused,
        crm_configured,
        incident,
        rights: staff.rights,
    })?;
    if let Some(tag) = tag {
        response.headers().set("ETag", &tag)?;
    }
    // What the page cost in D1 rows, for `make bench` (staff only see it).
    response
        .headers()
        .set("D1-Rows-Read", &(probed + page.state.rows_read).to_string())?;
    Ok(response)
}

/// The answer of `GET /api/leads`.
#[derive(Serialize)]
struct ListAnswer<'a> {
    leads: Vec<Shown<'a, LeadRow>>,
    page: i64,
    page_size: i64,
    total: i64,
    pages: i64,
    first: Option<String>,
    last: Option<String>,
    counts: CountsAnswer,
    /// 'Alteração pendente': leads whose new details wait for staff.
    pending_changes: i64,
    /// Leads Jetimob refused for good, over every lead (the banner's 'N
    /// leads recusados pelo Jetimob'), whatever the list is narrowed to.
    refused: i64,
    crm_configured: bool,
    incident: Option<Banner>,
    /// What the person asking may do: the panel shows only those buttons.
    rights: Rights,
}

/// Charges a view of the list to a colleague without 'Exportar CSV' (see
/// [`reads`]), before it is read: 429 once the hour's leads are used up.
async fn charge_view(
    db: &D1Database,
    staff: &Staff,
    query: &str,
) -> ApiResult<(reads::View, reads::Charge, i64)> {
    let view = reads::View::new(staff, query);
    let now = platform::now_ms();
    let results = db::batch(db, view.charge(db, PAGE_SIZE, now).into()).await?;
    let charge = reads::Charge::from(&results, 0, PAGE_SIZE)?;
    if charge == reads::Charge::Refused {
        let until = dates::brasilia_time(reads::hour_ends(now));
        return Err(ApiError::TooManyRequests(messages::too_many_leads_read(
            reads::LEADS_READ.max,
            &until,
        )));
    }
    Ok((view, charge, now))
}

/// After a charged view was read: gives back what it did not show, and
/// tells the owners when the person now reads far more than they work.
async fn settle_view(
    db: &D1Database,
    ctx: &Context,
    env: &Env,
    staff: &Staff,
    view: &reads::View,
    unused: i64,
    charged_at: i64,
) -> ApiResult<()> {
    let results = db::batch(db, reads::settle(db, staff, view, unused, charged_at)).await?;
    if let Some(read) = reads::told(&results)? {
        worker::console_log!(
            "leads: a colleague without export read {} leads this hour and worked {}",
            read.read,
            read.worked
        );
        crate::auth::tell_owners_of_bulk_read(ctx, env, staff, read.read, read.worked).await?;
    }
    Ok(())
}

/// The counters as the panel's tabs read them: over the period, campaign
/// and contact filter on screen, when there is one. `delivered`, `pending`
/// and `attention` count each lead once (they add up to `total`).
#[derive(Serialize)]
struct CountsAnswer {
    total: i64,
    /// In the CRM ('Enviados'), a correction given up or not.
    sent: i64,
    /// On its way to the CRM: the site still sends it by itself.
    pending: i64,
    failed: i64,
    /// 'Precisam de atenção' and 'Falharam': given up, or with a
    /// correction given up.
    attention: i64,
    duplicates: i64,
    /// In the CRM with nothing refused ('Enviados Jetimob' of the counters).
    delivered: i64,
    /// 'Não contatados' and 'Contatados por mim' (over the period and campaign).
    uncontacted: i64,
    mine: i64,
}

/// The banner's words, and since when (ms). `standing` tells leads that do
/// not reach Jetimob ('down') from a few Jetimob refused ('refused', a line
/// the panel words with how many) from the rest; `title` is its line when
/// folded.
#[derive(Debug, Serialize)]
struct Banner {
    since: Option<i64>,
    standing: incidents::Standing,
    title: String,
    summary: String,
    /// How long the oldest lead not in Jetimob has waited, while any does:
    /// the backlog as it drains, beside how many wait (in the summary).
    #[serde(skip_serializing_if = "Option::is_none")]
    oldest_waiting: Option<String>,
    details: Vec<Trouble>,
    kept: &'static str,
}

/// One trouble of the banner and what to do; `owners`: a step only an owner
/// of the panel can take.
#[derive(Debug, Serialize)]
struct Trouble {
    what: String,
    todo: String,
    owners: bool,
}

/// While leads are not reaching Jetimob, the cron that sends them (and the
/// alerts) stopped, or e-mail fails: the banner's words; else none (null).
fn banner(state: &store::ListState, now: i64) -> Option<Banner> {
    let (since, words) = state.heartbeat.banner(state.incident.as_ref(), now)?;
    let reasons = state
        .incident
        .as_ref()
        .map(incidents::Incident::reasons)
        .unwrap_or_default();
    let title = if state.heartbeat.stopped(now) {
        messages::BANNER_STOPPED
    } else if reasons.contains(&incidents::Reason::KeysRefused) {
        messages::BANNER_KEYS_REFUSED
    } else if reasons.contains(&incidents::Reason::Off) {
        messages::BANNER_OFF
    } else if reasons.contains(&incidents::Reason::Backlog) {
        messages::BANNER_JETIMOB_DOWN
    } else {
        match words.standing {
            incidents::Standing::Refused => messages::BANNER_REFUSED,
            // The form, the webhook, e-mail: its own first line.
            _ => "",
        }
    };
    let title = match title {
        "" => words.summary.clone(),
        title => title.to_string(),
    };
    let details = words
        .details
        .into_iter()
        .map(|(what, todo)| Trouble {
            owners: messages::OWNERS_TODOS.contains(&todo.as_str()),
            what,
            todo,
        })
        .collect();
    let oldest_waiting = state
        .incident
        .as_ref()
        .filter(|i| i.waiting > 0)
        .and(state.heartbeat.oldest_pending_at)
        .map(|oldest| messages::oldest_waiting(now - oldest));
    Some(Banner {
        since,
        standing: words.standing,
        title,
        summary: words.summary,
        oldest_waiting,
        details,
        kept: words.kept,
    })
}

/// The list's tag: the change counter, and a digest of the rest the answer
/// depends on besides the leads. Weak: the same leads, however the answer is
/// encoded on the way (the edge compresses it). None without a counter: a
/// list whose changes cannot be told is never answered 304. `incident` is
/// the banner as its JSON answers it.
fn list_tag(
    query: &str,
    crm_configured: bool,
    rights: Rights,
    changes: Option<i64>,
    incident: &str,
) -> Option<String> {
    let changes = changes?;
    let rights = [
        rights.export,
        rights.delete,
        rights.mark_sent,
        rights.import_spend,
    ]
    .map(u8::from);
    let digest = Sha256::new()
        .chain_update(query)
        .chain_update([0, u8::from(crm_configured)])
        .chain_update(rights)
        .chain_update(incident)
        .finalize();
    let hex = crate::signing::hex(&digest[..8]);
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
    let results = db::batch(db, statements).await?;
    let changed = (1..=count).any(|i| db::returned_row(&results, i));
    if !changed && !db::returned_row(&results, count + 1) {
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
async fn mark_sent(req: &mut Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
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
    let results = act(&db, staff, Action::MarkSent, id, now, change).await?;
    if !db::returned_row(&results, 1) {
        return Err(unchanged(env, id).await);
    }
    http::success_only()
}

/// `POST /api/leads/{id}/unmark-sent`: 'Desfazer' right after 'Marcar
/// Enviado' puts the lead back as it was, its automatic delivery resumed;
/// only within a minute of the mark, and by whoever marked it or an owner.
/// Answers the lead's delivery status again ('pending' or 'failed').
async fn unmark_sent(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    require_mark_sent(staff)?;
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = crm::store::unmark_sent_by_staff(&db, id, now, &staff.session_id, &staff.user_id);
    let results = act(&db, staff, Action::UnmarkSent, id, now, change).await?;
    let Some(back) = db::first_row::<StatusRow>(&results, 1)? else {
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
async fn delete(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
    http::require_same_origin(req)?;
    if !staff.rights.delete {
        return Err(ApiError::Forbidden(messages::DELETE_NOT_ALLOWED.into()));
    }
    let db = config::database(env)?;
    let now = platform::now_ms();
    let change = store::delete(&db, staff, id, now);
    let results = act(&db, staff, Action::Delete, id, now, change).await?;
    if !db::returned_row(&results, 1) {
        return Err(ApiError::NotFound(messages::LEAD_NOT_FOUND.into()));
    }
    http::success_only()
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
    let Some(due) = db::first_row::<StatusRow>(&results, 1)? else {
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
     SELECT ?2, ?4, ?5, 'resend', ?1, json_object('destino', 'meta') \
     WHERE EXISTS (SELECT 1 FROM deliveries WHERE lead_id = ?1 AND destination = 'meta' \
       AND status IN ('failed', 'pending') AND event_at >= ?6) AND ",
    crate::live_session::session_is_live!("?3", "?2")
);

/// `POST /api/leads/{id}/resend/meta`.
async fn resend_to_meta(req: &Request, env: &Env, staff: &Staff, id: &str) -> ApiResult<Response> {
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
    let results = act_with(&db, staff, audit, vec![change], now).await?;
    if !db::returned_row(&results, 1) {
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
    use super::shown::tests::lead_row;
    use super::*;
    use crate::whatsapp::format_whatsapp;

    #[test]
    fn the_counters_count_each_lead_once() {
        let counts = Counts {
            pending: 7,
            sent: 10,
            failed: 3,
            duplicates: 2,
            // The 3 given up, and 1 sent lead whose correction was given up.
            attention: 4,
            pending_changes: 1,
            delivered: 9,
            uncontacted: 5,
            mine: 1,
        };
        assert_eq!(counts.total(), 20);
        assert_eq!(filtered_total(StatusFilter::All, &counts), 20);
        // Each lead once: on its way, given up ('Falharam') or in the CRM.
        assert_eq!(filtered_total(StatusFilter::Pending, &counts), 7);
        assert_eq!(
            counts.delivered + counts.pending + counts.attention,
            counts.total()
        );
        assert_eq!(filtered_total(StatusFilter::Sent, &counts), 10);
        assert_eq!(filtered_total(StatusFilter::Failed, &counts), 4);
    }

    const ALL: Rights = Rights {
        export: true,
        delete: true,
        mark_sent: true,
        import_spend: true,
    };

    #[test]
    fn the_tag_moves_with_the_leads_the_address_the_banner_the_crm_and_the_rights() {
        let banner = serde_json::to_string(&Some(Banner {
            oldest_waiting: None,
            since: None,
            standing: incidents::Standing::Down,
            title: messages::BANNER_JETIMOB_DOWN.into(),
            summary: "Leads não estão chegando ao Jetimob".into(),
            details: Vec::new(),
            kept: "",
        }))
        .unwrap();
        let tag = list_tag("status=falhas", true, ALL, Some(7), "null");
        assert!(
            tag.as_deref().is_some_and(|t| t.starts_with("W/\"7-")),
            "{tag:?}"
        );
        assert_eq!(tag, list_tag("status=falhas", true, ALL, Some(7), "null"));
        for other in [
            list_tag("status=falhas", true, ALL, Some(8), "null"),
            list_tag("status=enviados", true, ALL, Some(7), "null"),
            list_tag("status=falhas", false, ALL, Some(7), "null"),
            list_tag("status=falhas", true, ALL, Some(7), &banner),
            list_tag(
                "status=falhas",
                true,
                Rights {
                    mark_sent: false,
                    ..ALL
                },
                Some(7),
                "null",
            ),
        ] {
            assert_ne!(tag, other);
        }
        // Without its counter, a list is never tagged, so never told unchanged.
        assert_eq!(list_tag("status=falhas", true, ALL, None, "null"), None);
    }

    #[test]
    fn if_none_match_is_compared_weakly_and_may_list_tags() {
        let tag = list_tag("", true, ALL, Some(3), "null").unwrap_or_default();
        let strong = tag.trim_start_matches("W/");
        assert!(tag_matches(&tag, &tag));
        assert!(tag_matches(strong, &tag));
        assert!(tag_matches(&format!("W/\"1-00\", {tag}"), &tag));
        assert!(tag_matches("*", &tag));
        assert!(!tag_matches("W/\"3-00\"", &tag));
        assert!(!tag_matches("", &tag));
        let next = list_tag("", true, ALL, Some(4), "null").unwrap_or_default();
        assert!(!tag_matches(&next, &tag));
    }

    #[test]
    fn a_leads_story_reads_as_the_panel_expects() {
        let submission: store::SubmissionRow = serde_json::from_value(serde_json::json!({
            "id": 7, "submitted_at": 1_767_225_600_000_i64, "name": "Ana", "email": "a@x.com",
            "whatsapp": "+5549999998888", "origem": "google", "utm_source": null,
            "utm_medium": null, "utm_campaign": null, "utm_term": null, "utm_content": null,
            "gclid": null, "fbclid": null, "referrer": null, "page_url": null, "kind": "new"
        }))
        .unwrap();
        let attempt: AttemptRow = serde_json::from_value(serde_json::json!({
            "id": 3, "at": 1_767_225_600_000_i64, "kind": "lead", "outcome": "failed", "detail": null
        }))
        .unwrap();
        let action: ActionRow = serde_json::from_value(serde_json::json!({
            "id": 4, "at": 1_767_225_600_000_i64, "staff_email": "bia@x.com", "action": "resend"
        }))
        .unwrap();
        let linked: store::LinkedRow = serde_json::from_value(serde_json::json!({
            "id": "lead-0", "name": "Bia", "email": "b@x.com", "whatsapp": "+5548988776655"
        }))
        .unwrap();
        let lead = lead_row();
        let answer = StoryAnswer {
            lead: shown_lead(&lead),
            submissions: vec![shown(&submission, &submission.whatsapp)],
            waiting_changes: vec![],
            attempts: std::slice::from_ref(&attempt),
            actions: std::slice::from_ref(&action),
            possible_duplicates: vec![shown(&linked, &linked.whatsapp)],
            hidden: StoryTotals {
                submissions: 0,
                attempts: 2,
                actions: 0,
            },
            crm_configured: true,
            deliveries: vec![],
            meta_configured: false,
            rights: ALL,
        };
        let mut json = serde_json::to_value(&answer).unwrap();
        assert!(json["lead"]["whatsapp_display"].is_string());
        json["lead"] = serde_json::Value::Null;
        assert_eq!(
            json,
            serde_json::json!({
                "lead": null,
                "submissions": [{
                    "id": 7, "at": "2026-01-01T00:00:00.000Z", "name": "Ana", "email": "a@x.com",
                    "whatsapp": "+5549999998888",
                    "whatsapp_display": format_whatsapp("+5549999998888"),
                    "origem": "google", "utm_source": null, "utm_medium": null,
                    "utm_campaign": null, "utm_term": null, "utm_content": null, "gclid": null,
                    "gbraid": null, "wbraid": null, "msclkid": null, "ttclid": null,
                    "fbclid": null, "referrer": null, "page_url": null, "kind": "new",
                    "auto_refused": null
                }],
                "waiting_changes": [],
                "attempts": [{
                    "id": 3, "at": "2026-01-01T00:00:00.000Z", "kind": "lead",
                    "outcome": "failed", "detail": null
                }],
                "actions": [{
                    "id": 4, "at": "2026-01-01T00:00:00.000Z", "staff_email": "bia@x.com",
                    "action": "resend"
                }],
                "possible_duplicates": [{
                    "id": "lead-0", "name": "Bia", "email": "b@x.com",
                    "whatsapp_display": format_whatsapp("+5548988776655")
                }],
                "hidden": { "submissions": 0, "attempts": 2, "actions": 0 },
                "crm_configured": true,
                "deliveries": [],
                "meta_configured": false,
                "rights": { "export": true, "delete": true, "mark_sent": true, "import_spend": true }
            })
        );
    }

    #[test]
    fn the_banner_reads_as_the_panel_expects() {
        let banner = Banner {
            oldest_waiting: None,
            since: Some(1_767_225_600_000),
            standing: incidents::Standing::Refused,
            title: "t".into(),
            summary: "Leads não estão chegando ao Jetimob".into(),
            details: vec![Trouble {
                what: "a".into(),
                todo: "b".into(),
                owners: true,
            }],
            kept: "kept",
        };
        assert_eq!(
            serde_json::to_string(&Some(banner)).unwrap(),
            r#"{"since":1767225600000,"standing":"refused","title":"t","summary":"Leads não estão chegando ao Jetimob","details":[{"what":"a","todo":"b","owners":true}],"kept":"kept"}"#
        );
        assert_eq!(serde_json::to_string(&None::<Banner>).unwrap(), "null");
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
