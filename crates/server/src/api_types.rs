//! The web board's API types (`web/src/api-types.ts`) are generated from the
//! Rust types the server sends, never copied by hand: the integration test
//! `api_types` fails when the file is out of date, and
//! `UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test server api_types`
//! rewrites it.

use crate::account::auth::User;
use crate::game::clock::{TcKind, TimeControl};
use crate::game::{
    Action, ActionKind, ClockView, GameSummary, GameView, LeaveView, LegalMove, PauseView,
    PlayerView, Status, ThaiText,
};
use crate::leave::{LeaveDays, LeaveItem, LeaveOverview, LeaveState, YearUse};
use crate::players::{HistoryPoint, LeaderboardRow, PoolRating, Profile, Results};
use crate::pools::{PoolInfo, PoolList, PoolState};
use crate::ratings::ShownRating;
use ts_rs::{Config, TS};

/// The declarations of every type the web board reads, in dependency order,
/// as one TypeScript module.
pub fn web_api_types() -> String {
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
        LeaveDays::decl(&cfg),
        Profile::decl(&cfg),
        HistoryPoint::decl(&cfg),
        LeaderboardRow::decl(&cfg),
        LeaveState::decl(&cfg),
        LeaveItem::decl(&cfg),
        YearUse::decl(&cfg),
        LeaveOverview::decl(&cfg),
        PoolInfo::decl(&cfg),
        PoolList::decl(&cfg),
        PoolState::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the server's Rust types by crates/server/src/api_types.rs:\n\
         // do not edit; run `UPDATE_API_TYPES=1 cargo test -p thaiboard-server --test server api_types`.\n",
    );
    for d in decls {
        out.push_str("\nexport ");
        out.push_str(&d);
        out.push('\n');
    }
    out
}
