//! What counts as an incident: how delivery stands (one snapshot), the
//! reasons it is unhealthy, and which of an open incident's causes its
//! alerts named, ended or not.

use serde::Deserialize;

use crate::platform::cron_state::noted;

/// Past this, an undelivered lead is a problem someone must look at.
pub const BACKLOG_MS: i64 = 15 * 60 * 1000;
/// A visitor refused by a bot check that could not be made counts this long.
pub const FORM_BLOCKED_MS: i64 = 15 * 60 * 1000;
/// At most one alert e-mail this often.
pub const ALERT_GAP_MS: i64 = 60 * 60 * 1000;

/// What makes delivery unhealthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Jetimob answered 401/403: our keys are refused.
    KeysRefused,
    /// The oldest lead still being retried waited more than 15 minutes.
    Backlog,
    /// A lead Jetimob did not take in a week of tries was given up: it waits
    /// for a person ('Reenviar', or 'Marcar Enviado' once entered by hand).
    GivenUp,
    /// A visitor's correction has not reached Jetimob for more than 15
    /// minutes (still retried, or given up): Jetimob holds their old details.
    Corrections,
    /// No Jetimob keys, and leads or corrections wait.
    Off,
    /// The lead form refuses visitors: Turnstile's check cannot be made.
    FormBlocked,
    /// The webhook refused an event three times: its channel hears nothing.
    WebhookFailing,
    /// Meta refused our token or pixel since it last took an event: new
    /// leads do not reach the campaigns.
    MetaRefused,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::KeysRefused => "keys_refused",
            Reason::Backlog => "backlog",
            Reason::GivenUp => "given_up",
            Reason::Corrections => "corrections",
            Reason::Off => "off",
            Reason::FormBlocked => "form_blocked",
            Reason::WebhookFailing => "webhook_failing",
            Reason::MetaRefused => "meta_refused",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        match name {
            "keys_refused" => Some(Reason::KeysRefused),
            "backlog" => Some(Reason::Backlog),
            "given_up" => Some(Reason::GivenUp),
            "corrections" => Some(Reason::Corrections),
            "off" => Some(Reason::Off),
            "form_blocked" => Some(Reason::FormBlocked),
            "webhook_failing" => Some(Reason::WebhookFailing),
            "meta_refused" => Some(Reason::MetaRefused),
            _ => None,
        }
    }
}

/// How delivery stands, read in one batch.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Snapshot {
    /// When the oldest lead still being retried arrived.
    pub oldest_pending_at: Option<i64>,
    /// When the oldest lead given up arrived.
    pub oldest_given_up_at: Option<i64>,
    /// How many leads are not in the CRM yet.
    pub waiting: i64,
    /// When the oldest correction not in the CRM yet was asked for.
    pub oldest_correction_at: Option<i64>,
    /// The latest delivery attempt failed this way (its `detail`), if it failed.
    pub last_failure: Option<String>,
    /// When the lead form last refused a visitor because Turnstile's check
    /// could not be made.
    pub form_refused_at: Option<i64>,
    /// When the newest submission arrived.
    pub last_submission_at: Option<i64>,
    /// When the oldest webhook event still refused after three tries was made.
    pub webhook_failing_since: Option<i64>,
    /// When Meta refused our token or pixel, if it has not taken an event since.
    pub meta_refused_at: Option<i64>,
}

/// Why delivery is unhealthy now; empty when it is fine.
pub fn reasons(snapshot: &Snapshot, configured: bool, now: i64) -> Vec<Reason> {
    let mut reasons = Vec::new();
    if !configured && (snapshot.waiting > 0 || snapshot.oldest_correction_at.is_some()) {
        reasons.push(Reason::Off);
    }
    // While something still waits for them: once staff entered the lead by
    // hand ('Marcar Enviado') nothing is failing to arrive, and the next
    // lead's attempt says whether the keys work.
    if configured
        && (snapshot.waiting > 0 || snapshot.oldest_correction_at.is_some())
        && snapshot
            .last_failure
            .as_deref()
            .is_some_and(|d| d.starts_with("HTTP 401") || d.starts_with("HTTP 403"))
    {
        reasons.push(Reason::KeysRefused);
    }
    if snapshot
        .oldest_pending_at
        .is_some_and(|at| now - at > BACKLOG_MS)
    {
        reasons.push(Reason::Backlog);
    }
    // Apart from the backlog: a lead given up waits for a person for as
    // long as nobody acts, and a Jetimob outage months later must still be
    // heard as a backlog of its own.
    if snapshot.oldest_given_up_at.is_some() {
        reasons.push(Reason::GivenUp);
    }
    if snapshot
        .oldest_correction_at
        .is_some_and(|at| now - at > BACKLOG_MS)
    {
        reasons.push(Reason::Corrections);
    }
    // Refused lately, and no lead got through since.
    if snapshot.form_refused_at.is_some_and(|at| {
        now - at <= FORM_BLOCKED_MS && snapshot.last_submission_at.is_none_or(|last| last < at)
    }) {
        reasons.push(Reason::FormBlocked);
    }
    if snapshot.webhook_failing_since.is_some() {
        reasons.push(Reason::WebhookFailing);
    }
    if snapshot.meta_refused_at.is_some() {
        reasons.push(Reason::MetaRefused);
    }
    reasons
}

