//! Sign-in: the attempt is counted before the password is checked, in the
//! same D1 batch that reads the account, so however many guesses arrive at
//! once, at most 5 per account (per device that signed in before, for a
//! device the account knows) and 10 per address are ever checked in a
//! 15-minute window; a device the account knows is held by its own counters
//! only. A right password gives its count back.
//!
//! The steps, in the order [`login`] takes them: [`read_credentials`],
//! [`recognise_device`], [`count_address_at_edge`], [`count_attempt`], the
//! password check ([`password_to_check`]), then [`refuse_wrong_password`] or
//! [`refuse_closed_account`] or [`open_session`], and last, for a browser the
//! account did not know, [`warn_of_new_browser`].

use worker::{Context, Env, Request, Response};

use super::context::{self, Account, AuthContext};
use super::emails::{self, Security};
use super::staff::StaffEmail;
use super::store::{self, UserRow};
use super::{device, password};
use crate::agency::messages;
use crate::audit::{self as activity, Action, Actor, IfAccount, Subject};
use crate::http::rate_limit::{
    self, Counter, LOGIN_FAILURES_PER_ACCOUNT_DEVICES, LOGIN_FAILURES_PER_DEVICE,
    LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP, Limit,
};
use crate::http::{self, ApiError, ApiResult};
use crate::mail;
use crate::platform::db::{self, Batch, D1PreparedStatement, Results};

/// A limit and the subject it counts: an address, an e-mail, a device.
type Counted<'a> = (&'static Limit, &'a str);

/// Who is signing in, and from where: what the attempt is counted by.
struct Attempt<'a> {
    /// The address typed, lower-cased.
    email: &'a str,
    /// This browser's id among the account's devices, if it is one.
    device: Option<&'a str>,
    /// The caller's address, as per-address limits count it.
    network: &'a str,
}

impl Attempt<'_> {
    /// A browser the account has not signed in with (or not since its
    /// password was last set).
    fn is_stranger(&self) -> bool {
        self.device.is_none()
    }
}

/// `POST /api/auth/login` `{email, password}`.
pub async fn login(mut req: Request, env: &Env, worker_ctx: &Context) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let (email, typed) = read_credentials(&mut req).await?;
    let network = http::client_network(&req);
    let device = recognise_device(&req, &ctx, &email).await?;
    let attempt = Attempt {
        email: &email,
        device: device.as_deref(),
        network: &network,
    };
    let address_counted = count_address_at_edge(env, &attempt).await?;
    let (user, counted) = count_attempt(&ctx, &attempt, address_counted).await?;
    let verified = password::matches(&typed, password_to_check(user.as_ref())).await?;
    let user = match user {
        Some(user) if verified => user,
        other => return Err(refuse_wrong_password(&ctx, other.as_ref(), &email).await?),
    };
    let actor = Actor {
        id: Some(&user.id),
        email: &email,
    };
    refuse_closed_account(&ctx, &user, actor, &counted).await?;
    let answer = open_session(&ctx, &user, actor, &counted).await?;
    if attempt.is_stranger() {
        warn_of_new_browser(worker_ctx, env, &ctx, &user.email);
    }
    Ok(answer)
}

/// The address and the password typed, both required; the address
/// lower-cased. A malformed address is just an unknown one: same answer,
/// same cost.
async fn read_credentials(req: &mut Request) -> ApiResult<(String, String)> {
    let body = http::read_json_object(req).await?;
    let (raw_email, typed) = (body.text_or_empty("email"), body.text_or_empty("password"));
    if raw_email.trim().is_empty() || typed.is_empty() {
        return Err(ApiError::Unprocessable {
            message: messages::AUTH_FIELDS_REQUIRED.into(),
            fields: Default::default(),
        });
    }
    let email = StaffEmail::parse(&raw_email)
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|_| raw_email.trim().to_ascii_lowercase());
    Ok((email, typed))
}

