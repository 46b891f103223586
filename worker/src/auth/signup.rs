//! Sign-up and e-mail confirmation.
//!
//! Only the owner of a mailbox can set the password of the account it
//! confirms: each sign-up's password waits on its own link, and whoever opens
//! the link must type that password. A stranger who signs up someone else's
//! address sends a link to a mailbox they cannot read, bound to a password its
//! owner does not know; a sign-up never replaces another's password, and
//! every open link keeps working until the account is confirmed by one of them.

use serde::Serialize;
use worker::{Context, Env, Request, Response};

use super::context::{self, Account, AuthContext};
use super::password::{self, PasswordHash};
use super::staff::{EmailRejection, NewPassword, StaffEmail};
use super::{common_passwords, emails, secret_token, store};
use crate::agency::roles::Role;
use crate::agency::{self, messages};
use crate::audit::{self as activity, Action, Actor, Subject};
use crate::http::rate_limit::{
    self, CONFIRMATION_TRIES, CountRow, EVERYONE, SIGNUPS, SIGNUPS_ALL_DAY, SIGNUPS_ALL_HOUR,
    SIGNUPS_PER_EMAIL,
};
use crate::http::turnstile::{Expected, Form, Turnstile};
use crate::http::{self, ApiError, ApiResult, invalid_field};
use crate::mail;
use crate::platform::config;
use crate::platform::db::{self, Batch};

/// A confirmation link is valid for 24 hours.
const CONFIRMATION_LIFETIME_MS: i64 = 24 * 60 * 60 * 1000;

/// A new password's checks beyond its length: not one of the common ones.
pub async fn refuse_common(
    env: &Env,
    password: &NewPassword,
    field: &'static str,
) -> ApiResult<()> {
    if common_passwords::is_common(env, password.as_str()).await? {
        return Err(invalid_field(messages::AUTH_COMMON_PASSWORD, field));
    }
    Ok(())
}

/// `POST /api/auth/signup` `{email, password}`: e-mails a one-time link bound
/// to this sign-up's password. The account is created unconfirmed if new.
pub async fn signup(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let domain = agency::STAFF_EMAIL_DOMAIN;
    let email = StaffEmail::parse_for_signup(&body.text_or_empty("email"), domain).map_err(
        |e| match e {
            EmailRejection::Invalid => invalid_field(messages::AUTH_EMAIL_INVALID, "email"),
            EmailRejection::OtherDomain => ApiError::Forbidden(messages::auth_domain_only(domain)),
        },
    )?;
    let password = NewPassword::parse(&body.text_or_empty("password"))
        .map_err(|m| invalid_field(m, "password"))?;
    if !mail::is_available(env) {
        return Err(ApiError::ServiceUnavailable(
            messages::AUTH_MAIL_NOT_CONFIGURED.into(),
        ));
    }
    refuse_common(env, &password, "password").await?;

    let ip = http::client_ip(&req);
    // Before any D1 work or e-mail: a bot without a valid token costs one check.
    if let Some(turnstile) = Turnstile::from_env(env) {
        let url = req.url()?;
        let expected = Expected {
            hostname: url.host_str().unwrap_or_default(),
            form: Form::Signup,
        };
        turnstile.check(&body, &ip, expected).await?;
    }
    // Counted before the password is hashed: the limit decides whether the work is done.
    let network = http::client_network(&req);
    // The links to one mailbox are counted together (`ana+1@`, `ana+2@` all
    // reach Ana), and only a sign-up its address is allowed counts against
    // the mailbox's limit.
    let mailbox = email.mailbox();
    let gate = (&SIGNUPS, network.as_str());
    let mut batch = Batch::new();
    let per_address = batch.push(rate_limit::hit(&ctx.db, &SIGNUPS, &network, ctx.now));
    let per_mailbox = batch.push(rate_limit::hit_within(
        &ctx.db,
        &SIGNUPS_PER_EMAIL,
        &mailbox,
        ctx.now,
        gate,
    ));
    let user = batch.push::<store::UserRow>(store::find_user(&ctx.db, email.as_str()));
    let disabled = batch.add(store::disabled_mailbox(&ctx.db, &mailbox));
    let results = batch.run(&ctx.db).await?;
    let count = |hit| rate_limit::counted(&results, hit);
    if !SIGNUPS.allows(count(per_address)?) {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_SIGNUPS.into(),
        ));
    }
    let known = results.first(user)?;
    // A switched-off account is told nothing new: it is simply taken; so is
    // another address of its mailbox (`ana+x@` for a switched-off `ana@`).
    if known
        .as_ref()
        .is_some_and(|u| u.confirmed_at.is_some() || u.disabled_at.is_some())
        || results.returned_row(disabled)
    {
        return Err(ApiError::Conflict(messages::AUTH_ALREADY_REGISTERED.into()));
    }
    if !SIGNUPS_PER_EMAIL.allows(count(per_mailbox)?) {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_SIGNUP_EMAILS.into(),
        ));
    }
    site_allows(&ctx, env, &mailbox).await?;

    let hash = PasswordHash::new(password.as_str()).await?.to_string();
    let (link_token, link_hash) = secret_token::generate();
    let mut batch = Batch::new();
    let link_made = store::signup(
        &mut batch,
        &ctx.db,
        email.as_str(),
        &hash,
        &link_hash,
        ctx.now,
        ctx.now + CONFIRMATION_LIFETIME_MS,
    );
    let results = batch.run(&ctx.db).await?;
    if results.changes(link_made) != 1 {
        // Confirmed (or switched off) by another request in the meantime.
        return Err(ApiError::Conflict(messages::AUTH_ALREADY_REGISTERED.into()));
    }

    let link = ctx.link(&format!("/auth?confirmar={link_token}"));
    if let Err(error) = mail::send(env, &emails::confirmation(email.as_str(), &link)).await {
        worker::console_error!("signup: the confirmation e-mail was not sent: {error}");
        return Err(ApiError::BadGateway(messages::AUTH_MAIL_FAILED.into()));
    }
    http::success(&LinkSent {
        email: email.as_str(),
    })
}

