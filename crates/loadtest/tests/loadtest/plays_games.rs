//! The load generator plays a few games against a real server.

use loadtest::{Options, run};
use thaiboard_server::{Config, Server};

/// A server on a loopback port over a new SQLite file (or
/// `THAIBOARD_TEST_DATABASE_URL`), without a rate limit and with loopback
/// exempt from the per-address caps (`--exempt-loopback`): the load comes
/// from one address.
async fn start() -> Server {
    let dir = std::env::temp_dir().join(format!(
        "thaiboard-loadtest-test-{}",
        thaiboard_server::util::random_id(8)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let url = match std::env::var("THAIBOARD_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => url,
        _ => format!("sqlite://{}", dir.join("test.db").display()),
    };
    Server::start(Config {
        bind: "127.0.0.1:0".parse().unwrap(),
        database_url: Some(url),
        rate_per_sec: 0.0,
        argon2_memory_kib: 64,
        exempt_loopback: true,
        ..Default::default()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_generator_plays_games() {
    let server = start().await;
    let report = run(Options {
        base: format!("http://{}", server.addr),
        games: 6,
        plies: 8,
        think_ms: 10,
        variant: "makruk".into(),
        games_per_pair: 3,
        minutes: 5.0,
        ..Options::default()
    })
    .await
    .unwrap();
    println!("{report}");
    assert_eq!(report.errors, 0, "{report}");
    assert_eq!(report.moves, 6 * 8, "{report}");
    assert!(report.rtt_ms[2] > 0.0);
}

/// Half the games with a bot over the Bot API (its moves counted apart),
/// in both games: Mak-hot's bot moves are in the engine form (`c3d4`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_generator_plays_bots_over_the_bot_api() {
    let server = start().await;
    for variant in ["makruk", "makhos"] {
        let report = run(Options {
            base: format!("http://{}", server.addr),
            games: 6,
            plies: 8,
            think_ms: 10,
            variant: variant.into(),
            games_per_pair: 3,
            minutes: 5.0,
            bot_share: 0.5,
            ..Options::default()
        })
        .await
        .unwrap();
        println!("{variant}: {report}");
        assert_eq!(report.errors, 0, "{report}");
        assert_eq!(report.moves, 6 * 8, "{report}");
        // Three bot games, Black's four moves in each.
        assert_eq!(report.bot_moves, 3 * 4, "{report}");
        assert!(report.bot_rtt_ms[2] > 0.0, "{report}");
        assert!(report.to_string().contains("bot api moves: 12"), "{report}");
    }
}
