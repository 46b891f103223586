//! The `/api/auth/*` endpoints: sign-up, e-mail confirmation, sign-in,
//! token refresh, sign-out and the current session.

use serde::Serialize;
use serde_json::{Map, Value, json};
use worker::{D1Database, Env, Request, Response};

use super::access_token::{Signer, StaffClaims};
use super::guard::{self, Staff};
use super::password::{self, PasswordHash};
use super::staff::{EmailRejection, NewPassword, StaffEmail};
use super::{cookie, secret_token, store};
use crate::http::{self, ApiError, ApiResult, text_field};
use crate::mail::{self, Email};
use crate::rate_limit::{
    self, CountRow, Counter, KeyCountRow, LOGIN_FAILURES_PER_EMAIL, LOGIN_FAILURES_PER_IP, SIGNUPS,
};
use crate::turnstile::Turnstile;
use crate::{agency, config, messages, platform};

/// A confirmation link is valid for 24 hours.
const CONFIRMATION_LIFETIME_MS: i64 = 24 * 60 * 60 * 1000;
const SESSION_LIFETIME_MS: i64 = cookie::MAX_AGE_SECONDS * 1000;

/// What every handler needs: the database, the token signer, the time of
/// the request and how cookies must be marked.
pub struct AuthContext {
    pub db: D1Database,
    pub signer: Signer,
    pub now: i64,
    secure_cookies: bool,
    origin: String,
}

impl AuthContext {
    pub fn new(req: &Request, env: &Env) -> ApiResult<Self> {
        let url = req.url()?;
        Ok(Self {
            db: config::database(env)?,
            signer: signer(env)?,
            now: platform::now_ms(),
            secure_cookies: cookie::must_be_secure(
                url.scheme(),
                url.host_str().unwrap_or_default(),
            ),
            origin: config::setting(env, "SITE_ORIGIN")
                .unwrap_or_else(|| url.origin().ascii_serialization()),
        })
    }
}

pub fn signer(env: &Env) -> ApiResult<Signer> {
    match config::setting(env, "JWT_SECRET") {
        Some(secret) => Ok(Signer::new(&secret)),
        None => Err(ApiError::Internal("JWT_SECRET is not set".into())),
    }
}

#[derive(Serialize)]
struct SessionAnswer<'a> {
    access_token: &'a str,
    expires_at: i64,
    user: UserAnswer<'a>,
}

#[derive(Serialize)]
struct UserAnswer<'a> {
    id: &'a str,
    email: &'a str,
}

fn text(body: &Map<String, Value>, key: &str) -> String {
    text_field(body, key).ok().flatten().unwrap_or_default()
}

/// `POST /api/auth/signup` `{email, password}`: creates the account (or
/// renews an unconfirmed one's password) and e-mails a one-time link.
pub async fn signup(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let domain = &agency::config().agency.staff_email_domain;
    let email =
        StaffEmail::parse_for_signup(&text(&body, "email"), domain).map_err(|e| match e {
            EmailRejection::Invalid => invalid(messages::AUTH_EMAIL_INVALID, "email"),
            EmailRejection::OtherDomain => ApiError::Forbidden(messages::auth_domain_only(domain)),
        })?;
    let password =
        NewPassword::parse(&text(&body, "password")).map_err(|m| invalid(m, "password"))?;

    let ip = http::client_ip(&req);
    // Before any D1 work or e-mail: a bot without a valid token costs one check.
    if let Some(turnstile) = Turnstile::from_env(env) {
        turnstile.check(&body, &ip).await?;
    }
    let results = ctx
        .db
        .batch(vec![
            rate_limit::hit(&ctx.db, &SIGNUPS, &ip, ctx.now)?,
            store::find_user(&ctx.db, email.as_str())?,
        ])
        .await?;
    let count = first_row::<CountRow>(&results, 0)?.map_or(0, |r| r.count);
    if !SIGNUPS.allows(count) {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_SIGNUPS.into(),
        ));
    }
    if first_row::<store::UserRow>(&results, 1)?.is_some_and(|u| u.confirmed_at.is_some()) {
        return Err(ApiError::Conflict(messages::AUTH_ALREADY_REGISTERED.into()));
    }

    let hash = PasswordHash::new(password.as_str()).to_string();
    let (link_token, link_hash) = secret_token::generate();
    let statements = store::signup(
        &ctx.db,
        &platform::new_id(),
        email.as_str(),
        &hash,
        &link_hash,
        ctx.now,
        ctx.now + CONFIRMATION_LIFETIME_MS,
    )?;
    let results = ctx.db.batch(statements).await?;
    if results.last().map(store::changes) != Some(1) {
        // Confirmed by another request in the meantime.
        return Err(ApiError::Conflict(messages::AUTH_ALREADY_REGISTERED.into()));
    }

    let link = format!(
        "{}/auth?confirmar={link_token}",
        ctx.origin.trim_end_matches('/')
    );
    if let Err(error) = mail::send(env, &confirmation_email(email.as_str(), &link)).await {
        worker::console_error!("signup: the confirmation e-mail was not sent: {error}");
        return Err(ApiError::BadGateway(messages::AUTH_MAIL_FAILED.into()));
    }
    http::success(json!({ "email": email.as_str() }))
}

