//! The panel's list, `GET /api/leads`: a page of leads with the counters,
//! the banner of an open delivery incident, the tag that lets a reload that
//! changed nothing be answered 304, and the views charged to a colleague
//! without 'Exportar CSV'.

use serde::Serialize;
use sha2::{Digest, Sha256};
use worker::{Context, Env, Request, Response};

use super::query::{Cursor, LeadQuery, PAGE_SIZE, StatusFilter};
use super::reads;
use super::shown::{Shown, shown_lead};
use super::store::{self, Counts, LeadRow};
use crate::agency::messages;
use crate::alerts::incidents;
use crate::auth::guard::{Rights, Staff};
use crate::crm;
use crate::formats::dates;
use crate::http::{self, ApiError, ApiResult, HeaderText};
use crate::platform::db::{Batch, D1Database};
use crate::platform::{self, config};

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
pub(super) async fn list(
    req: &Request,
    env: &Env,
    ctx: &Context,
    staff: &Staff,
) -> ApiResult<Response> {
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
    let mut batch = Batch::new();
    let charging = view.charge(&mut batch, db, PAGE_SIZE, now);
    let charge = charging.read(&batch.run(db).await?)?;
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
    let mut batch = Batch::new();
    let told = reads::settle(&mut batch, db, staff, view, unused, charged_at);
    if let Some(read) = batch.run(db).await?.first(told)? {
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
    let hex = crate::platform::signing::hex(&digest[..8]);
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;

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

    pub(crate) const ALL: Rights = Rights {
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
}
