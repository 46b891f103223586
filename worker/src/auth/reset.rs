//! 'Esqueci minha senha' (a one-time link by e-mail) and 'Alterar senha'.
//!
//! A reset request answers the same words, in the same time, whether the
//! address has an account, is unconfirmed, switched off or unknown: the
//! counters and the link are one D1 batch in every case, and the e-mail goes
//! out after the answer. Using the link sets the password, ends every other
//! session of the account and signs the person in.

use serde::Serialize;
use worker::{Context, Env, Request, Response};

use super::context::{self, Account, AuthContext};
use super::emails::{self, Security};
use super::password::{self, PasswordHash};
use super::signup::refuse_common;
use super::staff::{NewPassword, StaffEmail};
use super::{guard, login, secret_token, store};
use crate::agency::messages;
use crate::audit::{self as activity, Action, Actor, IfAccount, Subject};
use crate::http::rate_limit::{
    self, PASSWORD_CHANGE_TRIES, RESET_REQUESTS_PER_EMAIL, RESET_REQUESTS_PER_IP,
};
use crate::http::{self, ApiError, ApiResult, invalid_field};
use crate::mail;
use crate::platform::db::Batch;

/// A reset link is valid for 1 hour.
const RESET_LIFETIME_MS: i64 = 60 * 60 * 1000;

/// `POST /api/auth/reset-request` `{email}`.
pub async fn request(mut req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let email = StaffEmail::parse(&body.text_or_empty("email"))
        .map_err(|_| invalid_field(messages::AUTH_EMAIL_INVALID, "email"))?;
    if !mail::is_available(env) {
        return Err(ApiError::ServiceUnavailable(
            messages::AUTH_MAIL_NOT_CONFIGURED.into(),
        ));
    }
    let network = http::client_network(&req);
    let (ip_key, email_key) = (
        RESET_REQUESTS_PER_IP.key(&network),
        RESET_REQUESTS_PER_EMAIL.key(email.as_str()),
    );
    let per_email = store::Within {
        key: &email_key,
        max: RESET_REQUESTS_PER_EMAIL.max,
    };
    // A browser the account knows (its device cookie) asks for its own
    // account: it is not counted against its address, so an office whose
    // people forget their passwords never locks each other out; the
    // account's own limit still holds. Any other request is what a stranger
    // trying addresses costs, and counts per address too.
    let known_device = login::recognise_device(&req, &ctx, email.as_str())
        .await?
        .is_some();
    let mut batch = Batch::new();
    let (address_hit, email_hit, limits) = if known_device {
        let counted = rate_limit::hit(&ctx.db, &RESET_REQUESTS_PER_EMAIL, email.as_str(), ctx.now);
        // The account's own limit, in both of the link's checks.
        (None, batch.push(counted), [per_email, per_email])
    } else {
        let per_ip = store::Within {
            key: &ip_key,
            max: RESET_REQUESTS_PER_IP.max,
        };
        let address_hit = batch.push(rate_limit::hit(
            &ctx.db,
            &RESET_REQUESTS_PER_IP,
            &network,
            ctx.now,
        ));
        let email_hit = batch.push(rate_limit::hit_within(
            &ctx.db,
            &RESET_REQUESTS_PER_EMAIL,
            email.as_str(),
            ctx.now,
            (&RESET_REQUESTS_PER_IP, &network),
        ));
        (Some(address_hit), email_hit, [per_ip, per_email])
    };
    let (link_token, link_hash) = secret_token::generate();
    let link_made = batch.add(store::insert_reset(
        &ctx.db,
        &link_hash,
        email.as_str(),
        ctx.now,
        ctx.now + RESET_LIFETIME_MS,
        limits,
    ));
    let results = batch.run(&ctx.db).await?;
    let count = |hit| rate_limit::counted(&results, hit);
    let address_refused = match address_hit {
        Some(hit) => !RESET_REQUESTS_PER_IP.allows(count(hit)?),
        None => false,
    };
    if address_refused || !RESET_REQUESTS_PER_EMAIL.allows(count(email_hit)?) {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_RESET_REQUESTS.into(),
        ));
    }
    if results.changes(link_made) == 1 {
        let link = ctx.link(&format!("/auth?redefinir={link_token}"));
        let message = emails::password_reset(email.as_str(), &link);
        let env = env.clone();
        // After the answer, so it takes as long whoever asked.
        worker_ctx.wait_until(async move {
            if let Err(error) = mail::send(&env, &message).await {
                worker::console_error!("reset: the e-mail was not sent: {error}");
            }
        });
    }
    http::success(&Said {
        message: messages::AUTH_RESET_REQUESTED,
    })
}

/// A reset request's answer: the same words whoever asked.
#[derive(Serialize)]
struct Said {
    message: &'static str,
}