fn confirmation_email(to: &str, link: &str) -> Email {
    let development = &agency::config().development.name;
    let text = format!(
        "Olá!\n\nRecebemos um pedido de acesso ao painel administrativo do {development} para este e-mail.\n\n\
         Para confirmar e entrar, abra o link abaixo (válido por 24 horas):\n{link}\n\n\
         Se não foi você, ignore esta mensagem."
    );
    let link_html = mail::escape_html(link);
    let html = format!(
        "<p>Olá!</p><p>Recebemos um pedido de acesso ao painel administrativo do {} para este e-mail.</p>\
         <p><a href=\"{link_html}\">Confirmar meu e-mail e entrar</a></p>\
         <p>O link vale por 24 horas. Se o botão não funcionar, copie este endereço no navegador:<br>{link_html}</p>\
         <p>Se não foi você, ignore esta mensagem.</p>",
        mail::escape_html(development)
    );
    Email {
        to: to.to_string(),
        subject: messages::CONFIRM_MAIL_SUBJECT.to_string(),
        text,
        html,
    }
}

/// `POST /api/auth/confirm` `{token}`: uses a confirmation link, confirms the
/// account and signs the user in.
pub async fn confirm(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let token = text(&body, "token");
    let invalid_link = || ApiError::BadRequest(messages::AUTH_CONFIRMATION_INVALID.into());
    if !secret_token::looks_valid(&token) {
        return Err(invalid_link());
    }
    let link_hash = secret_token::hash(&token);
    let row = store::find_confirmation(&ctx.db, &link_hash)
        .await?
        .filter(|c| c.used_at.is_none() && c.expires_at > ctx.now)
        .ok_or_else(invalid_link)?;
    if !store::use_confirmation(&ctx.db, &link_hash, ctx.now).await? {
        return Err(invalid_link());
    }
    let confirm = store::confirm_user(&ctx.db, &row.user_id, ctx.now)?;
    start_session(&ctx, &row.user_id, &row.email, vec![confirm]).await
}

