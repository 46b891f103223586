//! `POST /functions/v1/send-lead-jetimob`: the landing form's endpoint.
//!
//! Validates, checks the bot defences (Turnstile when on, the per-IP limit),
//! commits the lead to D1 and only then answers success; the first delivery
//! attempt to the CRM runs after the answer, in `wait_until`.

use worker::{Context, Env, Request, Response, Url};

use super::domain::{NewLead, Rejection, Submission};
use super::proof;
use super::store::{self, Saved, Sender};
use crate::agency::messages;
use crate::attribution::Attribution;
use crate::delivery::meta::Visitor;
use crate::http::cookies;
use crate::http::rate_limit::{self, Counter};
use crate::http::turnstile::{TOKEN_FIELD, Turnstile};
use crate::http::{self, ApiError, ApiResult, BodyKind, Fields, HeaderText};
use crate::platform;
use crate::platform::config;
use crate::{crm, delivery};

/// Where a plain form post (the page's script had not run) lands: pages a
/// visitor can read without JavaScript.
pub const FORM_SENT_PAGE: &str = "/obrigado";
pub const FORM_FAILED_PAGE: &str = "/cadastro-nao-enviado";

pub async fn handle(mut req: Request, env: &Env, ctx: &Context) -> ApiResult<Response> {
    http::check_same_origin(&req)?;
    let (mut body, kind) = http::read_json_or_form(&mut req).await?;
    let url = req.url()?;
    let host = url.host_str().unwrap_or_default();
    if matches!(kind, BodyKind::Form) {
        add_campaign_of_page(&req, &url, &mut body);
    }
    let secure = cookies::must_be_secure(url.scheme(), host);
    let key = config::signing_key(env);
    let proved = key
        .as_deref()
        .and_then(|key| proved_lead(&req, key, secure));
    let outcome = accept(
        &req,
        host,
        &body,
        proved.as_deref(),
        key.as_deref(),
        env,
        ctx,
    )
    .await;
    // What the browser's proof names once the visitor is told the lead
    // arrived; `None` when the post was refused.
    let (response, accepted) = match (kind, outcome) {
        (BodyKind::Json, outcome) => {
            let to_prove = outcome?;
            (http::success_only()?, Some(to_prove))
        }
        (BodyKind::Form, Ok(to_prove)) => {
            let sent = http::redirect(303, &http::with_path(&url, FORM_SENT_PAGE));
            (sent, Some(to_prove))
        }
        (BodyKind::Form, Err(error)) => {
            worker::console_log!(
                "lead: form post refused ({}): {}",
                error.status(),
                error.cause()
            );
            let page = match why_refused(&error) {
                Some(why) => format!("{FORM_FAILED_PAGE}?motivo={why}"),
                None => FORM_FAILED_PAGE.to_string(),
            };
            (http::redirect(303, &http::with_path(&url, &page)), None)
        }
    };
    if let (Some(to_prove), Some(key)) = (accepted, &key) {
        let value = proof::issue(key, &proof::kept(to_prove, proved));
        let cookie = cookies::set(proof::COOKIE, &value, proof::MAX_AGE_SECONDS, secure);
        response.headers().append("Set-Cookie", &cookie)?;
    }
    Ok(response)
}

/// The lead this browser proved it sent, from its cookie; none without one,
/// with one not signed by this worker, or with two.
fn proved_lead(req: &Request, key: &str, secure: bool) -> Option<String> {
    let header = req.header("Cookie")?;
    let value = cookies::read(&header, proof::COOKIE, secure).ok()??;
    proof::lead_of(key, value)
}

/// A plain form post carries no campaign: the page's script, which reads it
/// from the address, had not run. The browser sends that address as
/// `Referer` (whole, to the same site), so the lead keeps the campaign that
/// brought the visitor, and the page it was sent from. What the body has
/// wins; another site's page adds nothing.
fn add_campaign_of_page(req: &Request, here: &Url, body: &mut Fields) {
    let Some(referer) = req.header("Referer") else {
        return;
    };
    let Some(page) = http::web_address(&referer) else {
        return;
    };
    if http::origin(&page) != http::origin(here) {
        return;
    }
    // The address parameters that name a campaign or a click, as the
    // page's script sends them.
    let from_address = Attribution::FIELDS
        .iter()
        .filter(|f| f.kind.in_page_address());
    for (key, value) in page.query_pairs() {
        if let Some(field) = from_address.clone().find(|f| f.name == key) {
            body.add_missing(field.name, value.into_owned());
        }
    }
    body.add_missing("page_url", referer);
}