/// This browser's id among the account's devices. A device that signed in
/// to this account before, with its password as it is now, counts on its
/// own (its cookie is checked against the stored password, read first; a
/// browser without one costs no extra read).
pub(super) async fn recognise_device(
    req: &Request,
    ctx: &AuthContext,
    email: &str,
) -> ApiResult<Option<String>> {
    let Some(cookie) = context::device_cookie(req, ctx) else {
        return Ok(None);
    };
    let Some(password_hash) = store::password_hash(&ctx.db, email).await? else {
        return Ok(None);
    };
    let holder = device::Holder {
        email,
        password_hash: &password_hash,
    };
    Ok(device::recognise(&ctx.secret, holder, &cookie))
}

/// Counts a stranger's address with the Rate Limiting binding, when one is
/// set up, and refuses it there once over the limit. A browser the account
/// knows is never kept out by its address's count (an office's NAT, a
/// carrier's shared address): its own counters hold it, and it adds nothing
/// to the address's. `false`: the address is left to the D1 counters.
async fn count_address_at_edge(env: &Env, attempt: &Attempt<'_>) -> ApiResult<bool> {
    match Counter::for_limit(env, &LOGIN_FAILURES_PER_IP) {
        Counter::Binding(_) if !attempt.is_stranger() => Ok(true),
        Counter::Binding(limiter) => {
            if !rate_limit::within_binding(&limiter, &LOGIN_FAILURES_PER_IP, attempt.network)
                .await?
            {
                return Err(ApiError::TooManyRequests(
                    messages::AUTH_TOO_MANY_ATTEMPTS.into(),
                ));
            }
            Ok(true)
        }
        Counter::D1 => Ok(false),
    }
}

/// Counts the attempt against every limit it falls under, in the batch that
/// reads the account: the address's first (unless counted at the edge), then
/// its own counter and, for a known device, all the account's devices
/// together. Those two count only an attempt the address is allowed: an
/// address already refused writes no counter per made-up e-mail, and uses
/// up no one's allowance. 429 when any limit is over; otherwise the
/// account, if the address has one, and the limits counted.
async fn count_attempt<'a>(
    ctx: &AuthContext,
    attempt: &Attempt<'a>,
    address_counted: bool,
) -> ApiResult<(Option<UserRow>, Vec<Counted<'a>>)> {
    let ip_gate: Option<Counted<'a>> = (attempt.is_stranger() && !address_counted)
        .then_some((&LOGIN_FAILURES_PER_IP, attempt.network));
    let mut counted: Vec<Counted<'a>> = ip_gate.into_iter().collect();
    let mut batch = Batch::new();
    let account = batch.push::<UserRow>(store::sign_in_account(&ctx.db, attempt.email));
    let mut hits: Vec<rate_limit::Hit> = Vec::new();
    if let Some((limit, subject)) = ip_gate {
        hits.push(batch.push(rate_limit::hit(&ctx.db, limit, subject, ctx.now)));
    }
    for (limit, subject) in own_limits(attempt) {
        hits.push(batch.push(match ip_gate {
            Some(gate) => rate_limit::hit_within(&ctx.db, limit, subject, ctx.now, gate),
            None => rate_limit::hit(&ctx.db, limit, subject, ctx.now),
        }));
        counted.push((limit, subject));
    }
    let results = batch.run(&ctx.db).await?;
    let mut allowed = true;
    for ((limit, _), hit) in counted.iter().zip(hits) {
        allowed &= limit.allows(rate_limit::counted(&results, hit)?);
    }
    if !allowed {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_FAILURES.into(),
        ));
    }
    Ok((results.first(account)?, counted))
}

/// The attempt's own limits: its device's, or its e-mail's for a stranger;
/// for a known device, also all the account's devices together.
fn own_limits<'a>(attempt: &Attempt<'a>) -> Vec<Counted<'a>> {
    match attempt.device {
        Some(id) => vec![
            (&LOGIN_FAILURES_PER_DEVICE, id),
            (&LOGIN_FAILURES_PER_ACCOUNT_DEVICES, attempt.email),
        ],
        None => vec![(&LOGIN_FAILURES_PER_EMAIL, attempt.email)],
    }
}