/// `POST /api/auth/reset` `{token, password}`: sets the new password, ends
/// every session of the account and signs this browser in.
pub async fn reset(mut req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let token = body.text_or_empty("token");
    let invalid_link = || ApiError::BadRequest(messages::AUTH_RESET_INVALID.into());
    if !secret_token::looks_valid(&token) {
        return Err(invalid_link());
    }
    let new = NewPassword::parse(&body.text_or_empty("password"))
        .map_err(|m| invalid_field(m, "password"))?;
    refuse_common(env, &new, "password").await?;
    let Some(user_id) = store::use_reset(&ctx.db, &secret_token::hash(&token), ctx.now).await?
    else {
        return Err(invalid_link());
    };
    let user = store::find_user_by_id(&ctx.db, &user_id)
        .await?
        .ok_or_else(invalid_link)?;
    let hash = PasswordHash::new(new.as_str()).await?.to_string();
    let actor = Actor {
        id: Some(&user.id),
        email: &user.email,
    };
    let mut batch = Batch::new();
    store::set_password(&mut batch, &ctx.db, &user.id, &hash, ctx.now);
    batch.add(store::revoke_all_sessions(&ctx.db, &user.id, ctx.now));
    batch.add(store::mark_signed_in(&ctx.db, &user.id, &hash, ctx.now));
    batch.add(activity::record(
        &ctx.db,
        actor,
        Action::PasswordReset,
        Subject::Account(&user.id),
        ctx.now,
    ));
    let account = Account {
        id: user.id.clone(),
        email: user.email.clone(),
        role: user.role,
        approved: user.approved_at.is_some(),
    };
    // The batch sets the password its session asks for; only 'Desativar'
    // landing first leaves it without one.
    let answer =
        context::start_session(&ctx, &account, &hash, batch, |_| context::switched_off()).await?;
    let notice = emails::security_notice(
        &account.email,
        Security::PasswordReset,
        &ctx.forgot_password_link(),
    );
    mail::send_later(worker_ctx, env, notice);
    Ok(answer)
}

/// `POST /api/auth/password` `{current_password, new_password}`: 'Alterar
/// senha' for the signed-in staff member; every other session ends.
pub async fn change(mut req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    // Also for an account still waiting for approval.
    let staff = guard::require_session(&req, env).await?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let current = body.text_or_empty("current_password");
    if current.is_empty() {
        return Err(invalid_field(
            messages::AUTH_CURRENT_PASSWORD_WRONG,
            "current_password",
        ));
    }
    let new = NewPassword::parse(&body.text_or_empty("new_password"))
        .map_err(|m| invalid_field(m, "new_password"))?;
    refuse_common(env, &new, "new_password").await?;
    // The current password is guessed against the session's own limit, so a
    // stolen access token cannot be used to find it.
    let mut batch = Batch::new();
    let tried = batch.push(rate_limit::hit(
        &ctx.db,
        &PASSWORD_CHANGE_TRIES,
        &staff.session_id,
        ctx.now,
    ));
    let user = batch.push::<store::UserRow>(store::find_user(&ctx.db, &staff.email));
    let results = batch.run(&ctx.db).await?;
    let tries = rate_limit::counted(&results, tried)?;
    if !PASSWORD_CHANGE_TRIES.allows(tries) {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_FAILURES.into(),
        ));
    }
    let user = results.first(user)?;
    let checked = user.map(|u| u.password_hash);
    if !password::matches(&current, checked.as_deref()).await? {
        return Err(invalid_field(
            messages::AUTH_CURRENT_PASSWORD_WRONG,
            "current_password",
        ));
    }
    let checked = checked.unwrap_or_default();
    let hash = PasswordHash::new(new.as_str()).await?.to_string();
    let mut batch = Batch::new();
    let changed = store::change_password(
        &mut batch,
        &ctx.db,
        &staff.user_id,
        &staff.session_id,
        &checked,
        &hash,
        ctx.now,
    );
    batch.add(rate_limit::refund(
        &ctx.db,
        &PASSWORD_CHANGE_TRIES,
        &staff.session_id,
        ctx.now,
    ));
    batch.add(activity::record_if(
        &ctx.db,
        IfAccount::Stands(&hash),
        Actor {
            id: Some(&staff.user_id),
            email: &staff.email,
        },
        Action::PasswordChange,
        Subject::Account(&staff.user_id),
        ctx.now,
    ));
    let results = batch.run(&ctx.db).await?;
    if results.changes(changed) != 1 {
        // A reset, a sign-out or 'Desativar' came first and ended this
        // session; or another change did, and the password typed as the
        // current one no longer is.
        return Err(
            match store::live_session(&ctx.db, &staff.session_id, ctx.now).await? {
                None => ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into()),
                Some(_) => invalid_field(messages::AUTH_CURRENT_PASSWORD_WRONG, "current_password"),
            },
        );
    }
    // This browser stays a known device; those that knew the old password do not.
    let response = http::success_only()?;
    context::remember_device(&ctx, &staff.email, &hash, &response)?;
    let notice = emails::security_notice(
        &staff.email,
        Security::PasswordChanged,
        &ctx.forgot_password_link(),
    );
    mail::send_later(worker_ctx, env, notice);
    Ok(response)
}
