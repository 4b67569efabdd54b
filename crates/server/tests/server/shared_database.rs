//! The tests share `THAIBOARD_TEST_DATABASE_URL`'s database (PostgreSQL in
//! CI). A server whose clock a test moves on runs on a database of its own
//! ([`crate::common::own_database`]): started days ahead on the shared one,
//! its clock sweep would end the games of the tests beside it by timeout (in
//! CI it once ended the correspondence game of the kill-and-restart test).

use crate::common::{own_database, start, started_game, test_config};
use serde_json::json;
use sqlx::Connection;
use std::time::Duration;
use thaiboard_server::Server;

#[tokio::test]
async fn a_server_days_ahead_ends_no_game_of_another_test() {
    let server = start().await;
    let (white, black, id) = started_game(
        &server,
        "makruk",
        json!({ "time_control": { "kind": "correspondence", "days": 1 } }),
    )
    .await;
    for (who, mv) in [(&white, "e3e4"), (&black, "e6e5")] {
        who.post_ok(&format!("/api/games/{id}/move"), json!({ "move": mv }))
            .await;
    }
    // A server ten days ahead, started while the game's clock runs.
    let config = test_config(&own_database().await);
    config.time.advance(10 * 86_400_000);
    let ahead = Server::start(config).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    // The stored game, read past any server's cache.
    let url = server.app.config.database_url();
    let mut conn = sqlx::AnyConnection::connect(&url).await.unwrap();
    let (status, reason): (String, Option<String>) =
        sqlx::query_as("SELECT status, reason FROM games WHERE id = $1")
            .bind(&id)
            .fetch_one(&mut conn)
            .await
            .unwrap();
    assert_eq!((status.as_str(), reason), ("ongoing", None));
    ahead.abort();
}
