//! Staff accounts, confirmations, password resets, sessions and refresh
//! tokens in D1: each query once.

use serde::Deserialize;

use crate::agency::roles::{Role, role_sql};
use crate::alerts::notices::notices_from_now;
use crate::audit::live_session::may_act;
use crate::auth::staff::mailbox;
use crate::platform::db::{self, Batch, D1Database, D1PreparedStatement, Handle, query};

/// A session ends this long after its sign-in, however often it is used.
pub const SESSION_LIFETIME_MS: i64 = 30 * 24 * 60 * 60 * 1000;

// Accounts
const FIND_USER: &str = "SELECT id, email, password_hash, confirmed_at, role, disabled_at, \
       approved_at FROM staff_users WHERE email = ?1";
/// The account a sign-up names, created unconfirmed if new. An account has no
/// password of its own until it is confirmed ('!' matches no hash): each
/// sign-up's password waits on its own link.
const INSERT_UNCONFIRMED_USER: &str = "INSERT INTO staff_users (id, email, password_hash, created_at) VALUES (?1, ?2, '!', ?3) \
     ON CONFLICT (email) DO NOTHING";
/// The sign-up's link and its password, only while the account is
/// unconfirmed and not switched off.
const INSERT_CONFIRMATION: &str = "INSERT INTO email_confirmations \
       (token_hash, user_id, created_at, expires_at, password_hash) \
     SELECT ?1, id, ?3, ?4, ?5 FROM staff_users \
     WHERE email = ?2 AND confirmed_at IS NULL AND disabled_at IS NULL";
/// The account a sign-in names, in one statement so a sign-in's first batch
/// is its counters and this. While the account is unconfirmed it also reads
/// the password the sign-in is checked against (to say "confirm your e-mail"
/// only to the person who signed up): the newest link's, or the account's own
/// for a link of the previous release.
const SIGN_IN_ACCOUNT: &str = "SELECT u.id, u.email, u.password_hash, u.confirmed_at, u.role, u.disabled_at, \
       u.approved_at, \
       CASE WHEN u.confirmed_at IS NULL THEN \
         (SELECT coalesce(c.password_hash, u.password_hash) FROM email_confirmations c \
          WHERE c.user_id = u.id ORDER BY c.created_at DESC LIMIT 1) \
       END AS pending_password_hash \
     FROM staff_users u WHERE u.email = ?1";

/// The mailbox `?1`'s own address (see [`mailbox!`]), switched off: a
/// sign-up of another address of it (`ana+x@` for `ana@`) would give its
/// person a way back in. A switched-off alias (`ana+x@`, which anyone can
/// sign up for Ana's mailbox) keeps out only itself.
const DISABLED_MAILBOX: &str =
    "SELECT id FROM staff_users WHERE disabled_at IS NOT NULL AND email = ?1 LIMIT 1";

// E-mail confirmations
/// A link is as switched off as its account, or its mailbox's own address.
const FIND_CONFIRMATION: &str = concat!(
    "SELECT c.user_id, c.expires_at, c.used_at, u.email, \
       coalesce(u.disabled_at, (SELECT o.disabled_at FROM staff_users o WHERE o.email = ",
    mailbox!("u.email"),
    ")) AS disabled_at, \
       coalesce(c.password_hash, u.password_hash) AS password_hash \
     FROM email_confirmations c JOIN staff_users u ON u.id = c.user_id WHERE c.token_hash = ?1"
);
const USE_CONFIRMATION: &str = "UPDATE email_confirmations SET used_at = ?2 \
     WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2";
/// In [`CONFIRM_USER`]: the account becomes the first owner. No owner is
/// confirmed yet, and either no `OWNER_EMAIL` is set (`?4` NULL: the first
/// account confirmed) or the account is the one it names.
macro_rules! first_owner {
    () => {
        concat!(
            "(NOT EXISTS (SELECT 1 FROM staff_users WHERE role = ",
            role_sql!(Owner),
            " AND confirmed_at IS NOT NULL) AND (?4 IS NULL OR email = ?4))"
        )
    };
}

