//! Staff users, confirmations, sessions and refresh tokens in D1: each query once.

use serde::Deserialize;
use worker::{D1Database, D1PreparedStatement, D1Result, query};

// Users
pub const FIND_USER: &str =
    "SELECT id, email, password_hash, confirmed_at FROM staff_users WHERE email = ?1";
/// A new account, or a new password for one that was never confirmed.
const UPSERT_UNCONFIRMED_USER: &str = "INSERT INTO staff_users (id, email, password_hash, created_at) \
     VALUES (?1, ?2, ?3, ?4) \
     ON CONFLICT (email) DO UPDATE SET password_hash = excluded.password_hash \
     WHERE staff_users.confirmed_at IS NULL";
const CONFIRM_USER: &str =
    "UPDATE staff_users SET confirmed_at = COALESCE(confirmed_at, ?2) WHERE id = ?1";

// E-mail confirmations
/// A new link makes the older ones useless.
const RETIRE_OPEN_CONFIRMATIONS: &str = "UPDATE email_confirmations SET used_at = ?2 \
     WHERE used_at IS NULL AND user_id = (SELECT id FROM staff_users WHERE email = ?1)";
const INSERT_CONFIRMATION: &str = "INSERT INTO email_confirmations (token_hash, user_id, created_at, expires_at) \
     SELECT ?1, id, ?3, ?4 FROM staff_users WHERE email = ?2 AND confirmed_at IS NULL";
const FIND_CONFIRMATION: &str = "SELECT c.user_id, c.expires_at, c.used_at, u.email \
     FROM email_confirmations c JOIN staff_users u ON u.id = c.user_id WHERE c.token_hash = ?1";
const USE_CONFIRMATION: &str = "UPDATE email_confirmations SET used_at = ?2 \
     WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2";

// Sessions and refresh tokens
const INSERT_SESSION: &str = "INSERT INTO staff_sessions (id, user_id, created_at, last_used_at, expires_at) \
     VALUES (?1, ?2, ?3, ?3, ?4)";
const INSERT_REFRESH: &str =
    "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?1, ?2, ?3)";
const FIND_REFRESH: &str = "SELECT t.session_id, t.rotated_at, s.user_id, s.revoked_at, s.expires_at, u.email \
     FROM refresh_tokens t \
     JOIN staff_sessions s ON s.id = t.session_id \
     JOIN staff_users u ON u.id = s.user_id \
     WHERE t.token_hash = ?1";
/// Rotation is claimed by one request only: the one whose successor is written.
const ROTATE_REFRESH: &str = "UPDATE refresh_tokens SET rotated_at = ?2, successor_hash = ?3 \
     WHERE token_hash = ?1 AND rotated_at IS NULL";
const INSERT_SUCCESSOR: &str = "INSERT INTO refresh_tokens (token_hash, session_id, created_at) \
     SELECT ?1, session_id, ?3 FROM refresh_tokens WHERE token_hash = ?2 AND successor_hash = ?1";
const TOUCH_SESSION: &str = "UPDATE staff_sessions SET last_used_at = ?2, expires_at = ?3 \
     WHERE id = ?1 AND revoked_at IS NULL";
const REVOKE_SESSION: &str =
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL";
const REVOKE_USER_SESSIONS: &str =
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL";
const LIVE_SESSION: &str = "SELECT s.user_id, u.email FROM staff_sessions s \
     JOIN staff_users u ON u.id = s.user_id \
     WHERE s.id = ?1 AND s.revoked_at IS NULL AND s.expires_at > ?2";

#[derive(Debug, Deserialize)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: String,
    pub confirmed_at: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub struct ConfirmationRow {
    pub user_id: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub email: String,
}

#[derive(Debug, Deserialize)]
pub struct RefreshRow {
    pub session_id: String,
    pub rotated_at: Option<i64>,
    pub user_id: String,
    pub revoked_at: Option<i64>,
    pub expires_at: i64,
    pub email: String,
}

#[derive(Debug, Deserialize)]
pub struct LiveSessionRow {
    pub user_id: String,
    pub email: String,
}