/// `POST /api/auth/login` `{email, password}`.
pub async fn login(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await?;
    let (raw_email, password) = (text(&body, "email"), text(&body, "password"));
    if raw_email.trim().is_empty() || password.is_empty() {
        return Err(ApiError::Unprocessable {
            message: messages::AUTH_FIELDS_REQUIRED.into(),
            fields: Default::default(),
        });
    }
    // A malformed address is just an unknown one: same answer, same cost.
    let email = StaffEmail::parse(&raw_email)
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|_| raw_email.trim().to_lowercase());
    let ip = http::client_ip(&req);
    let ip_counted_at_edge = match Counter::for_limit(env, &LOGIN_FAILURES_PER_IP) {
        Counter::Binding(limiter) => {
            if !rate_limit::within_binding(&limiter, &LOGIN_FAILURES_PER_IP, &ip).await? {
                return Err(ApiError::TooManyRequests(
                    messages::AUTH_TOO_MANY_ATTEMPTS.into(),
                ));
            }
            true
        }
        Counter::D1 => false,
    };
    let (ip_key, email_key) = (
        LOGIN_FAILURES_PER_IP.key(&ip),
        LOGIN_FAILURES_PER_EMAIL.key(&email),
    );
    let window = LOGIN_FAILURES_PER_IP.window_start(ctx.now);
    let results = ctx
        .db
        .batch(vec![
            worker::query!(&ctx.db, rate_limit::READ_TWO_SQL, ip_key, email_key, window)?,
            store::find_user(&ctx.db, &email)?,
        ])
        .await?;
    let counts: Vec<KeyCountRow> = results
        .first()
        .map(|r| r.results())
        .transpose()?
        .unwrap_or_default();
    let past = |key: &str| counts.iter().find(|c| c.key == key).map_or(0, |c| c.count);
    if LOGIN_FAILURES_PER_IP.exhausted(past(&ip_key))
        || LOGIN_FAILURES_PER_EMAIL.exhausted(past(&email_key))
    {
        return Err(ApiError::TooManyRequests(
            messages::AUTH_TOO_MANY_FAILURES.into(),
        ));
    }

    let user = first_row::<store::UserRow>(&results, 1)?;
    let verified = match &user {
        Some(u) => PasswordHash::parse(&u.password_hash).is_some_and(|h| h.verify(&password)),
        None => {
            password::verify_against_nothing(&password);
            false
        }
    };
    let Some(user) = user.filter(|_| verified) else {
        let mut hits = vec![rate_limit::hit(
            &ctx.db,
            &LOGIN_FAILURES_PER_EMAIL,
            &email,
            ctx.now,
        )?];
        if !ip_counted_at_edge {
            hits.push(rate_limit::hit(
                &ctx.db,
                &LOGIN_FAILURES_PER_IP,
                &ip,
                ctx.now,
            )?);
        }
        ctx.db.batch(hits).await?;
        return Err(ApiError::Unauthorized(
            messages::AUTH_INVALID_CREDENTIALS.into(),
        ));
    };
    if user.confirmed_at.is_none() {
        return Err(ApiError::Forbidden(messages::AUTH_NOT_CONFIRMED.into()));
    }
    start_session(&ctx, &user.id, &user.email, vec![]).await
}

/// Creates a session (after `before`, in the same batch) and answers with
/// an access token and the refresh cookie.
async fn start_session(
    ctx: &AuthContext,
    user_id: &str,
    email: &str,
    mut before: Vec<worker::D1PreparedStatement>,
) -> ApiResult<Response> {
    let session_id = platform::new_id();
    let (refresh, refresh_hash) = secret_token::generate();
    before.extend(store::new_session(
        &ctx.db,
        &session_id,
        user_id,
        &refresh_hash,
        ctx.now,
        ctx.now + SESSION_LIFETIME_MS,
    )?);
    ctx.db.batch(before).await?;
    session_answer(ctx, user_id, email, &session_id, &refresh)
}

fn session_answer(
    ctx: &AuthContext,
    user_id: &str,
    email: &str,
    session_id: &str,
    refresh: &str,
) -> ApiResult<Response> {
    let claims = StaffClaims {
        sub: user_id.to_string(),
        email: email.to_string(),
        sid: session_id.to_string(),
    };
    let (token, expires_at) = ctx.signer.issue(claims, ctx.now);
    let response = http::success(SessionAnswer {
        access_token: &token,
        expires_at,
        user: UserAnswer { id: user_id, email },
    })?;
    response
        .headers()
        .set("Set-Cookie", &cookie::set(refresh, ctx.secure_cookies))?;
    Ok(response)
}

