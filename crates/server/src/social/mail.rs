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
//!   correspondence games whose mover has less than [`DEADLINE_WARNING_MS`]
//!   left, once per turn.

use crate::AppState;
use crate::account::auth::{Actor, Viewer};
use crate::game::{GameEvent, Games};
use crate::infra::db::Db;
use crate::infra::error::{ApiError, ApiResult};
use crate::infra::extract::Body;
use crate::infra::util::{now_ms, random_token};
use crate::social::notify::Tell;
use axum::extract::{Query, State};
use axum::response::Html;
use axum::{Json, Router, routing::get};
use lettre::message::{Mailbox, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// A correspondence player is warned when less than this is left on their clock.
pub const DEADLINE_WARNING_MS: i64 = 24 * 3_600_000;
/// Longest address accepted.
pub const MAX_EMAIL_CHARS: usize = 254;

/// Sends the mails.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// How often deadlines are looked at.
    pub sweep: Duration,
}

impl Mailer {
    /// A mailer for `url` (`smtp://[user:pass@]host[:port]`, plain SMTP to a
    /// relay such as a local MTA), sending as `from`.
    pub fn new(url: &str, from: &str, sweep: Duration) -> Result<Mailer, String> {
        let rest = url
            .strip_prefix("smtp://")
            .ok_or_else(|| format!("--smtp {url:?}: write smtp://[user:pass@]host[:port]"))?;
        let (auth, hostport) = match rest.rsplit_once('@') {
            Some((auth, hp)) => (Some(auth), hp),
            None => (None, rest),
        };
        let hostport = hostport.trim_end_matches('/');
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (
                h,
                p.parse::<u16>()
                    .map_err(|_| format!("--smtp {url:?}: the port {p:?} is not a number"))?,
            ),
            None => (hostport, 25),
        };
        if host.is_empty() {
            return Err(format!("--smtp {url:?}: no host"));
        }
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host).port(port);
        if let Some(auth) = auth {
            let (user, pass) = auth.split_once(':').unwrap_or((auth, ""));
            builder = builder.credentials(Credentials::new(user.into(), pass.into()));
        }
        let from = from
            .parse::<Mailbox>()
            .map_err(|e| format!("--mail-from {from:?}: {e}"))?;
        Ok(Mailer {
            transport: builder.build(),
            from,
            sweep,
        })
    }

    /// Sends `body` (plain text) to `to` with an unsubscribe link.
    async fn send(
        &self,
        to: &str,
        subject: &str,
        body: &str,
        unsubscribe: &str,
    ) -> Result<(), String> {
        let to: Mailbox = to.parse().map_err(|e| format!("address {to:?}: {e}"))?;
        let text = format!("{body}\n\n--\nthaiboard. To receive no more mail: {unsubscribe}\n");
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .raw_header(lettre::message::header::HeaderValue::new(
                lettre::message::header::HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{unsubscribe}>"),
            ))
            // lettre picks the transfer encoding the text needs.
            .singlepart(SinglePart::plain(text))
            .map_err(|e| e.to_string())?;
        self.transport
            .send(message)
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// An account's address as the account page shows it.
#[derive(Serialize)]
pub struct EmailView {
    /// The address, if one was given.
    pub email: Option<String>,
    /// Whether its link was followed.
    pub verified: bool,
    /// Whether it gets mail (not unsubscribed).
    pub subscribed: bool,
    /// Whether this server sends mail at all (`--smtp`).
    pub enabled: bool,
}

/// A verified, subscribed address of `user_id` and its unsubscribe token.
async fn address_of(db: &Db, user_id: &str) -> ApiResult<Option<(String, String)>> {
    let row = sqlx::query(
        "SELECT email, unsubscribe_token FROM user_email \
         WHERE user_id = $1 AND verified_at IS NOT NULL AND subscribed = 1",
    )
    .bind(user_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(row.map(|r| (r.get(0), r.get(1))))
}

/// The site's address for links in mail.
fn site(app: &AppState) -> String {
    app.config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{}", app.config.bind))
}

/// Mails `user_id` (if they have a verified, subscribed address) in the background.
fn mail_user(app: &AppState, user_id: String, subject: String, body: String) {
    let Some(mailer) = app.mailer.clone() else {
        return;
    };
    let app = app.clone();
    tokio::spawn(async move {
        let Ok(Some((to, token))) = address_of(&app.db, &user_id).await else {
            return;
        };
        let unsubscribe = format!("{}/api/unsubscribe?token={token}", site(&app));
        if let Err(e) = mailer.send(&to, &subject, &body, &unsubscribe).await {
            eprintln!("thaiboard-server: mail to {to}: {e}");
        }
    });
}

/// Mails correspondence players what the game service tells: their move,
/// the game's end. Only events of this process (each change mails once).
/// Starts e-mail: its subscriber of game events and its sweep of deadlines.
pub fn start(app: &Arc<crate::App>) {
    subscribe(&app.games, Arc::downgrade(app));
    tokio::spawn(sweep_deadlines(Arc::downgrade(app)));
}

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
            let (subject, body) = match t.tell {
                Tell::YourTurn => (
                    format!("Your move against {}", t.opponent),
                    format!(
                        "It is your move in your {} game against {}:\n{link}",
                        g.variant, t.opponent
                    ),
                ),
                Tell::GameOver => {
                    let result = g.result.unwrap_or("*");
                    (
                        format!("Game over against {}: {result}", t.opponent),
                        format!(
                            "Your {} game against {} is over: {result}.\n{link}",
                            g.variant, t.opponent
                        ),
                    )
                }
            };
            mail_user(&app, t.user_id, subject, body);
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

async fn warn_deadlines(app: &AppState) -> ApiResult<()> {
    let now = app.games.time.now_ms();
    // The mover's deadline: turn_since + the mover's stored time.
    let rows = sqlx::query(
        "SELECT g.id, g.ply, CASE WHEN g.ply % 2 = 0 THEN g.white_id ELSE g.black_id END, \
         g.turn_since + CASE WHEN g.ply % 2 = 0 THEN g.white_ms ELSE g.black_ms END \
         FROM games g WHERE g.status = 'ongoing' AND g.tc_kind = 'correspondence' \
         AND g.turn_since + CASE WHEN g.ply % 2 = 0 THEN g.white_ms ELSE g.black_ms END < $1 \
         AND NOT EXISTS (SELECT 1 FROM mail_deadline_warnings w WHERE w.game_id = g.id AND w.ply = g.ply)",
    )
    .bind(now + DEADLINE_WARNING_MS)
    .fetch_all(&app.db.pool)
    .await?;
    for r in rows {
        let (id, ply, mover): (String, i32, Option<String>) = (r.get(0), r.get(1), r.get(2));
        // The stored clock is a lower bound: leave pushes the deadline back.
        let Some(deadline) = app.games.deadline(&id).await? else {
            continue;
        };
        if deadline >= now + DEADLINE_WARNING_MS {
            continue;
        }
        let marked = sqlx::query(
            "INSERT INTO mail_deadline_warnings (game_id, ply, sent_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, ply) DO NOTHING",
        )
        .bind(&id)
        .bind(ply)
        .bind(now)
        .execute(&app.db.pool)
        .await?;
        // Another process marked it first: it mails.
        if marked.rows_affected() == 0 {
            continue;
        }
        if let Some(mover) = mover {
            let hours = ((deadline - now).max(0) as f64 / 3_600_000.0).round();
            let link = format!("{}/game/{id}", site(app));
            mail_user(
                app,
                mover,
                format!("Your time runs out in {hours} hours"),
                format!("You have about {hours} hours left to move in this game:\n{link}"),
            );
        }
    }
    Ok(())
}

/// Body of `PUT /api/account/email`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewAddress {
    email: String,
}

/// Whether `text` looks like an address (lettre's parser decides).
fn check_address(text: &str) -> ApiResult<String> {
    let text = text.trim();
    if text.chars().count() > MAX_EMAIL_CHARS || text.parse::<lettre::Address>().is_err() {
        return Err(ApiError::bad_request(
            "invalid_email",
            format!("{text:?} is not an e-mail address"),
        ));
    }
    Ok(text.to_string())
}

async fn view(app: &AppState, user_id: &str) -> ApiResult<EmailView> {
    let row =
        sqlx::query("SELECT email, verified_at, subscribed FROM user_email WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&app.db.pool)
            .await?;
    Ok(EmailView {
        email: row.as_ref().map(|r| r.get(0)),
        verified: row
            .as_ref()
            .is_some_and(|r| r.get::<Option<i64>, _>(1).is_some()),
        subscribed: row.as_ref().is_none_or(|r| r.get::<i32, _>(2) != 0),
        enabled: app.mailer.is_some(),
    })
}

async fn read(State(app): State<AppState>, Viewer(s): Viewer) -> ApiResult<Json<EmailView>> {
    let s = s.ok_or_else(|| ApiError::unauthorized("no_session", "no valid session"))?;
    Ok(Json(view(&app, &s.user.id).await?))
}

/// `PUT /api/account/email`: sets the address (unverified) and mails the link.
async fn write(
    State(app): State<AppState>,
    Actor(s): Actor,
    Body(body): Body<NewAddress>,
) -> ApiResult<Json<EmailView>> {
    if s.user.guest {
        return Err(ApiError::forbidden(
            "account_required",
            "register to give an e-mail address",
        ));
    }
    let Some(mailer) = app.mailer.clone() else {
        return Err(ApiError::conflict(
            "mail_disabled",
            "this server sends no e-mail (started without --smtp)",
        ));
    };
    let email = check_address(&body.email)?;
    let verify = random_token();
    sqlx::query(
        "INSERT INTO user_email (user_id, email, verified_at, verify_token, unsubscribe_token, subscribed, updated_at) \
         VALUES ($1, $2, NULL, $3, $4, 1, $5) ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, \
         verified_at = NULL, verify_token = excluded.verify_token, subscribed = 1, updated_at = excluded.updated_at",
    )
    .bind(&s.user.id)
    .bind(&email)
    .bind(&verify)
    .bind(random_token())
    .bind(now_ms())
    .execute(&app.db.pool)
    .await?;
    let token: String = sqlx::query("SELECT unsubscribe_token FROM user_email WHERE user_id = $1")
        .bind(&s.user.id)
        .fetch_one(&app.db.pool)
        .await?
        .get(0);
    let link = format!("{}/api/account/email/verify?token={verify}", site(&app));
    let unsubscribe = format!("{}/api/unsubscribe?token={token}", site(&app));
    mailer
        .send(
            &email,
            "Verify your e-mail address for thaiboard",
            &format!("{}, follow this link to get thaiboard's mail about your correspondence games:\n{link}", s.user.username),
            &unsubscribe,
        )
        .await
        .map_err(|e| ApiError::new(axum::http::StatusCode::BAD_GATEWAY, "mail_failed", format!("the mail could not be sent: {e}")))?;
    Ok(Json(view(&app, &s.user.id).await?))
}

/// A small page that says what a mailed link did.
fn page(title: &str, text: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><meta charset=utf-8><title>{title} · thaiboard</title>\
         <link rel=stylesheet href=/assets/style.css><main><div class=panel><h2>{title}</h2><p>{text}</p>\
         <p><a href=/>thaiboard</a></p></div></main>"
    ))
}

