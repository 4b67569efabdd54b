//! The load generator plays a few games against a real server.

mod common;

use thaiboard_server::loadtest::{Options, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_generator_plays_games() {
    let server = common::start().await;
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