/// Whether new colleagues start with the new-lead notices on, as SQL (for the
/// statement that confirms an account).
macro_rules! colleague_notices_on {
    () => {
        "coalesce((SELECT value FROM panel_settings WHERE name = 'colleague_notices'), 1) = 1"
    };
}

/// The account takes the password of the link that confirmed it; the first
/// owner (see [`first_owner`]) gets the role, with the new-lead notices on,
/// and so does any account confirmed for the first time while the owners
/// let new colleagues start with them (`panel_settings`).
const CONFIRM_USER: &str = concat!(
    "UPDATE staff_users SET confirmed_at = coalesce(confirmed_at, ?2), \
       password_hash = ?3, last_sign_in_at = ?2, \
       approved_at = CASE WHEN approved_at IS NULL AND (?5 = 0 OR ",
    first_owner!(),
    ") THEN ?2 ELSE approved_at END, \
       role = CASE WHEN ",
    first_owner!(),
    " THEN ",
    role_sql!(Owner),
    " ELSE role END, \
       lead_notices = CASE WHEN ",
    first_owner!(),
    " OR (confirmed_at IS NULL AND ",
    colleague_notices_on!(),
    ") THEN 1 ELSE lead_notices END, \
       notices_sent_through = CASE WHEN ",
    first_owner!(),
    " OR (confirmed_at IS NULL AND ",
    colleague_notices_on!(),
    ") THEN ",
    notices_from_now!(),
    " ELSE notices_sent_through END \
     WHERE id = ?1"
);
const RETIRE_CONFIRMATIONS: &str = "UPDATE email_confirmations SET used_at = ?2 \
     WHERE user_id = ?1 AND used_at IS NULL";

// Password resets
/// A reset link, only for a confirmed account that is not switched off, and
/// only within the per-address and per-e-mail limits (`?5`…`?8`).
const INSERT_RESET: &str = "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) \
     SELECT ?1, id, ?3, ?4 FROM staff_users \
     WHERE email = ?2 AND confirmed_at IS NOT NULL AND disabled_at IS NULL \
       AND (SELECT count FROM rate_limits WHERE key = ?5) <= ?6 \
       AND (SELECT count FROM rate_limits WHERE key = ?7) <= ?8";
/// Uses a reset link of an account still allowed in; its user when it worked.
const USE_RESET: &str = "UPDATE password_resets SET used_at = ?2 \
     WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 \
       AND user_id IN (SELECT id FROM staff_users WHERE disabled_at IS NULL AND confirmed_at IS NOT NULL) \
     RETURNING user_id";
const RETIRE_RESETS: &str = "UPDATE password_resets SET used_at = ?2 \
     WHERE user_id = ?1 AND used_at IS NULL";
const SET_PASSWORD: &str = "UPDATE staff_users SET password_hash = ?2 WHERE id = ?1";
/// 'Alterar senha' as a compare-and-swap: only while the password is still
/// the one checked (`?3`), the account on and the asking session live, so a
/// change that races a reset (or another change) cannot undo it. The
/// statements after it act only if it did: the account then has the new
/// hash, whose salt is new.
const CHANGE_PASSWORD: &str = concat!(
    "UPDATE staff_users SET password_hash = ?2 WHERE id = ?1 AND password_hash = ?3 AND EXISTS \
       (SELECT 1 FROM staff_sessions s JOIN staff_users u ON u.id = s.user_id \
        WHERE s.id = ?4 AND s.user_id = ?1 AND ",
    may_act!("s", "u", "?5"),
    ")"
);
const RETIRE_RESETS_IF_CHANGED: &str = "UPDATE password_resets SET used_at = ?2 \
     WHERE user_id = ?1 AND used_at IS NULL AND EXISTS \
       (SELECT 1 FROM staff_users WHERE id = ?1 AND password_hash = ?3)";
