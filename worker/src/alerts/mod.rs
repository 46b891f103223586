//! Nobody misses a lead: new-lead notices to the staff who want them,
//! delivery-trouble alerts to the owners, and the optional webhook. All run
//! from the cron, after the deliveries, every minute. And what an uptime
//! monitor reads of it all: `GET /api/health` (`health`).

pub mod health;
pub mod heartbeat;
pub mod incidents;
pub mod notices;
pub mod owner_mails;
pub mod webhook;

use worker::Env;

use crate::platform::{self, config};

/// One cron run's watch: each part on its own, so one failing leaves the others.
pub async fn run(env: &Env) {
    let db = match config::database(env) {
        Ok(db) => db,
        Err(e) => {
            worker::console_error!("alerts: no database: {e}");
            return;
        }
    };
    let now = platform::now_ms();
    match incidents::watch(env, &db, now).await {
        Ok(()) => {
            if let Err(e) = heartbeat::record(&db, now).await {
                worker::console_error!("alerts: recording the watch failed: {e}");
            }
        }
        Err(e) => worker::console_error!("alerts: watching delivery failed: {e}"),
    }
    if let Err(e) = owner_mails::send_due(env, &db, now).await {
        worker::console_error!("alerts: the owners' alert e-mails failed: {e}");
    }
    if let Err(e) = heartbeat::tell_webhook(env, &db, now).await {
        worker::console_error!("alerts: telling the webhook about e-mail failed: {e}");
    }
    if let Err(e) = notices::send_due(env, &db).await {
        worker::console_error!("alerts: new-lead notices failed: {e}");
    }
    if let Err(e) = webhook::run(env, &db, now).await {
        worker::console_error!("alerts: the webhook failed: {e}");
    }
}
