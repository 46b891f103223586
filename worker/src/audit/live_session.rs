//! When a staff session may still act, as SQL: the one definition the
//! check in front of every staff endpoint reads (`auth::guard`) and that each
//! staff change carries in its own statement, so a session ended or an
//! account switched off between the check and the change stops the change.

/// A session (`$s`, of staff_sessions) of an account (`$u`, of staff_users)
/// that may still act at `$now`: not signed out, not past its end, its
/// account not switched off.
macro_rules! may_act {
    ($s:literal, $u:literal, $now:literal) => {
        concat!(
            $s,
            ".revoked_at IS NULL AND ",
            $s,
            ".expires_at > ",
            $now,
            " AND ",
            $u,
            ".disabled_at IS NULL"
        )
    };
}

/// Session `$sid` may still act at `$now` (SQL parameters), as a condition a
/// change carries: a 'Desativar', 'Encerrar sessões' or 'Sair' that lands
/// between a request's check (`auth::guard`) and its change stops the
/// change too.
macro_rules! session_is_live {
    ($sid:literal, $now:literal) => {
        concat!(
            "EXISTS (SELECT 1 FROM staff_sessions ls JOIN staff_users lu ON lu.id = ls.user_id \
             WHERE ls.id = ",
            $sid,
            " AND ",
            $crate::audit::live_session::may_act!("ls", "lu", $now),
            ")"
        )
    };
}

/// A row (`live`) if session `$sid` may still act at `$now`: read last in a
/// change's batch, it tells a change refused because the session ended from
/// one its subject's state refused.
macro_rules! live_row {
    ($sid:literal, $now:literal) => {
        concat!(
            "SELECT 1 AS live WHERE ",
            $crate::audit::live_session::session_is_live!($sid, $now)
        )
    };
}
pub(crate) use {live_row, may_act, session_is_live};
