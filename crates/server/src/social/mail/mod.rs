//! E-mail for correspondence players, as SchemingMind sends it: "your
//! move", a deadline approaching, game over. Sent through SMTP (lettre) to
//! the server given by `thaiboard serve --smtp smtp://[user:pass@]host:port`;
//! without one, nothing is sent and the address routes answer so.
//!
//! - An account gives one address (`PUT /api/account/email`); a link mailed
//!   to it verifies it (`GET /api/account/email/verify?token=`). Only
//!   verified, subscribed addresses get mail.
//! - Every mail ends with an unsubscribe link (`GET /api/unsubscribe?token=`)
//!   and says so in a `List-Unsubscribe` header.
//! - Mails follow the game service's events (a subscriber); deadline
//!   warnings come from a sweep every [`Mailer::sweep`] over the
//!   correspondence games whose mover has less than
//!   [`model::DEADLINE_WARNING_MS`] left (by the game service's time), once
//!   per turn.
//!
//! - [`model`]: what each mail says, the deadline arithmetic, the checks of
//!   addresses and tokens, without I/O;
//! - [`store`]: every SQL statement of e-mail, with bound parameters;
//! - [`smtp`]: the [`Mailer`] that sends;
//! - [`routes`]: the address routes and the mailed links;
//! - here: the subscriber of game events and the sweep of deadlines.

pub mod model;
pub mod routes;
pub mod smtp;
pub mod store;

pub use routes::routes;
pub use smtp::Mailer;

use crate::AppState;
use crate::game::{GameEvent, Games};
use crate::infra::error::ApiResult;
use std::sync::Arc;

/// The site's address for links in mail.
pub(crate) fn site(app: &AppState) -> String {
    app.config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", app.config.bind))
}

/// Mails `user_id` (if they have a verified, subscribed address) in the background.
fn mail_user(app: &AppState, user_id: String, (subject, body): model::Mail) {
    let Some(mailer) = app.mailer.clone() else {
        return;
    };
    let app = app.clone();
    tokio::spawn(async move {
        let Ok(Some((to, token))) = store::address_of(&app.db, &user_id).await else {
            return;
        };
        let unsubscribe = format!("{}/api/unsubscribe?token={token}", site(&app));
        if let Err(e) = mailer.send(&to, &subject, &body, &unsubscribe).await {
            eprintln!("thaiboard-server: mail to {to}: {e}");
        }
    });
}

/// Starts e-mail: its subscriber of game events and its sweep of deadlines.
pub fn start(app: &Arc<crate::App>) {
    subscribe(&app.games, Arc::downgrade(app));
    tokio::spawn(sweep_deadlines(Arc::downgrade(app)));
}

/// Mails correspondence players what the game service tells: their move,
/// the game's end. Only events of this process (each change mails once).
fn subscribe(games: &Arc<Games>, app: std::sync::Weak<crate::App>) {
    games.subscribe(Box::new(move |event: &GameEvent| {
        let g = &event.game;
        // Each change is mailed once, by the process that made it.
        if event.remote {
            return;
        }
        let Some(app) = app.upgrade() else { return };
        if app.mailer.is_none() {
            return;
        }
        let link = format!("{}/game/{}", site(&app), g.id);
        for t in crate::social::notify::correspondence_notes(event) {
            let mail = model::event_mail(t.tell, &t.opponent, g.variant, g.result, &link);
            mail_user(&app, t.user_id, mail);
        }
    }));
}

/// Warns the movers of correspondence games whose time runs low, once per
/// turn; runs every [`Mailer::sweep`] while the server runs.
pub async fn sweep_deadlines(app: std::sync::Weak<crate::App>) {
    loop {
        let Some(a) = app.upgrade() else { return };
        let Some(mailer) = a.mailer.clone() else {
            return;
        };
        if let Err(e) = warn_deadlines(&a).await {
            eprintln!("thaiboard-server: deadline mail: {}", e.message);
        }
        drop(a);
        tokio::time::sleep(mailer.sweep).await;
    }
}

/// One sweep: mails each mover whose deadline is near and who was not
/// warned this turn.
async fn warn_deadlines(app: &AppState) -> ApiResult<()> {
    let now = app.games.time.now_ms();
    let rows = store::deadlines_before(&app.db, now + model::DEADLINE_WARNING_MS).await?;
    for (id, ply, mover) in rows {
        // The stored clock is a lower bound: leave pushes the deadline back.
        let Some(deadline) = app.games.deadline(&id).await? else {
            continue;
        };
        if !model::deadline_is_near(deadline, now) {
            continue;
        }
        // Another process marked it first: it mails.
        if !store::mark_warned(&app.db, &id, ply, now).await? {
            continue;
        }
        if let Some(mover) = mover {
            let link = format!("{}/game/{id}", site(app));
            mail_user(app, mover, model::deadline_mail(deadline, now, &link));
        }
    }
    Ok(())
}