/// An incident as stored.
#[derive(Debug, Clone, Deserialize)]
pub struct Incident {
    pub id: i64,
    pub started_at: i64,
    pub reasons: String,
    pub waiting: i64,
    pub alerted_at: Option<i64>,
    /// The reasons its alert named; none before it was claimed.
    pub alerted_reasons: Option<String>,
}

impl Incident {
    /// Why it is open now.
    pub fn reasons(&self) -> Vec<Reason> {
        parse_reasons(&self.reasons)
    }

    /// Every cause its alerts named, ended since or not (for an incident
    /// alerted before 0009, its last reasons): what the recovery speaks of.
    pub fn named(&self) -> Vec<Reason> {
        self.alerted_list()
            .iter()
            .map(|(reason, _)| *reason)
            .collect()
    }

    /// Its alerts' causes, each with whether it ended since. In
    /// `alerted_reasons` an ended cause is written `~name`.
    fn alerted_list(&self) -> Vec<(Reason, bool)> {
        let listed = self.alerted_reasons.as_deref().unwrap_or(&self.reasons);
        listed
            .split(',')
            .filter_map(|name| match name.strip_prefix(ENDED) {
                Some(name) => Reason::parse(name).map(|r| (r, true)),
                None => Reason::parse(name).map(|r| (r, false)),
            })
            .collect()
    }

    /// The causes its alerts named that ended since (`true`), or that stand.
    fn alerted_ended(&self, ended: bool) -> Vec<Reason> {
        self.alerted_list()
            .into_iter()
            .filter(|&(_, e)| e == ended)
            .map(|(reason, _)| reason)
            .collect()
    }

    /// Its webhook event's key. The clean-up (`platform/retention.rs`) keeps an open
    /// incident's event by this same key, written there in SQL: change both
    /// together.
    pub(super) fn event_key(&self) -> String {
        format!("incident:{}", self.id)
    }

    /// The reasons now open that its alerts did not name, or named and saw
    /// end (a backlog that cleared and came back is a new outage), if it was
    /// alerted.
    pub(super) fn unalerted(&self) -> Vec<Reason> {
        if self.alerted_at.is_none() {
            return Vec::new();
        }
        let standing = self.alerted_ended(false);
        self.reasons()
            .into_iter()
            .filter(|r| !standing.contains(r))
            .collect()
    }

    /// Of [`Self::unalerted`], the causes its alerts named before they ended:
    /// alerted again only an hour after the incident's last alert, so
    /// delivery that flaps inside a long incident is heard once an hour at
    /// most, as it is outside one.
    pub(super) fn returned(&self) -> Vec<Reason> {
        let ended = self.alerted_ended(true);
        self.unalerted()
            .into_iter()
            .filter(|r| ended.contains(r))
            .collect()
    }

    /// What `alerted_reasons` says once the incident's causes are `now`: a
    /// named cause that is no longer open is marked ended (`~name`), so its
    /// return is heard; `None` when nothing changes (or it was not alerted).
    pub(super) fn alerted_as_of(&self, now: &[Reason]) -> Option<String> {
        self.alerted_at?;
        let before = self.alerted_list();
        let after: Vec<(Reason, bool)> = before
            .iter()
            .map(|&(reason, ended)| (reason, ended || !now.contains(&reason)))
            .collect();
        (after != before).then(|| list_alerted(&after))
    }

