//! The tables as the search probes them at every node it reaches:
//! [`engine::Tablebase`] over [`MakrukTables`] and [`MakhosTables`].

use crate::makhos::{MakhosTables, Wdl};
use crate::makruk::{Dtm, MakrukTables, Phase, plies_left};
use engine::eval::MakrukEvaluator;
use engine::{MakhosGame, MakrukGame, TableValue, Tablebase};
use std::sync::Arc;

/// Makruk and Ouk Chatrang tables as the search probes them (with either
/// evaluation of [`MakrukGame`]).
#[derive(Debug)]
pub struct MakrukProbe {
    tables: Arc<MakrukTables>,
    max_pieces: u32,
}

impl MakrukProbe {
    /// The search's view of `tables`, or `None` when they hold no table.
    pub fn new(tables: Arc<MakrukTables>) -> Option<MakrukProbe> {
        if tables.is_empty() {
            return None;
        }
        let max_pieces = tables.max_pieces();
        Some(MakrukProbe { tables, max_pieces })
    }

    /// The tables probed.
    pub fn tables(&self) -> &Arc<MakrukTables> {
        &self.tables
    }
}

impl<E: MakrukEvaluator> Tablebase<MakrukGame<E>> for MakrukProbe {
    /// The value under the position's counting fields. In pieces' honour with a count
    /// running, a table win is a mate in exactly its distance to mate (the count leaves
    /// time for it, or the value would be a draw); elsewhere the distance is to the end of
    /// the phase (or, without counting fields, only a guide), so it is a plain win.
    fn probe(&self, g: &MakrukGame<E>) -> Option<TableValue> {
        if !Tablebase::<MakrukGame<E>>::covers(self, g) {
            return None;
        }
        let v = self.tables.verdict(&g.pos).ok()??;
        let mate = v.phase == Phase::PiecesHonour && plies_left(&g.pos).is_some();
        Some(match (v.value, v.stored) {
            (1, Dtm::Win(d)) if mate => TableValue::Mates(u32::from(d)),
            (-1, Dtm::Loss(d)) if mate => TableValue::Mated(u32::from(d)),
            (1, Dtm::Win(d)) => TableValue::Wins(u32::from(d)),
            (-1, Dtm::Loss(d)) => TableValue::Loses(u32::from(d)),
            (1, _) => TableValue::Wins(0),
            (-1, _) => TableValue::Loses(0),
            _ => TableValue::Draw,
        })
    }

    /// No more pieces than the largest table holds.
    fn covers(&self, g: &MakrukGame<E>) -> bool {
        g.pos.occupied().count() <= self.max_pieces
    }
}

/// Mak-hot tables as the search probes them.
#[derive(Debug)]
pub struct MakhosProbe {
    tables: Arc<MakhosTables>,
    max_pieces: u32,
}

impl MakhosProbe {
    /// The search's view of `tables`, or `None` when they hold no table.
    pub fn new(tables: Arc<MakhosTables>) -> Option<MakhosProbe> {
        let max_pieces = tables.materials().iter().map(|m| m.total()).max()?;
        Some(MakhosProbe { tables, max_pieces })
    }

    /// The tables probed.
    pub fn tables(&self) -> &Arc<MakhosTables> {
        &self.tables
    }
}

impl Tablebase<MakhosGame> for MakhosProbe {
    /// The value under the no-progress count; the tables know no distance to win, so a
    /// win is a plain win by its plies to the next capture or man move.
    fn probe(&self, g: &MakhosGame) -> Option<TableValue> {
        if !self.covers(g) {
            return None;
        }
        let p = self.tables.probe(&g.pos, g.no_progress).ok()?;
        let plies = p.zeroing_plies().unwrap_or(0);
        Some(match p.wdl {
            Wdl::Win => TableValue::Wins(plies),
            Wdl::Loss => TableValue::Loses(plies),
            Wdl::Draw => TableValue::Draw,
        })
    }