/// What the typed password is checked against: the account's, or while it
/// is unconfirmed, the one its newest sign-up link waits on (so "confirm
/// your e-mail" is said only to whoever signed up). None for an unknown
/// address, which costs the same check.
fn password_to_check(user: Option<&UserRow>) -> Option<&str> {
    match user {
        Some(u) if u.confirmed_at.is_some() => Some(u.password_hash.as_str()),
        Some(u) => u.pending_password_hash.as_deref(),
        None => None,
    }
}

/// A wrong password or an unknown address: the attempt stays counted and
/// goes into the activity (as the account's, when the address has one);
/// the answer is the same 401 either way.
async fn refuse_wrong_password(
    ctx: &AuthContext,
    user: Option<&UserRow>,
    email: &str,
) -> ApiResult<ApiError> {
    let actor = Actor {
        id: user.map(|u| u.id.as_str()),
        email,
    };
    let failed = activity::record(
        &ctx.db,
        actor,
        Action::SignInFailed,
        Subject::Nothing,
        ctx.now,
    );
    db::run(&failed).await?;
    Ok(ApiError::Unauthorized(
        messages::AUTH_INVALID_CREDENTIALS.into(),
    ))
}

/// The right password for an account that may not sign in: not confirmed
/// yet, or switched off (which goes into the activity). Its counts are
/// given back, and the answer says which.
async fn refuse_closed_account(
    ctx: &AuthContext,
    user: &UserRow,
    actor: Actor<'_>,
    counted: &[Counted<'_>],
) -> ApiResult<()> {
    if user.confirmed_at.is_none() {
        db::batch(&ctx.db, give_counts_back(ctx, counted)).await?;
        return Err(ApiError::Forbidden(messages::AUTH_NOT_CONFIRMED.into()));
    }
    if user.disabled_at.is_some() {
        let mut statements = give_counts_back(ctx, counted);
        statements.push(activity::record(
            &ctx.db,
            actor,
            Action::SignInFailed,
            Subject::Account(&user.id),
            ctx.now,
        ));
        db::batch(&ctx.db, statements).await?;
        return Err(ApiError::Forbidden(messages::AUTH_ACCOUNT_DISABLED.into()));
    }
    Ok(())
}

/// A right password: the counts it was counted against are taken back.
fn give_counts_back(ctx: &AuthContext, counted: &[Counted<'_>]) -> Vec<D1PreparedStatement> {
    counted
        .iter()
        .map(|(limit, subject)| rate_limit::refund(&ctx.db, limit, subject, ctx.now))
        .collect()
}

/// Opens the session, in one batch with the counts given back, the last
/// sign-in's time and the activity. 'Desativar', 'Alterar senha' or a reset
/// may land before this batch: then no session is made, the answer is that
/// of a sign-in made after them (403 switched off; 401, as a wrong
/// password, for the old one), and the activity says so.
async fn open_session(
    ctx: &AuthContext,
    user: &UserRow,
    actor: Actor<'_>,
    counted: &[Counted<'_>],
) -> ApiResult<Response> {
    let checked = user.password_hash.as_str();
    let mut batch = Batch::new();
    for refund in give_counts_back(ctx, counted) {
        batch.add(refund);
    }
    batch.add(store::mark_signed_in(&ctx.db, &user.id, checked, ctx.now));
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
    let [_, off, _] = outcomes.map(|(state, action, subject)| {
        batch.add(activity::record_if(
            &ctx.db, state, actor, action, subject, ctx.now,
        ))
    });
    let account = Account {
        id: user.id.clone(),
        email: user.email.clone(),
        role: user.role,
        approved: user.approved_at.is_some(),
    };
    let refused = |results: &Results| match results.changes(off) {
        1 => context::switched_off(),
        _ => ApiError::Unauthorized(messages::AUTH_INVALID_CREDENTIALS.into()),
    };
    context::start_session(ctx, &account, checked, batch, refused).await
}

/// A browser the account had not used: its owner hears of it ('Não foi você?').
fn warn_of_new_browser(worker_ctx: &Context, env: &Env, ctx: &AuthContext, email: &str) {
    let notice = emails::security_notice(
        email,
        Security::NewDevice(ctx.now),
        &ctx.forgot_password_link(),
    );
    mail::send_later(worker_ctx, env, notice);
}