/// `POST /api/auth/refresh`: swaps the refresh cookie for a new one and a new
/// access token. A token that was already swapped revokes its session.
pub async fn refresh(req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let Some(token) = refresh_cookie(&req)? else {
        return signed_out(&ctx);
    };
    let token_hash = secret_token::hash(&token);
    let Some(row) = store::find_refresh(&ctx.db, &token_hash).await? else {
        return signed_out(&ctx);
    };
    if row.rotated_at.is_some() {
        worker::console_warn!(
            "refresh: a rotated token was presented again; session {} revoked",
            row.session_id
        );
        store::revoke_session(&ctx.db, &row.session_id, ctx.now).await?;
        return signed_out(&ctx);
    }
    if row.revoked_at.is_some() || row.expires_at <= ctx.now {
        return signed_out(&ctx);
    }
    let (successor, successor_hash) = secret_token::generate();
    let rotated = store::rotate(
        &ctx.db,
        &token_hash,
        &successor_hash,
        &row.session_id,
        ctx.now,
        ctx.now + SESSION_LIFETIME_MS,
    )
    .await?;
    if !rotated {
        worker::console_warn!(
            "refresh: two requests raced with one token; session {} revoked",
            row.session_id
        );
        store::revoke_session(&ctx.db, &row.session_id, ctx.now).await?;
        return signed_out(&ctx);
    }
    session_answer(&ctx, &row.user_id, &row.email, &row.session_id, &successor)
}

/// 401 that also removes the refresh cookie.
fn signed_out(ctx: &AuthContext) -> ApiResult<Response> {
    let response =
        ApiError::Unauthorized(messages::AUTH_SESSION_REQUIRED.into()).into_response()?;
    response
        .headers()
        .set("Set-Cookie", &cookie::clear(ctx.secure_cookies))?;
    Ok(response)
}

fn refresh_cookie(req: &Request) -> ApiResult<Option<String>> {
    let header = req.headers().get("Cookie")?.unwrap_or_default();
    Ok(cookie::read(&header)
        .filter(|t| secret_token::looks_valid(t))
        .map(str::to_string))
}

/// `POST /api/auth/logout` `{scope: "global" | "local"}` (global by default):
/// ends this session, or every session of the user. Always succeeds and
/// removes the cookie.
pub async fn logout(mut req: Request, env: &Env) -> ApiResult<Response> {
    http::require_same_origin(&req)?;
    let ctx = AuthContext::new(&req, env)?;
    let body = http::read_json_object(&mut req).await.unwrap_or_default();
    let global = text(&body, "scope") != "local";

    let from_token = guard::bearer(&req)?.and_then(|t| ctx.signer.verify(&t, ctx.now).ok());
    let who = match from_token {
        Some(claims) => Some((claims.sub, claims.sid)),
        None => match refresh_cookie(&req)? {
            Some(token) => store::find_refresh(&ctx.db, &secret_token::hash(&token))
                .await?
                .map(|r| (r.user_id, r.session_id)),
            None => None,
        },
    };
    if let Some((user_id, session_id)) = who {
        if global {
            store::revoke_all_sessions(&ctx.db, &user_id, ctx.now).await?;
        } else {
            store::revoke_session(&ctx.db, &session_id, ctx.now).await?;
        }
    }
    let response = http::success(json!({}))?;
    response
        .headers()
        .set("Set-Cookie", &cookie::clear(ctx.secure_cookies))?;
    Ok(response)
}

/// `GET /api/auth/session`: who the access token belongs to, if its session is live.
pub async fn session(req: Request, env: &Env) -> ApiResult<Response> {
    let Staff {
        user_id,
        email,
        session_id,
    } = guard::require_staff(&req, env).await?;
    http::success(json!({ "user": { "id": user_id, "email": email }, "session_id": session_id }))
}

fn invalid(message: &str, field: &'static str) -> ApiError {
    ApiError::Unprocessable {
        message: message.to_string(),
        fields: [(field, message.to_string())].into_iter().collect(),
    }
}

fn first_row<T: serde::de::DeserializeOwned>(
    results: &[worker::D1Result],
    index: usize,
) -> ApiResult<Option<T>> {
    Ok(results
        .get(index)
        .map(|r| r.results::<T>())
        .transpose()?
        .and_then(|rows| rows.into_iter().next()))
}
