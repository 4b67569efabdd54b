//! Between server processes that share one PostgreSQL database: one
//! `LISTEN` connection per process follows
//! - `thaiboard_games`: a game changed elsewhere; the copy here is reloaded,
//!   its watchers get a snapshot and the event subscribers a remote
//!   [`crate::game::GameEvent`];
//! - `thaiboard_bots`: the Bot API's notes made elsewhere (chat lines,
//!   `opponentGone`, a challenge being declined), handed to the streams here;
//! - `thaiboard_chat`: chat lines written elsewhere, for the sockets here;
//! - `thaiboard_sessions`: a session ended elsewhere (logout): forgotten
//!   here, and its sockets here closed.
//!
//! PostgreSQL delivers notifications in commit order, so a note sent before
//! a game's change arrives before it.

use crate::account::auth::SessionCache;
use crate::bot_api::BotHub;
use crate::bot_api::hub::BOTS_CHANNEL;
use crate::game::Games;
use crate::game::store::GAMES_CHANNEL;
use crate::infra::hub::Hub;
use crate::infra::sessions::SESSIONS_CHANNEL;
use crate::social::chat::CHAT_CHANNEL;
use std::sync::Weak;

/// How long to wait before connecting again after the connection is lost.
const RECONNECT_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

/// Follows the other processes' changes until the service is dropped.
pub async fn listen_postgres(
    url: String,
    games: Weak<Games>,
    bots: Weak<BotHub>,
    hub: Weak<Hub>,
    sessions: Weak<SessionCache>,
) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = listener
                    .listen_all([GAMES_CHANNEL, BOTS_CHANNEL, CHAT_CHANNEL, SESSIONS_CHANNEL])
                    .await
                {
                    eprintln!("thaiboard-server: LISTEN failed: {e}");
                } else {
                    loop {
                        match listener.recv().await {
                            Ok(n) => {
                                let Some(g) = games.upgrade() else { return };
                                if n.channel() == SESSIONS_CHANNEL {
                                    if let Some(s) = sessions.upgrade() {
                                        s.end(n.payload());
                                    }
                                    continue;
                                }
                                if n.channel() == CHAT_CHANNEL {
                                    if let Some(h) = hub.upgrade() {
                                        crate::social::chat::receive_remote(
                                            &h,
                                            &g.instance,
                                            n.payload(),
                                        );
                                    }
                                    continue;
                                }
                                if n.channel() == BOTS_CHANNEL {
                                    if let Some(b) = bots.upgrade() {
                                        b.receive_remote(&g.instance, n.payload());
                                    }
                                    continue;
                                }
                                let mut words = n.payload().split(' ');
                                let (Some(instance), Some(id)) = (words.next(), words.next())
                                else {
                                    continue;
                                };
                                if instance == g.instance {
                                    continue;
                                }
                                g.invalidate(id);
                                if words.next() == Some(crate::game::store::TERMS) {
                                    g.terms_changed(id).await;
                                } else {
                                    g.after_remote_change(id).await;
                                }
                            }
                            Err(e) => {
                                eprintln!("thaiboard-server: LISTEN connection lost: {e}");
                                break;
                            }
                        }
                    }
                }
            }
            Err(e) => eprintln!("thaiboard-server: cannot connect for LISTEN: {e}"),
        }
        if games.strong_count() == 0 {
            return;
        }
        tokio::time::sleep(RECONNECT_DELAY).await;
    }
}
