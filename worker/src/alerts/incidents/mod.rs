//! Delivery trouble: every cron run looks at whether leads are reaching
//! Jetimob, and tells the owners when they stop and when they start again.
//!
//! An incident is open while any of these holds: Jetimob refused our keys
//! (the latest attempt got 401 or 403), the oldest lead still retried has
//! waited more than 15 minutes, a lead was given up after its week of
//! retries (until a person acts), the oldest visitor's correction not yet in
//! Jetimob has waited as long, delivery is off (no keys) while leads or corrections wait, or the
//! lead form refused a visitor in the last 15 minutes because its bot check
//! (Turnstile) could not be made, and no lead got through since, or the
//! webhook refused an event three times over (its channel hears nothing). At
//! most one is open at a time (a unique index), and each of its two e-mails
//! ('Leads não estão chegando ao Jetimob', 'Entrega ao Jetimob normalizada')
//! is claimed in D1 before it goes: one alert per incident, however many
//! cron runs see it, and no more than one alert an hour. An incident that
//! ends before its alert went ends quietly (no recovery e-mail either). A
//! cause that joins an incident already alerted (the form starts refusing
//! visitors while a lead given up waits for a person) is alerted on its own,
//! at once: an open incident must not hide what comes after it. A named
//! cause that ends while the incident stays open is marked ended, and its
//! return is alerted again, an hour after the last alert at the soonest.
//!
//! A claimed e-mail is written as one copy per owner (`owner_mails`), sent
//! at the end of the run and retried on its own if the e-mail API refuses it.
//! The webhook hears each incident when its alert is claimed, whatever
//! becomes of the e-mail (the e-mail API may be the thing refusing), and
//! its end when it resolves, in the same batch.

mod rules;
mod watch;
mod wording;

pub use rules::{BACKLOG_MS, Incident, Reason};
pub(crate) use rules::{oldest_correction, oldest_undelivered};
pub use watch::{OPEN_SQL, watch};
pub use wording::{Standing, Words, describe};
