//! Sign-in: the attempt is counted before the password is checked, in the
//! same D1 batch that reads the account, so however many guesses arrive at
//! once, at most 5 per account (per device that signed in before, for a
//! device the account knows) and 10 per address are ever checked in a
//! 15-minute window; a device the account knows is held by its own counters
//! only. A right password gives its count back.

use crate::web::{Request, Response};
use worker::{Context, Env};

use super::context::{self, Account, AuthContext};
use super::emails::{self, Security};
use super::password;
use super::staff::StaffEmail;
use super::{device, store};
use crate::audit::{self, Action, Actor, IfAccount, Subject};
use crate::d1;
use crate::http::{self, ApiError, ApiResult};
use crate::rate_limit::{
    self, Counter, LOGIN_FAILURES_PER_ACCOUNT_DEVICES, LOGIN_FAILURES_PER_DEVICE,
    LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP, Limit,
};
use crate::{mail, messages};

/// `POST /api/auth/login` `{email, password}`.
pub async fn login(req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&req).await?;
    let text = |key| body.text_or_empty(key);
    let (raw_email, typed) = (text("email"), text("password"));
    if raw_email.trim().is_empty() || typed.is_empty() {
        return Err(ApiError::Unprocessable {
            message: messages::AUTH_FIELDS_REQUIRED.into(),
            fields: Default::default(),
        });
    }
    // A malformed address is just an unknown one: same answer, same cost.
    let email = StaffEmail::parse(&raw_email)
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|_| raw_email.trim().to_ascii_lowercase());
    let network = http::client_network(&req);

    // A device that signed in to this account before, with its password as
    // it is now, counts on its own (its cookie is checked against the stored
    // password, read first; a browser without one costs no extra read).
    let device_id = match context::device_cookie(&req, &ctx) {
        Some(cookie) => store::password_hash(&ctx.db, &email)
            .await?
            .and_then(|password_hash| {
                let holder = device::Holder {
                    email: &email,
                    password_hash: &password_hash,
                };
                device::recognise(&ctx.secret, holder, &cookie)
            }),
        None => None,
    };
    let (per_account, account_subject): (&Limit, &str) = match &device_id {
        Some(id) => (&LOGIN_FAILURES_PER_DEVICE, id),
        None => (&LOGIN_FAILURES_PER_EMAIL, &email),
    };
    // A browser the account knows is never kept out by its address's
    // count (an office's NAT, a carrier's shared address): its own counters
    // hold it, and it adds nothing to the address's.
    let stranger = device_id.is_none();
    let ip_counted_at_edge = match Counter::for_limit(env, &LOGIN_FAILURES_PER_IP) {
        Counter::Binding(_) if !stranger => true,
        Counter::Binding(limiter) => {
            if !rate_limit::within_binding(&limiter, &LOGIN_FAILURES_PER_IP, &network).await? {
                return Err(ApiError::TooManyRequests(
                    messages::AUTH_TOO_MANY_ATTEMPTS.into(),
                ));
            }
            true
        }
        Counter::D1 => false,
    };

    // Every limit this attempt is counted against: the address's first
    // (unless counted at the edge), then its own counter and, for a known
    // device, all the account's devices together. Those two count only an
    // attempt the address is allowed: an address already refused writes no
    // counter per made-up e-mail, and uses up no one's allowance.
    let ip_gate =
        (stranger && !ip_counted_at_edge).then_some((&LOGIN_FAILURES_PER_IP, network.as_str()));
    let mut limits: Vec<(&Limit, &str)> = ip_gate.into_iter().collect();
    let mut statements = vec![store::sign_in_account(&ctx.db, &email)];
    if let Some((limit, subject)) = ip_gate {
        statements.push(rate_limit::hit(&ctx.db, limit, subject, ctx.now));
    }
    let mut own = vec![(per_account, account_subject)];
    if device_id.is_some() {
        own.push((&LOGIN_FAILURES_PER_ACCOUNT_DEVICES, &email));
    }
    for (limit, subject) in own {
        statements.push(match ip_gate {
            Some(gate) => rate_limit::hit_within(&ctx.db, limit, subject, ctx.now, gate),
            None => rate_limit::hit(&ctx.db, limit, subject, ctx.now),
        });
        limits.push((limit, subject));
    }
    let results = ctx.db.batch(statements).await?;
    let count = |i| rate_limit::counted(&results, i);
    let mut allowed = true;
    for (i, (limit, _)) in limits.iter().enumerate() {
        allowed &= limit.allows(count(i + 1)?);
    }
    if !allowed {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_FAILURES.into(),
        ));
    }

    let user = d1::first_row::<store::UserRow>(&results, 0)?;
    let stored = match &user {
        Some(u) if u.confirmed_at.is_some() => Some(u.password_hash.as_str()),
        Some(u) => u.pending_password_hash.as_deref(),
        None => None,
    };
    let verified = password::matches(&typed, stored).await?;
    let known_id = user.as_ref().map(|u| u.id.clone());

    let mut refunds = Vec::new();
    for (limit, subject) in &limits {
        refunds.push(rate_limit::refund(&ctx.db, limit, subject, ctx.now));
    }
    let Some(user) = user.filter(|_| verified) else {
        let actor = Actor {
            id: known_id.as_deref(),
            email: &email,
        };
        audit::record(
            &ctx.db,
            actor,
            Action::SignInFailed,
            Subject::Nothing,
            ctx.now,
        )
        .run()
        .await?;
        return Err(ApiError::Unauthorized(
            messages::AUTH_INVALID_CREDENTIALS.into(),
        ));
    };
    let actor = Actor {
        id: Some(&user.id),
        email: &email,
    };
    if user.confirmed_at.is_none() {
        ctx.db.batch(refunds).await?;
        return Err(ApiError::Forbidden(messages::AUTH_NOT_CONFIRMED.into()));
    }
    if user.disabled_at.is_some() {
        refunds.push(audit::record(
            &ctx.db,
            actor,
            Action::SignInFailed,
            Subject::Account(&user.id),
            ctx.now,
        ));
        ctx.db.batch(refunds).await?;
        return Err(ApiError::Forbidden(messages::AUTH_ACCOUNT_DISABLED.into()));
    }
    // 'Desativar', 'Alterar senha' or a reset may land before this batch:
    // then no session is made, the answer is that of a sign-in made after
    // them (403 switched off; 401, as a wrong password, for the old one),
    // and the activity says so.
    let checked = user.password_hash.as_str();
    refunds.push(store::mark_signed_in(&ctx.db, &user.id, checked, ctx.now));
    let outcomes = [
        (IfAccount::Stands(checked), Action::SignIn, Subject::Nothing),
        (
            IfAccount::Off,
            Action::SignInFailed,
            Subject::Account(&user.id),
        ),
        (
            IfAccount::PasswordChanged(checked),
            Action::SignInFailed,
            Subject::Nothing,
        ),
    ];
    let off_at = refunds.len() + 1;
    for (state, action, subject) in outcomes {
        refunds.push(audit::record_if(
            &ctx.db, state, actor, action, subject, ctx.now,
        ));
    }
    let account = Account {
        id: user.id.clone(),
        email: user.email.clone(),
        role: user.role.clone(),
        approved: user.approved_at.is_some(),
    };
    let answer = context::start_session(&ctx, &account, checked, refunds, |results| match results
        .get(off_at)
        .map(d1::changes)
    {
        Some(1) => context::switched_off(),
        _ => ApiError::Unauthorized(messages::AUTH_INVALID_CREDENTIALS.into()),
    })
    .await?;
    // A browser the account had not used: its owner hears of it ('Não foi você?').
    if stranger {
        let notice = emails::security_notice(
            &account.email,
            Security::NewDevice(ctx.now),
            &ctx.forgot_password_link(),
        );
        mail::send_later(worker_ctx, env, notice);
    }
    Ok(answer)
}