/// Validates, checks the bot defences and commits the lead; `Ok` means the
/// visitor may be told it was received, with the lead its browser may prove
/// it sent from now on (none for a change kept aside, a repeat of another
/// lead's details, or a bot's).
async fn accept(
    req: &Request,
    site_host: &str,
    body: &Fields,
    proved: Option<&str>,
    key: Option<&str>,
    env: &Env,
    ctx: &Context,
) -> ApiResult<Option<String>> {
    let mut submission = Submission::from_fields(body).map_err(reject)?;
    submission.user_agent = req.header("User-Agent");
    if let Some(field) = submission.honeypot_filled() {
        // One line per hit, always with this wording, so the log can count them.
        worker::console_log!(
            "lead: honeypot hit ({field} filled), answered success and stored nothing"
        );
        return Ok(None);
    }
    let lead = NewLead::parse(submission, site_host).map_err(reject)?;

    let ip = http::client_ip(req);
    let network = http::client_network(req);
    // With the binding the limit is checked at the edge, before anything
    // else costs us, and the lead is one plain upsert; without it the D1
    // counter rides in the upsert's batch. Either way: one D1 round trip.
    let limit = rate_limit::lead_limit(&network);
    let d1_limit = match Counter::for_limit(env, limit) {
        Counter::Binding(limiter) => {
            if !rate_limit::within_binding(&limiter, limit, &network).await? {
                return Err(limited());
            }
            None
        }
        Counter::D1 => Some((limit, network.as_str())),
    };
    // After the field checks, so a visitor who fixes a field can send the
    // same, still unspent, token again.
    let db = config::database(env)?;
    if let Some(turnstile) = Turnstile::from_env(env) {
        turnstile
            .check_lead(&db, body, &ip, site_host, platform::now_ms())
            .await?;
    }

    let sender_key = key.map(|key| proof::sender_of(key, &network));
    let destinations = delivery::destinations_for(env, lead.ads_consent);
    let sender = Sender {
        proof: proved,
        key: sender_key.as_deref(),
        destinations: &destinations,
    };
    let saved = store::save(&db, &lead, sender, d1_limit, platform::now_ms()).await?;
    match saved {
        Saved::Limited => Err(limited()),
        Saved::Created { id } => {
            let visitor = Visitor {
                ip: Some(ip.clone()),
                user_agent: req.header("User-Agent"),
            };
            ctx.wait_until(delivery::deliver_new_lead(env.clone(), id.clone(), visitor));
            Ok(Some(id))
        }
        // New details for a lead the CRM already has: it learns them at once.
        Saved::Repeated {
            id,
            corrected: true,
        } => {
            ctx.wait_until(crm::deliver_correction(env.clone(), id.clone()));
            Ok(proof::renewed(proved, id))
        }
        // Nothing new for the CRM: a lead not sent yet goes with its newest
        // details; one already sent stays as it is. Repeating a lead's exact
        // details proves nothing (they are in every export and notice): only
        // the browser that proved this very lead keeps its proof.
        Saved::Repeated { id, .. } => Ok(proof::renewed(proved, id)),
        Saved::Conflict { id } => {
            worker::console_log!(
                "lead: a submission's e-mail is lead {id}'s and its WhatsApp another lead's; kept on {id}, both marked as possible duplicates"
            );
            Ok(None)
        }
        // The visitor is told it arrived, as any visitor is: whether a lead
        // has these details is no stranger's to learn.
        Saved::Pending {
            id,
            set_aside: false,
        } => {
            worker::console_log!(
                "lead: new details for lead {id} from a browser without its proof; kept aside for staff"
            );
            Ok(None)
        }
        Saved::Pending {
            id,
            set_aside: true,
        } => {
            worker::console_log!(
                "lead: new details for lead {id} from a browser without its proof, past the changes it keeps waiting; kept in its story only"
            );
            Ok(None)
        }
    }
}

/// What the failure page tells a visitor whose plain form post was refused
/// (`?motivo=`, a code the page turns into its sentence): the first field
/// refused, the limit, or the bot check. Codes, not the message itself, so
/// no one can make our page say what a link of theirs says.
fn why_refused(error: &ApiError) -> Option<&'static str> {
    match error {
        ApiError::Unprocessable { fields, .. } => {
            let names = |field: &str| fields.iter().any(|(name, _)| *name == field);
            ["name", "email", "whatsapp"]
                .into_iter()
                .find(|field| names(field))
                .or_else(|| names(TOKEN_FIELD).then_some("verificacao"))
        }
        ApiError::TooManyRequests(_) => Some("limite"),
        ApiError::BadGateway(_) => Some("verificacao"),
        _ => None,
    }
}

fn limited() -> ApiError {
    ApiError::TooManyRequests(messages::LEAD_RATE_LIMITED.into())
}

fn reject(rejection: Rejection) -> ApiError {
    ApiError::Unprocessable {
        message: rejection.message.to_string(),
        fields: rejection.fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::FieldErrors;

    fn unprocessable(fields: &[&'static str]) -> ApiError {
        ApiError::Unprocessable {
            message: messages::CHECK_FIELDS.into(),
            fields: fields
                .iter()
                .map(|f| (*f, messages::FIELD_INVALID.to_string()))
                .collect::<FieldErrors>(),
        }
    }

    #[test]
    fn a_refused_form_post_names_the_first_field_in_the_forms_order() {
        assert_eq!(why_refused(&unprocessable(&["whatsapp"])), Some("whatsapp"));
        assert_eq!(
            why_refused(&unprocessable(&["whatsapp", "email"])),
            Some("email")
        );
        assert_eq!(
            why_refused(&unprocessable(&["whatsapp", "name"])),
            Some("name")
        );
    }

    #[test]
    fn the_limit_and_the_bot_check_have_codes_and_anything_else_none() {
        assert_eq!(why_refused(&limited()), Some("limite"));
        assert_eq!(
            why_refused(&unprocessable(&[TOKEN_FIELD])),
            Some("verificacao")
        );
        assert_eq!(
            why_refused(&ApiError::BadGateway(
                messages::TURNSTILE_UNAVAILABLE.into()
            )),
            Some("verificacao")
        );
        assert_eq!(why_refused(&ApiError::PayloadTooLarge), None);
        assert_eq!(why_refused(&ApiError::Internal("x".into())), None);
    }
}
