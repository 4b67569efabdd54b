//! The web board's API types (`web/src/api-types.ts`) are generated from the
//! Rust types the server sends, never copied by hand: this test fails when
//! the file is out of date, and `UPDATE_API_TYPES=1 cargo test -p
//! thaiboard-server --test api_types` rewrites it.

use thaiboard_server::auth::User;
use thaiboard_server::clock::{TcKind, TimeControl};
use thaiboard_server::game::{
    Action, ActionKind, ClockView, GameSummary, GameView, LeaveView, LegalMove, PauseView,
    PlayerView, Status, ThaiText,
};
use thaiboard_server::leave::{LeaveItem, LeaveOverview, LeaveState, YearUse};
use thaiboard_server::players::{HistoryPoint, LeaderboardRow, PoolRating, Profile, Results};
use thaiboard_server::ratings::ShownRating;
use ts_rs::{Config, TS};

/// The declarations, in dependency order, as one TypeScript module.
fn generated() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = [
        games::Color::decl(&cfg),
        games::CountView::decl(&cfg),
        User::decl(&cfg),
        TcKind::decl(&cfg),
        TimeControl::decl(&cfg),
        Status::decl(&cfg),
        ActionKind::decl(&cfg),
        ThaiText::decl(&cfg),
        Action::decl(&cfg),
        ShownRating::decl(&cfg),
        PlayerView::decl(&cfg),
        PauseView::decl(&cfg),
        ClockView::decl(&cfg),
        LeaveView::decl(&cfg),
        LegalMove::decl(&cfg),
        GameView::decl(&cfg),
        GameSummary::decl(&cfg),
        PoolRating::decl(&cfg),
        Results::decl(&cfg),
        Profile::decl(&cfg),
        HistoryPoint::decl(&cfg),
        LeaderboardRow::decl(&cfg),
        LeaveState::decl(&cfg),
        LeaveItem::decl(&cfg),
        YearUse::decl(&cfg),
        LeaveOverview::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the server's Rust types by crates/server/tests/api_types.rs:\n\
         // do not edit; run `UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test api_types`.\n",
    );
    for d in decls {
        out.push_str("\nexport ");
        out.push_str(&d);
        out.push('\n');
    }
    out
}

#[test]
fn web_api_types_are_generated_from_the_rust_types() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/src/api-types.ts");
    let want = generated();
    if std::env::var_os("UPDATE_API_TYPES").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "{path} is out of date: run UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test api_types"
    );
}