    /// `alerted_reasons` once `joined` are alerted too: named again, not ended.
    pub(super) fn alerted_with(&self, joined: &[Reason]) -> String {
        let mut list: Vec<(Reason, bool)> = self
            .alerted_list()
            .into_iter()
            .filter(|(reason, _)| !joined.contains(reason))
            .collect();
        list.extend(joined.iter().map(|&reason| (reason, false)));
        list_alerted(&list)
    }
}

/// How `alerted_reasons` marks a cause its alerts named that ended since.
const ENDED: &str = "~";

fn list_alerted(list: &[(Reason, bool)]) -> String {
    list.iter()
        .map(|&(reason, ended)| {
            if ended {
                format!("{ENDED}{}", reason.name())
            } else {
                reason.name().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn list_reasons(reasons: &[Reason]) -> String {
    reasons
        .iter()
        .map(|r| r.name())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_reasons(listed: &str) -> Vec<Reason> {
    listed.split(',').filter_map(Reason::parse).collect()
}

/// When the oldest lead not in Jetimob arrived, as SQL: one still retried or
/// one given up (which waits for a person), each found by one index seek.
macro_rules! oldest_undelivered {
    () => {
        "(SELECT min(m) FROM (\
           SELECT min(created_at) AS m FROM leads WHERE delivery_status = 'pending' \
           UNION ALL SELECT min(created_at) FROM leads WHERE delivery_status = 'failed'))"
    };
}
pub(crate) use oldest_undelivered;

/// When the oldest correction still waiting for Jetimob (retried or given up)
/// was asked for; read from the first entry of `leads_corrections_waiting`.
macro_rules! oldest_correction {
    () => {
        "(SELECT min(update_requested_at) FROM leads WHERE update_status IS NOT NULL)"
    };
}
pub(crate) use oldest_correction;

/// A webhook event refused three times (the first try, and the retries 1 and
/// 5 minutes later) means the webhook is failing, not hiccuping: the three
/// is written in the statement because the partial index it reads
/// (`webhook_events_refused`, migration 0013) holds it too.
pub(super) const SNAPSHOT_SQL: &str = concat!(
    "SELECT (SELECT min(created_at) FROM leads WHERE delivery_status = 'pending') AS oldest_pending_at, \
       (SELECT min(created_at) FROM leads WHERE delivery_status = 'failed') AS oldest_given_up_at, ",
    oldest_correction!(),
    " AS oldest_correction_at, \
       (SELECT coalesce(sum(n), 0) FROM lead_counters WHERE name IN ('pending', 'failed')) AS waiting, \
       (SELECT detail FROM crm_attempts WHERE id = (SELECT max(id) FROM crm_attempts) \
          AND outcome = 'failed') AS last_failure, \
       ",
    noted!(turnstile_failed_at),
    " AS form_refused_at, \
       (SELECT submitted_at FROM lead_submissions ORDER BY id DESC LIMIT 1) AS last_submission_at, \
       (SELECT min(created_at) FROM webhook_events INDEXED BY webhook_events_refused \
          WHERE status = 'pending' AND last_error IS NOT NULL AND attempts >= 3) \
         AS webhook_failing_since, \
       CASE WHEN ",
    noted!(meta_refused_at),
    " > coalesce(",
    noted!(meta_sent_at),
    ", 0) THEN ",
    noted!(meta_refused_at),
    " END AS meta_refused_at"
);

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000_000;
    const MINUTE: i64 = 60_000;

    /// An open incident with `reasons`, alerted at `NOW` naming `alerted` (or not alerted).
    fn incident(reasons: &str, alerted: Option<&str>) -> Incident {
        Incident {
            id: 1,
            started_at: NOW,
            reasons: reasons.into(),
            waiting: 0,
            alerted_at: alerted.map(|_| NOW),
            alerted_reasons: alerted.map(Into::into),
        }
    }

    use super::super::wording::{describe, headline, recovery};
    use crate::agency::messages;

    #[test]
    fn a_cause_is_unalerted_only_once_the_incident_was_alerted_without_it() {
        assert_eq!(
            incident("backlog,form_blocked", Some("backlog")).unalerted(),
            [Reason::FormBlocked]
        );
        // Not alerted yet: its first alert will name every cause.
        assert!(
            incident("backlog,form_blocked", None)
                .unalerted()
                .is_empty()
        );
        // A cause that went and came back was named already.
        assert!(
            incident("backlog", Some("backlog,form_blocked"))
                .unalerted()
                .is_empty()
        );
        assert!(
            incident("form_blocked", Some("backlog,form_blocked"))
                .unalerted()
                .is_empty()
        );
    }

    #[test]
    fn a_cause_that_ended_and_came_back_is_unalerted_again_held_to_the_hour() {
        // Alerted for a backlog; its lead is given up: the backlog ends, and
        // the lead given up is news (its retries are over).
        let open = incident("given_up", Some("backlog"));
        let marked = open
            .alerted_as_of(&[Reason::GivenUp])
            .expect("the ended backlog is marked");
        assert_eq!(marked, "~backlog");
        let later = Incident {
            alerted_reasons: Some(marked),
            ..open
        };
        assert_eq!(later.named(), [Reason::Backlog]);
        assert_eq!(later.unalerted(), [Reason::GivenUp]);
        assert!(later.returned().is_empty());
        let named = later.alerted_with(&[Reason::GivenUp]);
        assert_eq!(named, "~backlog,given_up");
        // Alerted for the form; it works again, and a lead is given up.
        let form = incident("given_up", Some("form_blocked"));
        assert_eq!(
            form.alerted_as_of(&[Reason::GivenUp]).as_deref(),
            Some("~form_blocked")
        );
        // Months later the backlog is back.
        let back = Incident {
            reasons: "backlog,given_up".into(),
            alerted_reasons: Some(named),
            ..incident("", Some(""))
        };
        assert_eq!(back.unalerted(), [Reason::Backlog]);
        assert_eq!(back.returned(), [Reason::Backlog]);
        assert_eq!(back.alerted_with(&[Reason::Backlog]), "given_up,backlog");
        // Nothing ended, nothing to write.
        assert_eq!(
            back.alerted_as_of(&[Reason::Backlog, Reason::GivenUp]),
            None
        );
        assert_eq!(incident("backlog", None).alerted_as_of(&[]), None);
    }

    #[test]
    fn a_lead_given_up_is_a_reason_apart_from_a_backlog() {
        let given_up = Snapshot {
            oldest_given_up_at: Some(NOW - 8 * 24 * 60 * MINUTE),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&given_up, true, NOW), [Reason::GivenUp]);
        let and_late = Snapshot {
            oldest_pending_at: Some(NOW - 16 * MINUTE),
            ..given_up
        };
        assert_eq!(
            reasons(&and_late, true, NOW),
            [Reason::Backlog, Reason::GivenUp]
        );
        assert_eq!(
            headline(&[Reason::GivenUp]),
            messages::DELIVERY_ALERT_SUBJECT
        );
    }

    #[test]
    fn healthy_delivery_has_no_reason() {
        let fine = Snapshot {
            oldest_pending_at: Some(NOW - 2 * MINUTE),
            waiting: 3,
            last_failure: Some("HTTP 500: erro".into()),
            ..Snapshot::default()
        };
        assert!(reasons(&fine, true, NOW).is_empty());
        assert!(reasons(&Snapshot::default(), false, NOW).is_empty());
    }

    #[test]
    fn refused_keys_a_long_wait_and_no_keys_are_each_a_reason() {
        let refused = Snapshot {
            last_failure: Some("HTTP 401 (chaves recusadas): invalid".into()),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&refused, true, NOW), [Reason::KeysRefused]);
        let correction_refused = Snapshot {
            waiting: 0,
            oldest_correction_at: Some(NOW - MINUTE),
            ..refused.clone()
        };
        assert_eq!(
            reasons(&correction_refused, true, NOW),
            [Reason::KeysRefused]
        );
        // The lead the keys were refused for was entered by hand: nothing waits.
        let entered = Snapshot {
            waiting: 0,
            ..refused
        };
        assert!(reasons(&entered, true, NOW).is_empty());
        let late = Snapshot {
            oldest_pending_at: Some(NOW - 16 * MINUTE),
            waiting: 1,
            ..Snapshot::default()
        };
        assert_eq!(reasons(&late, true, NOW), [Reason::Backlog]);
        assert_eq!(reasons(&late, false, NOW), [Reason::Off, Reason::Backlog]);
    }

    #[test]
    fn a_correction_waiting_more_than_15_minutes_is_a_reason_of_its_own() {
        let correcting = |at: i64| Snapshot {
            oldest_correction_at: Some(at),
            ..Snapshot::default()
        };
        assert!(reasons(&correcting(NOW - 14 * MINUTE), true, NOW).is_empty());
        assert_eq!(
            reasons(&correcting(NOW - 16 * MINUTE), true, NOW),
            [Reason::Corrections]
        );
        // Delivery switched off strands corrections as it strands leads.
        assert_eq!(
            reasons(&correcting(NOW - MINUTE), false, NOW),
            [Reason::Off]
        );
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "corrections".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        assert_eq!(incident.reasons(), [Reason::Corrections]);
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("Correções de leads não estão chegando ao Jetimob desde ")
        );
        // With leads waiting too, it is about the leads.
        assert_eq!(
            headline(&[Reason::Backlog, Reason::Corrections]),
            messages::DELIVERY_ALERT_SUBJECT
        );
        assert!(words.details[0].0.contains("correções de visitantes"));
        assert!(words.details[0].1.contains("'Precisam de atenção'"));
        assert!(words.kept.starts_with("Nenhum lead se perde"));
    }

    #[test]
    fn a_lead_form_refusing_visitors_is_a_reason_until_a_lead_gets_through_or_15_minutes_pass() {
        let refused = |at: i64, last: Option<i64>| Snapshot {
            form_refused_at: Some(at),
            last_submission_at: last,
            ..Snapshot::default()
        };
        assert_eq!(
            reasons(&refused(NOW - MINUTE, None), true, NOW),
            [Reason::FormBlocked]
        );
        let before = Some(NOW - 60 * MINUTE);
        assert_eq!(
            reasons(&refused(NOW - MINUTE, before), true, NOW),
            [Reason::FormBlocked]
        );
        // A lead got through after it: the form works.
        assert!(reasons(&refused(NOW - 2 * MINUTE, Some(NOW - MINUTE)), true, NOW).is_empty());
        // Nobody refused for 15 minutes.
        assert!(reasons(&refused(NOW - 16 * MINUTE, before), true, NOW).is_empty());
        // Its alert does not promise that every lead is kept.
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "form_blocked".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("O formulário do site está recusando visitantes desde ")
        );
        assert!(!words.summary.contains("esperando"));
        assert!(words.kept.contains("não ficaram registrados"));
    }

    #[test]
    fn the_recovery_speaks_of_what_the_alert_named() {
        // Alerted for a backlog that has since narrowed to a correction: the leads recovered.
        let narrowed = incident("corrections", Some("backlog,corrections"));
        assert_eq!(narrowed.named(), [Reason::Backlog, Reason::Corrections]);
        let since = "24/11/2026 09:00";
        assert_eq!(
            recovery(&narrowed.named(), since),
            (
                "Entrega ao Jetimob normalizada",
                "Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob (o problema começou em 24/11/2026 09:00).".to_string()
            )
        );
        // Alerted before 0009 kept no list: its last reasons stand in.
        assert_eq!(incident("corrections", None).named(), [Reason::Corrections]);
        let (subject, line) = recovery(&[Reason::Corrections], since);
        assert_eq!(subject, "Correções de leads normalizadas");
        assert!(line.contains("nenhuma correção de visitante espera mais"));
        let (subject, line) = recovery(&[Reason::FormBlocked], since);
        assert_eq!(subject, "Formulário do site normalizado");
        assert!(line.contains("não recusa mais visitantes"));
        assert!(!line.contains("leads voltaram"));
    }

    #[test]
    fn a_webhook_that_refused_an_event_three_times_is_an_incident_of_its_own() {
        let failing = Snapshot {
            webhook_failing_since: Some(NOW - 10 * MINUTE),
            ..Snapshot::default()
        };
        assert_eq!(reasons(&failing, true, NOW), [Reason::WebhookFailing]);
        let incident = Incident {
            id: 1,
            started_at: NOW,
            reasons: "webhook_failing".into(),
            waiting: 0,
            alerted_at: None,
            alerted_reasons: None,
        };
        assert_eq!(incident.reasons(), [Reason::WebhookFailing]);
        let words = describe(&incident);
        assert!(
            words
                .summary
                .starts_with("O webhook do site não está recebendo os avisos desde ")
        );
        assert!(words.details[0].1.contains("ALERT_WEBHOOK_URL"));
        let (subject, line) = recovery(&incident.named(), "24/11/2026 09:00");
        assert_eq!(subject, "Webhook do site normalizado");
        assert!(line.contains("nenhum aviso espera mais"));
        // Beside leads that wait, it is about the leads.
        assert_eq!(
            headline(&[Reason::Backlog, Reason::WebhookFailing]),
            messages::DELIVERY_ALERT_SUBJECT
        );
    }
}