/// The `token` of a mailed link (hex, as [`random_token`] makes them).
fn token_of(query: &HashMap<String, String>) -> ApiResult<&str> {
    query
        .get("token")
        .map(String::as_str)
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_token",
                "this link is broken: its token is missing or malformed",
            )
        })
}

/// Runs `sql` (`$1`: now, `$2`: the link's token) for the token of a
/// mailed link; not found when no row had that token.
async fn follow_link(
    app: &AppState,
    q: &HashMap<String, String>,
    sql: &str,
    unknown: &str,
) -> ApiResult<()> {
    let token = token_of(q)?;
    let done = sqlx::query(sql)
        .bind(now_ms())
        .bind(token)
        .execute(&app.db.pool)
        .await?;
    if done.rows_affected() == 0 {
        return Err(ApiError::not_found(unknown));
    }
    Ok(())
}

/// `GET /api/account/email/verify?token=`: the link in the verification mail.
async fn verify(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Html<String>> {
    let sql = "UPDATE user_email SET verified_at = $1, verify_token = NULL WHERE verify_token = $2";
    follow_link(
        &app,
        &q,
        sql,
        "this link was used already, or replaced by a newer one",
    )
    .await?;
    Ok(page(
        "Address verified",
        "thaiboard will mail you about your correspondence games.",
    ))
}

/// `GET /api/unsubscribe?token=`: the link at the end of every mail.
async fn unsubscribe(
    State(app): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Html<String>> {
    let sql = "UPDATE user_email SET subscribed = 0, updated_at = $1 WHERE unsubscribe_token = $2";
    follow_link(&app, &q, sql, "no address has this unsubscribe link").await?;
    Ok(page(
        "Unsubscribed",
        "thaiboard will send no more mail to this address.",
    ))
}

/// The routes, under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/account/email", get(read).put(write))
        .route("/account/email/verify", get(verify))
        .route("/unsubscribe", get(unsubscribe))
}
