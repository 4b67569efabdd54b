//! A bot's side of the load, as lichess-bot plays: an account upgraded to a
//! bot, a `bot:play` token, a game stream per game (ndjson), and each move
//! computed from the streamed moves with the rules crates and POSTed.

use crate::player::{Player, SocketGames, challenge};
use crate::{Options, Stats, answer, err};
use games::{AnyGame, GameKind};
use rand::Rng;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Games each bot plays at once: a game stream each, within the server's
/// limit of streams per token.
pub const GAMES_PER_BOT: usize = thaiboard_server::MAX_STREAMS_PER_TOKEN - 1;

/// How long a bot waits for its stream's next line (keep-alives come every
/// few seconds).
const STREAM_TIMEOUT: Duration = Duration::from_secs(30);

/// A bot account's HTTP client and token.
struct Bot {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Bot {
    /// POSTs to `path` with the token; the answer's JSON, or the error.
    async fn post(&self, path: &str) -> Result<Value, String> {
        let request = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.token);
        answer(path, request).await
    }
}

/// A person and a bot with their games started.
pub struct BotGames {
    person: SocketGames,
    bot: Arc<Bot>,
    ids: Vec<String>,
}

/// Registers a person and a bot (names from `prefix`), and starts `games`
/// games: each a challenge from the person that the bot accepts.
pub async fn set_up(
    o: &Options,
    prefix: &str,
    games: usize,
    stats: &Arc<Mutex<Stats>>,
) -> Result<BotGames, String> {
    let person = Player::new(&o.base, &format!("lp{prefix}")).await?;
    let name = format!("lbot{prefix}");
    let account = Player::new(&o.base, &name).await?;
    let made = account
        .post(
            &o.base,
            "/api/account/tokens",
            json!({ "description": "loadtest bot", "scopes": ["bot:play"] }),
        )
        .await?;
    let token = made["token"].as_str().unwrap_or_default().to_string();
    let bot = Arc::new(Bot {
        http: reqwest::Client::new(),
        base: o.base.clone(),
        token,
    });
    bot.post("/api/bot/account/upgrade").await?;
    let mut ids = Vec::new();
    for _ in 0..games {
        let g = person
            .post(&o.base, "/api/challenges", challenge(o, Some(&name)))
            .await?;
        let id = g["id"].as_str().unwrap_or_default().to_string();
        bot.post(&format!("/api/challenge/{id}/accept")).await?;
        ids.push(id);
    }
    let person = SocketGames::connect(&o.base, ids.clone(), [Some(&person), None], stats).await?;
    Ok(BotGames { person, bot, ids })
}

impl BotGames {
    /// Plays every game to its end: the person over the WebSocket, the bot
    /// over its streams.
    pub async fn play(self, o: &Options, stats: &Arc<Mutex<Stats>>) {
        let mut bots = Vec::new();
        for id in self.ids {
            let task = play_bot_game(id, self.bot.clone(), o.clone(), stats.clone());
            bots.push(tokio::spawn(task));
        }
        self.person.play(o, stats).await;
        for b in bots {
            let _ = b.await;
        }
    }
}

/// An open ndjson stream, read a line at a time.
struct Lines {
    resp: reqwest::Response,
    buf: Vec<u8>,
}

impl Lines {
    /// The next non-empty line as JSON; `None` when the stream ends.
    async fn next(&mut self) -> Result<Option<Value>, String> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=i).collect();
                if line.len() <= 1 {
                    continue; // keep-alive
                }
                return serde_json::from_slice(&line)
                    .map(Some)
                    .map_err(err("ndjson"));
            }
            let chunk = tokio::time::timeout(STREAM_TIMEOUT, self.resp.chunk())
                .await
                .map_err(err("game stream"))?
                .map_err(err("game stream"))?;
            match chunk {
                Some(bytes) => self.buf.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
    }
}

/// The bot's side (Black) of game `id`: follows its game stream and moves
/// when it is Black's turn, resigning at `o.plies`.
async fn play_bot_game(id: String, bot: Arc<Bot>, o: Options, stats: Arc<Mutex<Stats>>) {
    if let Err(e) = bot_game(&id, &bot, &o, &stats).await {
        stats.lock().unwrap().error(format!("bot in {id}: {e}"));
    }
}

async fn bot_game(id: &str, bot: &Bot, o: &Options, stats: &Mutex<Stats>) -> Result<(), String> {
    let kind = GameKind::from_names(&o.variant, None).map_err(err("variant"))?;
    let resp = bot
        .http
        .get(format!("{}/api/bot/game/stream/{id}", bot.base))
        .bearer_auth(&bot.token)
        .send()
        .await
        .map_err(err("game stream"))?;
    if !resp.status().is_success() {
        return Err(format!("game stream: {}", resp.status()));
    }
    let mut lines = Lines {
        resp,
        buf: Vec::new(),
    };
    let mut game = AnyGame::new(kind);
    while let Some(line) = lines.next().await? {
        let state = match line["type"].as_str() {
            Some("gameFull") => &line["state"],
            Some("gameState") => &line,
            _ => continue,
        };
        if state["status"] != "started" {
            return Ok(());
        }
        let moves: Vec<&str> = state["moves"]
            .as_str()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        for text in &moves[game.ply() as usize..] {
            game.play_engine(text).map_err(err("streamed move"))?;
        }
        if moves.len() % 2 == 0 {
            continue; // White's turn
        }
        if moves.len() >= o.plies {
            bot.post(&format!("/api/bot/game/{id}/resign")).await?;
            return Ok(());
        }
        let legal = game.legal_moves();
        let (think, pick) = {
            let mut rng = rand::rng();
            (
                rng.random_range(o.think_ms / 2..=o.think_ms + o.think_ms / 2),
                rng.random_range(0..legal.len().max(1)),
            )
        };
        let Some(mv) = legal.get(pick) else {
            return Ok(()); // no move: the game is over
        };
        tokio::time::sleep(Duration::from_millis(think)).await;
        let path = format!("/api/bot/game/{id}/move/{}", mv.to_engine());
        let sent = Instant::now();
        bot.post(&path).await?;
        stats
            .lock()
            .unwrap()
            .bot_rtts_us
            .push(sent.elapsed().as_micros() as u64);
    }
    Err("the game stream ended before the game".into())
}
