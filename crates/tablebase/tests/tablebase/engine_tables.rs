//! The tables as the engine plays with them (`engine_tables`), on a four-piece
//! Mak-hot position: three white men against a black king, `W:Wb2,h2,a5:BKa7`.
//! Only h2-g3 wins (the tables: the game ends in 35 plies); an 8-ply search
//! without tables sees a small plus and plays another man, and the same search
//! probing the tables inside it finds the win.

use engine::uci::{TableMove, UciTables};
use engine::{Game, Limits, MakhosGame, SearchOptions, Tablebase, Tt, search_with_tables};
use makhos::{Position, Rules};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use thaiboard_tablebase::engine_tables::{MakhosProbe, TableDirectory, makhos_root_move};
use thaiboard_tablebase::makhos::{MakhosTables, answer};

const POSITION: &str = "W:Wb2,h2,a5:BKa7";
const WINNING: &str = "h2g3";
const DEPTH: u32 = 8;

/// The Mak-hot tables of up to four pieces (default rules), made once for
/// the whole test binary.
fn tables_dir() -> &'static std::path::Path {
    crate::makhos_tables::four_piece_dir()
}

/// The move and score of a `DEPTH`-ply search of `pos`, with or without `probe`.
fn search(pos: &Position, probe: Option<&MakhosProbe>) -> (String, i32) {
    let game = MakhosGame::new(*pos, Rules::Default, 0);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(DEPTH),
        ..Limits::default()
    };
    let r = search_with_tables(
        &game,
        &[],
        &mut Tt::new(4),
        &limits,
        &SearchOptions::default(),
        probe.map(|p| p as &dyn Tablebase<MakhosGame>),
        &stop,
        |_| {},
    );
    (
        r.best.map(MakhosGame::move_text).unwrap_or_default(),
        r.score,
    )
}

#[test]
fn the_probe_inside_the_search_finds_the_only_win_a_plain_search_misses() {
    let tables = Arc::new(MakhosTables::open(tables_dir(), Rules::Default).unwrap());
    let pos: Position = POSITION.parse().unwrap();

    // The tables: a win, by one move only.
    let a = answer(&tables, &pos, 0).unwrap();
    assert_eq!(a.category, "win");
    let winning: Vec<&str> = a
        .moves
        .iter()
        .filter(|m| m.category == "loss")
        .map(|m| m.uci.as_str())
        .collect();
    assert_eq!(winning, [WINNING]);
    assert!(a.moves.len() > 1);

    // Without tables: another move, and no win in sight.
    let (plain, plain_score) = search(&pos, None);
    assert_ne!(plain, WINNING);
    assert!(plain_score < 1_000, "{plain_score}");

    // Probing the tables inside the search: the winning move, scored as a win.
    let probe = MakhosProbe::new(Arc::clone(&tables)).expect("tables");
    let (with, score) = search(&pos, Some(&probe));
    assert_eq!(with, WINNING);
    assert!(score > 20_000, "{score}");

    // The tables' own root move is the same.
    let TableMove { uci, info } = makhos_root_move(&tables, &pos, 0).unwrap().unwrap();
    assert_eq!(uci, WINNING);
    assert!(info.starts_with("tablebase win"), "{info}");
}

/// What the UCI loop writes, kept for the test to read.
#[derive(Clone, Default)]
struct Written(Arc<Mutex<Vec<u8>>>);

impl Write for Written {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_uci_loop_plays_the_tables_move_from_a_table_directory() {
    let mut dir = TableDirectory::default();
    // The directory's tables as a search probes them.
    dir.set_dir(Some(tables_dir().to_path_buf()));
    assert!(dir.makhos_probe(Rules::Default).unwrap().is_some());
    assert!(dir.makhos_probe(Rules::NoReverse).unwrap().is_none());

    let input = format!(
        "setoption name UCI_Variant value makhos\n\
         setoption name TablebasePath value {}\n\
         position fen {POSITION}\n\
         go depth {DEPTH}\n",
        tables_dir().display()
    );
    let out = Written::default();
    engine::uci::run(input.as_bytes(), out.clone(), TableDirectory::default());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("info string tablebase win"), "{text}");
    assert!(text.ends_with(&format!("bestmove {WINNING}\n")), "{text}");
}