pub fn find_user(db: &D1Database, email: &str) -> worker::Result<D1PreparedStatement> {
    query!(db, FIND_USER, email)
}

/// The statements of a sign-up: the account (new, or a new password while
/// unconfirmed), older links retired, a new link. The last one's result says
/// whether a link was made (not when the account is confirmed already).
pub fn signup(
    db: &D1Database,
    user_id: &str,
    email: &str,
    password_hash: &str,
    link_hash: &str,
    now: i64,
    link_expires_at: i64,
) -> worker::Result<Vec<D1PreparedStatement>> {
    Ok(vec![
        query!(
            db,
            UPSERT_UNCONFIRMED_USER,
            user_id,
            email,
            password_hash,
            now
        )?,
        query!(db, RETIRE_OPEN_CONFIRMATIONS, email, now)?,
        query!(
            db,
            INSERT_CONFIRMATION,
            link_hash,
            email,
            now,
            link_expires_at
        )?,
    ])
}

pub async fn find_confirmation(
    db: &D1Database,
    link_hash: &str,
) -> worker::Result<Option<ConfirmationRow>> {
    query!(db, FIND_CONFIRMATION, link_hash)?.first(None).await
}

/// Marks the link used; `false` if another request used it first or it expired.
pub async fn use_confirmation(db: &D1Database, link_hash: &str, now: i64) -> worker::Result<bool> {
    let result = query!(db, USE_CONFIRMATION, link_hash, now)?.run().await?;
    Ok(changes(&result) == 1)
}

pub fn confirm_user(
    db: &D1Database,
    user_id: &str,
    now: i64,
) -> worker::Result<D1PreparedStatement> {
    query!(db, CONFIRM_USER, user_id, now)
}

/// A new session and its first refresh token.
pub fn new_session(
    db: &D1Database,
    session_id: &str,
    user_id: &str,
    refresh_hash: &str,
    now: i64,
    expires_at: i64,
) -> worker::Result<Vec<D1PreparedStatement>> {
    Ok(vec![
        query!(db, INSERT_SESSION, session_id, user_id, now, expires_at)?,
        query!(db, INSERT_REFRESH, refresh_hash, session_id, now)?,
    ])
}

pub async fn find_refresh(db: &D1Database, token_hash: &str) -> worker::Result<Option<RefreshRow>> {
    query!(db, FIND_REFRESH, token_hash)?.first(None).await
}

/// Replaces `old_hash` by `new_hash` and extends the session; `false` when
/// another request rotated the old token first.
pub async fn rotate(
    db: &D1Database,
    old_hash: &str,
    new_hash: &str,
    session_id: &str,
    now: i64,
    expires_at: i64,
) -> worker::Result<bool> {
    let results = db
        .batch(vec![
            query!(db, ROTATE_REFRESH, old_hash, now, new_hash)?,
            query!(db, INSERT_SUCCESSOR, new_hash, old_hash, now)?,
            query!(db, TOUCH_SESSION, session_id, now, expires_at)?,
        ])
        .await?;
    Ok(results.get(1).map(changes) == Some(1))
}

pub async fn revoke_session(db: &D1Database, session_id: &str, now: i64) -> worker::Result<()> {
    query!(db, REVOKE_SESSION, session_id, now)?.run().await?;
    Ok(())
}

pub async fn revoke_all_sessions(db: &D1Database, user_id: &str, now: i64) -> worker::Result<()> {
    query!(db, REVOKE_USER_SESSIONS, user_id, now)?
        .run()
        .await?;
    Ok(())
}

pub async fn live_session(
    db: &D1Database,
    session_id: &str,
    now: i64,
) -> worker::Result<Option<LiveSessionRow>> {
    query!(db, LIVE_SESSION, session_id, now)?.first(None).await
}

/// Rows a write statement changed.
pub fn changes(result: &D1Result) -> usize {
    result
        .meta()
        .ok()
        .flatten()
        .and_then(|m| m.changes)
        .unwrap_or_default()
}