    /// The tables' rule option, and no more pieces than the largest table holds.
    fn covers(&self, g: &MakhosGame) -> bool {
        g.pos.occupied().count() <= self.max_pieces && g.rules == self.tables.rules()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::makruk::BareTable;
    use engine::{Limits, Score, SearchOptions, Tt, search_with_tables};
    use makruk::{Color, Position, Role, Variant};
    use std::sync::atomic::AtomicBool;

    /// The Makruk tables of three pieces, generated once into a scratch directory.
    fn rook_tables() -> MakrukProbe {
        static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
        let dir = DIR.get_or_init(|| {
            let dir =
                std::env::temp_dir().join(format!("thaiboard-search-probe-{}", std::process::id()));
            crate::makruk::generate(Variant::Makruk, 3, &dir, false, |_| {})
                .expect("3-piece tables");
            dir
        });
        let tables = MakrukTables::open(dir, Variant::Makruk).unwrap();
        MakrukProbe::new(Arc::new(tables)).expect("tables")
    }

    /// The score of a `depth`-ply search of `fen`, with or without tables, and its move.
    fn search_score(fen: &str, depth: u32, tables: Option<&MakrukProbe>) -> (Score, String, u64) {
        let game = MakrukGame::new(Position::from_fen(Variant::Makruk, fen).unwrap());
        let mut tt = Tt::new(4);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let tables = tables.map(|t| t as &dyn Tablebase<MakrukGame>);
        let r = search_with_tables(
            &game,
            &[],
            &mut tt,
            &limits,
            &SearchOptions::default(),
            tables,
            &stop,
            |_| {},
        );
        let best = r.best.map(|m| m.to_uci()).unwrap_or_default();
        (Score::from_internal(r.score), best, r.table_hits)
    }

    /// `fen` with the counting fields `limit` and `ply`.
    fn with_count(fen: &str, limit: u32, ply: u32) -> String {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        fields[3] = limit.to_string();
        fields[4] = ply.to_string();
        fields.join(" ")
    }

    /// A position of White's ruea against the bare black khun, the stronger side to move
    /// or not, with the given distance to mate: found in the table itself.
    fn table_position(turn_strong: bool, wanted: Dtm) -> String {
        let table = BareTable::generate(Variant::Makruk, Color::White, Role::Rook);
        (0..64 * 64 * 64 * 2)
            .filter_map(|i| table.position_at(i))
            .find(|p| (p.turn() == Color::White) == turn_strong && table.dtm(p) == Some(wanted))
            .expect("such a position")
            .fen()
    }

    #[test]
    fn a_capture_into_a_won_table_ending_scores_as_the_exact_mate() {
        // The ruea takes the hanging met with check; the bare khun's count starts at 6 of 32.
        let fen = "8/8/3k4/8/5K2/3m4/8/3R4 w - - 0 1";
        let tables = rook_tables();
        let pos = Position::from_fen(Variant::Makruk, fen).unwrap();
        let capture = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_uci() == "d1d3")
            .unwrap();
        let after = MakrukGame::new(pos.played(capture));
        let Some(TableValue::Mated(d)) = tables.probe(&after) else {
            panic!("the capture leads to a lost table position for Black");
        };
        let (with, best, hits) = search_score(fen, 3, Some(&tables));
        assert_eq!(
            with,
            Score::Mate((d as i32 + 2) / 2),
            "mate in 1 + {d} plies"
        );
        assert_eq!(best, "d1d3");
        assert!(hits > 0);
        let (without, _, hits) = search_score(fen, 3, None);
        assert!(matches!(without, Score::Cp(_)), "{without:?}");
        assert_eq!(hits, 0);
    }

    #[test]
    fn a_table_win_the_count_leaves_time_for_is_a_mate_and_one_it_does_not_is_a_draw() {
        // White to move mates in 15 plies without the count.
        let fen = table_position(true, Dtm::Win(15));
        let tables = rook_tables();
        // 15 plies left: the mate lands on the last one.
        let (score, _, _) = search_score(&with_count(&fen, 32, 18), 2, Some(&tables));
        assert_eq!(score, Score::Mate(8));
        // 13 plies left: the count runs out two plies before the mate.
        let (score, _, _) = search_score(&with_count(&fen, 32, 20), 2, Some(&tables));
        assert_eq!(score, Score::Cp(0));
        // Without tables the same search sees only a ruea up.
        let (score, _, _) = search_score(&with_count(&fen, 32, 20), 2, None);
        assert!(matches!(score, Score::Cp(c) if c > 0), "{score:?}");
    }

    #[test]
    fn the_losing_side_resists_as_long_as_the_table_says() {
        // Black to move is mated in 20 plies at the longest.
        let fen = table_position(false, Dtm::Loss(20));
        let tables = rook_tables();
        let (score, _, _) = search_score(&with_count(&fen, 32, 6), 2, Some(&tables));
        assert_eq!(score, Score::Mate(-10));
        let (score, _, _) = search_score(&with_count(&fen, 32, 6), 2, None);
        assert!(matches!(score, Score::Cp(_)), "{score:?}");
    }

    #[test]
    fn the_tables_cover_only_positions_of_their_piece_counts() {
        let tables = rook_tables();
        let game = |fen: &str| MakrukGame::new(Position::from_fen(Variant::Makruk, fen).unwrap());
        let inside = game("8/8/3k4/8/8/8/8/K6R w - 32 6 1");
        assert!(Tablebase::covers(&tables, &inside));
        assert!(tables.probe(&inside).is_some());
        let start = game("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1");
        assert!(!Tablebase::covers(&tables, &start));
        assert_eq!(tables.probe(&start), None);
    }

    #[test]
    fn no_tables_means_no_probes() {
        let (_, _, hits) = search_score("8/8/3k4/8/8/8/8/K6R w - 32 6 1", 4, None);
        assert_eq!(hits, 0);
    }
}