/// A sign-up's answer: the address its link went to.
#[derive(Serialize)]
struct LinkSent<'a> {
    email: &'a str,
}

/// The whole site's sign-ups an hour and a day, counted only for one that
/// will send its e-mail (its address, its mailbox and the account allow
/// it): one refused, or to an address already registered, uses up nothing
/// of everyone's. One the site refuses gives the mailbox its count back:
/// someone who tries again once sign-ups resume has their three links.
async fn site_allows(ctx: &AuthContext, env: &Env, mailbox: &str) -> ApiResult<()> {
    let per_hour = SIGNUPS_ALL_HOUR.configured(env, "STAFF_SIGNUPS_PER_HOUR");
    let per_day = SIGNUPS_ALL_DAY.configured(env, "STAFF_SIGNUPS_PER_DAY");
    let mut batch = Batch::new();
    let hour = batch.push(rate_limit::hit(&ctx.db, &per_hour, EVERYONE, ctx.now));
    let day = batch.push(rate_limit::hit(&ctx.db, &per_day, EVERYONE, ctx.now));
    let results = batch.run(&ctx.db).await?;
    let count = |hit| rate_limit::counted(&results, hit);
    if per_hour.allows(count(hour)?) && per_day.allows(count(day)?) {
        return Ok(());
    }
    worker::console_warn!("signup: the site-wide limit is reached; sign-ups are paused");
    let refund = rate_limit::refund(&ctx.db, &SIGNUPS_PER_EMAIL, mailbox, ctx.now);
    db::run(&refund).await?;
    Err(ApiError::TooManyRequests(
        messages::AUTH_SIGNUPS_PAUSED.into(),
    ))
}

/// `POST /api/auth/confirm` `{token, password}`: the link's owner types the
/// sign-up's password; the account is confirmed with it and signed in.
pub async fn confirm(mut req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let token = body.text_or_empty("token");
    let typed = body.text_or_empty("password");
    let invalid_link = || ApiError::BadRequest(messages::AUTH_CONFIRMATION_INVALID.into());
    if !secret_token::looks_valid(&token) {
        return Err(invalid_link());
    }
    if typed.is_empty() {
        return Err(invalid_field(
            messages::AUTH_CONFIRMATION_PASSWORD_REQUIRED,
            "password",
        ));
    }
    let link_hash = secret_token::hash(&token);
    let row = store::find_confirmation(&ctx.db, &link_hash)
        .await?
        .filter(|c| c.used_at.is_none() && c.expires_at > ctx.now && c.disabled_at.is_none())
        .ok_or_else(invalid_link)?;
    // A few tries per link, counted before the password work; then the link is spent.
    let try_link = rate_limit::hit(&ctx.db, &CONFIRMATION_TRIES, &link_hash, ctx.now);
    let tries = db::first::<CountRow>(&try_link)
        .await?
        .map_or(0, |r| r.count);
    if !CONFIRMATION_TRIES.allows(tries) {
        return Err(invalid_link());
    }
    if !password::matches(&typed, Some(&row.password_hash)).await? {
        return Err(invalid_field(
            messages::AUTH_CONFIRMATION_PASSWORD,
            "password",
        ));
    }
    if !store::use_confirmation(&ctx.db, &link_hash, ctx.now).await? {
        return Err(invalid_link());
    }
    // Who becomes the first owner, when the deploy names them: otherwise
    // whoever at the agency's domain confirms first would.
    let owner_email = config::setting(env, "OWNER_EMAIL").map(|e| e.to_ascii_lowercase());
    // With STAFF_APPROVAL on, an owner lets each new account in ('Equipe').
    let needs_approval = config::setting(env, "STAFF_APPROVAL").as_deref() == Some("true");
    let mut batch = Batch::new();
    store::confirm_user(
        &mut batch,
        &ctx.db,
        &row.user_id,
        &row.password_hash,
        ctx.now,
        owner_email.as_deref(),
        needs_approval,
    );
    batch.add(activity::record(
        &ctx.db,
        Actor {
            id: Some(&row.user_id),
            email: &row.email,
        },
        Action::Confirm,
        Subject::Account(&row.user_id),
        ctx.now,
    ));
    let role = batch.push::<store::RoleRow>(store::role_of(&ctx.db, &row.user_id));
    let session = context::new_session(&ctx, &mut batch, &row.user_id, &row.password_hash);
    let results = batch.run(&ctx.db).await?;
    if !session.made(&results) {
        return Err(context::switched_off());
    }
    let confirmed = results.first(role)?;
    let account = Account {
        id: row.user_id,
        email: row.email,
        role: confirmed.as_ref().map_or(Role::Staff, |r| r.role),
        approved: confirmed.is_some_and(|r| r.approved_at.is_some()),
    };
    let answer = context::answer_new_session(&ctx, &account, &row.password_hash, &session)?;
    // Every other owner hears of the new account at once: one who does not
    // know it switches it off ('Desativar') or, waiting, refuses it.
    let team = ctx.link("/admin/equipe");
    for owner in store::owners_but(&ctx.db, &account.id).await? {
        let news = emails::new_account(&owner, &account.email, !account.approved, &team);
        mail::send_later(worker_ctx, env, news);
    }
    Ok(answer)
}