const REVOKE_OTHER_SESSIONS_IF_CHANGED: &str = "UPDATE staff_sessions SET revoked_at = ?3 \
     WHERE user_id = ?1 AND id != ?2 AND revoked_at IS NULL AND EXISTS \
       (SELECT 1 FROM staff_users WHERE id = ?1 AND password_hash = ?4)";
const FIND_USER_BY_ID: &str = "SELECT id, email, password_hash, confirmed_at, role, disabled_at, \
       approved_at FROM staff_users WHERE id = ?1";
/// Like the session it goes with, only for an account switched on whose
/// password is still the one checked.
const MARK_SIGNED_IN: &str = "UPDATE staff_users SET last_sign_in_at = ?2 \
     WHERE id = ?1 AND disabled_at IS NULL AND password_hash = ?3";
const ROLE_OF: &str = "SELECT role, approved_at FROM staff_users WHERE id = ?1";
/// The owners who may act, but `?1`: who hears of a new account.
const OWNERS_BUT: &str = concat!(
    "SELECT email FROM staff_users WHERE role = ",
    role_sql!(Owner),
    " AND confirmed_at IS NOT NULL AND disabled_at IS NULL AND id != ?1"
);

// Sessions and refresh tokens
/// Only for an account that is not switched off and whose password is still
/// the one the sign-in checked, as the batch finds it: a sign-in racing
/// 'Desativar', 'Alterar senha' or a reset either ends before it (and its
/// session is ended with the others) or finds the change and makes none.
const INSERT_SESSION: &str = "INSERT INTO staff_sessions (id, user_id, created_at, last_used_at, expires_at) \
     SELECT ?1, id, ?3, ?3, ?4 FROM staff_users \
     WHERE id = ?2 AND disabled_at IS NULL AND password_hash = ?5";
const INSERT_REFRESH: &str = "INSERT INTO refresh_tokens (token_hash, session_id, created_at) \
     SELECT ?1, id, ?3 FROM staff_sessions WHERE id = ?2";
const FIND_REFRESH: &str = "SELECT t.session_id, t.rotated_at, s.user_id, s.revoked_at, s.expires_at, \
       u.email, u.role, u.disabled_at, u.approved_at \
     FROM refresh_tokens t \
     JOIN staff_sessions s ON s.id = t.session_id \
     JOIN staff_users u ON u.id = s.user_id \
     WHERE t.token_hash = ?1";
/// Rotation is claimed by one request only: the one whose successor is written.
const ROTATE_REFRESH: &str = "UPDATE refresh_tokens SET rotated_at = ?2, successor_hash = ?3 \
     WHERE token_hash = ?1 AND rotated_at IS NULL";
/// The successor is the same for every request that presents the old token
/// ([`super::secret_token::successor`]): the one that lost the race finds it
/// written already.
const INSERT_SUCCESSOR: &str = "INSERT OR IGNORE INTO refresh_tokens (token_hash, session_id, created_at) \
     SELECT ?1, session_id, ?3 FROM refresh_tokens WHERE token_hash = ?2 AND successor_hash = ?1";
/// A token replaced less than `?4` ago may be presented again (its answer was
/// lost, or another tab raced it): it is answered with the token that
/// replaced it, while the session is live; `rotated_at` says whether that one
/// was replaced in turn.
const RETRIED_SUCCESSOR: &str = "SELECT n.rotated_at FROM refresh_tokens t \
     JOIN staff_sessions s ON s.id = t.session_id \
     JOIN refresh_tokens n ON n.token_hash = t.successor_hash \
     WHERE t.token_hash = ?1 AND t.successor_hash = ?2 AND t.rotated_at >= ?3 - ?4 \
       AND s.revoked_at IS NULL AND s.expires_at > ?3";
const TOUCH_SESSION: &str = "UPDATE staff_sessions SET last_used_at = ?2 \
     WHERE id = ?1 AND revoked_at IS NULL";
const REVOKE_SESSION: &str =
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL";
const REVOKE_USER_SESSIONS: &str =
    "UPDATE staff_sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL";
/// 'Sair' everywhere, asked from session `?2`: only while that session is
/// live, so a token of a session already ended signs no one out.
const REVOKE_USER_SESSIONS_FROM: &str = concat!(
    "UPDATE staff_sessions SET revoked_at = ?3 WHERE user_id = ?1 AND revoked_at IS NULL AND EXISTS \
       (SELECT 1 FROM staff_sessions l JOIN staff_users lu ON lu.id = l.user_id \
        WHERE l.id = ?2 AND l.user_id = ?1 AND ",
    may_act!("l", "lu", "?3"),
    ")"
);

/// The session behind an access token, if it may still act.
const LIVE_SESSION: &str = concat!(
    "SELECT s.user_id, u.email, u.role, u.approved_at, u.can_export, u.can_delete, u.can_mark_sent, \
       u.can_import_spend FROM staff_sessions s \
     JOIN staff_users u ON u.id = s.user_id WHERE s.id = ?1 AND ",
    may_act!("s", "u", "?2")
);

#[derive(Debug, Deserialize)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: String,
    pub confirmed_at: Option<i64>,
    pub role: Role,
    pub disabled_at: Option<i64>,
    /// When an owner approved it (see `confirm_user`).
    pub approved_at: Option<i64>,
    /// Only read by sign-in ([`sign_in_account`]): the password an
    /// unconfirmed account's latest link waits on.
    pub pending_password_hash: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct RoleRow {
    pub role: Role,
    pub approved_at: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub struct ConfirmationRow {
    pub user_id: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub email: String,
    pub disabled_at: Option<i64>,
    pub password_hash: String,
}

#[derive(Debug, Deserialize)]
pub struct RefreshRow {
    pub session_id: String,
    pub rotated_at: Option<i64>,
    pub user_id: String,
    pub revoked_at: Option<i64>,
    pub expires_at: i64,
    pub email: String,
    pub role: Role,
    pub disabled_at: Option<i64>,
    pub approved_at: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct Rotated {
    rotated_at: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct UserIdRow {
    user_id: String,
}

#[derive(Debug, Deserialize)]
pub struct LiveSessionRow {
    pub user_id: String,
    pub email: String,
    pub role: Role,
    pub approved_at: Option<i64>,
    pub can_export: i64,
    pub can_delete: i64,
    pub can_mark_sent: i64,
    pub can_import_spend: i64,
}

pub fn find_user(db: &D1Database, email: &str) -> D1PreparedStatement {
    query!(db, FIND_USER, email)
}

/// The stored password hash of the confirmed account `email` (what its
/// device cookies are bound to).
pub async fn password_hash(db: &D1Database, email: &str) -> worker::Result<Option<String>> {
    Ok(db::first::<UserRow>(&find_user(db, email))
        .await?
        .filter(|u| u.confirmed_at.is_some())
        .map(|u| u.password_hash))
}

/// A row if the address of `mailbox` itself (`StaffEmail::mailbox`) is switched off.
pub fn disabled_mailbox(db: &D1Database, mailbox: &str) -> D1PreparedStatement {
    query!(db, DISABLED_MAILBOX, mailbox)
}

pub async fn find_user_by_id(db: &D1Database, id: &str) -> worker::Result<Option<UserRow>> {
    db::first(&query!(db, FIND_USER_BY_ID, id)).await
}

pub fn sign_in_account(db: &D1Database, email: &str) -> D1PreparedStatement {
    query!(db, SIGN_IN_ACCOUNT, email)
}

/// A counter a statement checks: its key and the most it may read.
#[derive(Clone, Copy)]
pub struct Within<'a> {
    pub key: &'a str,
    pub max: i64,
}

/// A sign-up: the account if new (under a new id), and its link with the
/// sign-up's password, if the account is open to sign-up. The handle's
/// statement made the link if it changed a row.
pub fn signup(
    batch: &mut Batch,
    db: &D1Database,
    email: &str,
    password_hash: &str,
    link_hash: &str,
    now: i64,
    link_expires_at: i64,
) -> Handle {
    let user_id = crate::platform::new_id();
    batch.add(query!(db, INSERT_UNCONFIRMED_USER, user_id, email, now));
    batch.add(query!(
        db,
        INSERT_CONFIRMATION,
        link_hash,
        email,
        now,
        link_expires_at,
        password_hash
    ))
}

pub async fn find_confirmation(
    db: &D1Database,
    link_hash: &str,
) -> worker::Result<Option<ConfirmationRow>> {
    db::first(&query!(db, FIND_CONFIRMATION, link_hash)).await
}

/// Marks the link used; `false` if another request used it first or it expired.
pub async fn use_confirmation(db: &D1Database, link_hash: &str, now: i64) -> worker::Result<bool> {
    let result = db::run(&query!(db, USE_CONFIRMATION, link_hash, now)).await?;
    Ok(db::changes(&result) == 1)
}

/// Confirms the account with the link's password and retires its other links.
pub fn confirm_user(
    batch: &mut Batch,
    db: &D1Database,
    user_id: &str,
    password_hash: &str,
    now: i64,
    owner_email: Option<&str>,
    needs_approval: bool,
) {
    batch.add(query!(
        db,
        CONFIRM_USER,
        user_id,
        now,
        password_hash,
        owner_email,
        i64::from(needs_approval)
    ));
    batch.add(query!(db, RETIRE_CONFIRMATIONS, user_id, now));
}

/// A reset link for `email` if it names an account allowed in and the two
/// counters are within their limits; the result says whether one was made.
pub fn insert_reset(
    db: &D1Database,
    link_hash: &str,
    email: &str,
    now: i64,
    expires_at: i64,
    limits: [Within; 2],
) -> D1PreparedStatement {
    let [per_address, per_email] = limits;
    query!(
        db,
        INSERT_RESET,
        link_hash,
        email,
        now,
        expires_at,
        per_address.key,
        per_address.max,
        per_email.key,
        per_email.max
    )
}

/// Uses a reset link; the account it was for, if it worked.
pub async fn use_reset(
    db: &D1Database,
    link_hash: &str,
    now: i64,
) -> worker::Result<Option<String>> {
    Ok(
        db::first::<UserIdRow>(&query!(db, USE_RESET, link_hash, now))
            .await?
            .map(|row| row.user_id),
    )
}

/// A new password: every other reset link of the account is retired.
pub fn set_password(
    batch: &mut Batch,
    db: &D1Database,
    user_id: &str,
    password_hash: &str,
    now: i64,
) {
    batch.add(query!(db, SET_PASSWORD, user_id, password_hash));
    batch.add(query!(db, RETIRE_RESETS, user_id, now));
}

/// What one signed-in person's 'Alterar senha' writes: the new password if
/// the account's is still `checked` and `session_id` still live, then (only
/// if it was set) the end of its reset links and of every other session.
/// The handle's statement (the new password) changes one row, or none when
/// a reset, another change, a sign-out or 'Desativar' came first.
pub fn change_password(
    batch: &mut Batch,
    db: &D1Database,
    user_id: &str,
    session_id: &str,
    checked: &str,
    new_hash: &str,
    now: i64,
) -> Handle {
    let changed = batch.add(query!(
        db,
        CHANGE_PASSWORD,
        user_id,
        new_hash,
        checked,
        session_id,
        now
    ));
    batch.add(query!(db, RETIRE_RESETS_IF_CHANGED, user_id, now, new_hash));
    batch.add(query!(
        db,
        REVOKE_OTHER_SESSIONS_IF_CHANGED,
        user_id,
        session_id,
        now,
        new_hash
    ));
    changed
}

#[derive(Deserialize)]
struct EmailRow {
    email: String,
}

/// The e-mails of the owners who may act, but the account `user_id`'s.
pub async fn owners_but(db: &D1Database, user_id: &str) -> worker::Result<Vec<String>> {
    let rows: Vec<EmailRow> = db::rows_of(&query!(db, OWNERS_BUT, user_id)).await?;
    Ok(rows.into_iter().map(|r| r.email).collect())
}

/// The account's role, read in a batch after whatever may have changed it.
pub fn role_of(db: &D1Database, user_id: &str) -> D1PreparedStatement {
    query!(db, ROLE_OF, user_id)
}

/// The account's last sign-in is now, if its password is still
/// `password_hash` (the one checked) and it is switched on.
pub fn mark_signed_in(
    db: &D1Database,
    user_id: &str,
    password_hash: &str,
    now: i64,
) -> D1PreparedStatement {
    query!(db, MARK_SIGNED_IN, user_id, now, password_hash)
}

/// A new session and its first refresh token; it ends `SESSION_LIFETIME_MS`
/// from now. The handle's statement (the session) changes no row when, by
/// the time the batch runs, the account is switched off or its password is
/// no longer `password_hash`: then there is no session.
pub fn new_session(
    batch: &mut Batch,
    db: &D1Database,
    session_id: &str,
    user_id: &str,
    password_hash: &str,
    refresh_hash: &str,
    now: i64,
) -> Handle {
    let session = batch.add(query!(
        db,
        INSERT_SESSION,
        session_id,
        user_id,
        now,
        now + SESSION_LIFETIME_MS,
        password_hash
    ));
    batch.add(query!(db, INSERT_REFRESH, refresh_hash, session_id, now));
    session
}

pub async fn find_refresh(db: &D1Database, token_hash: &str) -> worker::Result<Option<RefreshRow>> {
    db::first(&query!(db, FIND_REFRESH, token_hash)).await
}

/// Replaces `old_hash` by `new_hash`; `false` when another request rotated
/// the old token first.
pub async fn rotate(
    db: &D1Database,
    old_hash: &str,
    new_hash: &str,
    session_id: &str,
    now: i64,
) -> worker::Result<bool> {
    let mut batch = Batch::new();
    let rotated = batch.add(query!(db, ROTATE_REFRESH, old_hash, now, new_hash));
    batch.add(query!(db, INSERT_SUCCESSOR, new_hash, old_hash, now));
    batch.add(query!(db, TOUCH_SESSION, session_id, now));
    let results = batch.run(db).await?;
    Ok(results.changes(rotated) == 1)
}

/// Whether `old_hash` was replaced by `new_hash` within `grace_ms`, in a
/// session still live (a retry): `None` if not; otherwise whether `new_hash`
/// was itself replaced since (`Some(true)`).
pub async fn replaced_within(
    db: &D1Database,
    old_hash: &str,
    new_hash: &str,
    now: i64,
    grace_ms: i64,
) -> worker::Result<Option<bool>> {
    let found: Option<Rotated> = db::first(&query!(
        db,
        RETRIED_SUCCESSOR,
        old_hash,
        new_hash,
        now,
        grace_ms
    ))
    .await?;
    Ok(found.map(|row| row.rotated_at.is_some()))
}

pub fn revoke_session(db: &D1Database, session_id: &str, now: i64) -> D1PreparedStatement {
    query!(db, REVOKE_SESSION, session_id, now)
}

pub fn revoke_all_sessions(db: &D1Database, user_id: &str, now: i64) -> D1PreparedStatement {
    query!(db, REVOKE_USER_SESSIONS, user_id, now)
}

/// Every session of the user, if `from_session` (the one asking) is live.
pub fn revoke_all_sessions_from(
    db: &D1Database,
    user_id: &str,
    from_session: &str,
    now: i64,
) -> D1PreparedStatement {
    query!(db, REVOKE_USER_SESSIONS_FROM, user_id, from_session, now)
}

pub async fn live_session(
    db: &D1Database,
    session_id: &str,
    now: i64,
) -> worker::Result<Option<LiveSessionRow>> {
    db::first(&query!(db, LIVE_SESSION, session_id, now)).await
}
