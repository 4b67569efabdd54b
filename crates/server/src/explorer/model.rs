//! The opening explorer's pure part: which positions a game adds to the
//! index (its first [`MAX_PLY`] moves), how a position is keyed, the
//! rating bands and speed filters of a query, and the answer's JSON shape
//! (lichess's explorer shape).

use crate::game::ThaiText;
use crate::ratings::Speed;
#[cfg(test)]
use games::GameKind;
use games::{AnyMove, AnyPosition};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Moves of a game that go into the index: the opening and early middle
/// game, where positions repeat between games.
pub const MAX_PLY: usize = 50;

/// The rating bands, by their lower bound (lichess's explorer bands): a
/// game belongs to the band of its players' average rating.
pub const BANDS: [i32; 9] = [0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500];

/// Most games listed under "top games".
pub const TOP_GAMES: usize = 4;

/// The speed stored for imported games, which have no clock of the server.
pub const IMPORTED_SPEED: &str = "any";

/// Where the indexed games come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The server's own rated games, as they finish.
    Site,
    /// Games imported from records (engine matches, self-play).
    Engine,
}

impl Source {
    /// The name in the API (`db=`) and the database.
    pub const fn name(self) -> &'static str {
        match self {
            Source::Site => "site",
            Source::Engine => "engine",
        }
    }

    /// The source of a name.
    pub fn parse(name: &str) -> Option<Source> {
        [Source::Site, Source::Engine]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// The band of an average rating: the highest lower bound not above it.
pub fn band(average: i32) -> i32 {
    BANDS
        .iter()
        .copied()
        .rfind(|&b| b <= average)
        .unwrap_or(BANDS[0])
}

/// The 64-bit key of a position: the first eight bytes of the SHA-256 of
/// its canonical text, the game and rule option followed by the FEN
/// without its last two fields (the halfmove clock and the move number) for
/// Makruk and Ouk Chatrang, or Mak-hot's position text. The same placement
/// reached by different move orders has one key.
pub fn position_key(pos: &AnyPosition) -> i64 {
    let kind = pos.kind();
    let text = match pos {
        AnyPosition::Makruk(_) => {
            let fen = pos.fen();
            let fields: Vec<&str> = fen.split(' ').collect();
            fields[..fields.len().saturating_sub(2).max(1)].join(" ")
        }
        AnyPosition::Makhos { .. } => pos.fen(),
    };
    let digest = Sha256::new()
        .chain_update(kind.variant_name())
        .chain_update(b":")
        .chain_update(kind.rules_name())
        .chain_update(b"|")
        .chain_update(text.as_bytes())
        .finalize();
    i64::from_be_bytes(digest[..8].try_into().expect("eight bytes"))
}

/// One move of a game as the index holds it: the position it was played
/// from, and the move in engine form and as players write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedMove {
    /// The key of the position before the move.
    pub position: i64,
    /// Engine form (`e3e4`, Mak-hot `c3e5c7`).
    pub uci: String,
    /// SAN (Makruk) or algebraic squares (Mak-hot).
    pub san: String,
}

/// The moves of a game that go into the index: up to [`MAX_PLY`] from
/// `start`, stopping at the first move that is not legal there (a record
/// that does not replay adds what it has up to that point).
pub fn indexed_moves(
    start: &AnyPosition,
    moves: impl IntoIterator<Item = AnyMove>,
) -> Vec<IndexedMove> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for mv in moves.into_iter().take(MAX_PLY) {
        let entry = IndexedMove {
            position: position_key(&pos),
            uci: mv.to_engine(),
            san: pos.display_move(&mv),
        };
        if pos.play(&mv).is_err() {
            break;
        }
        out.push(entry);
    }
    out
}

/// A game's result as the index counts it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Winner {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
}

impl Winner {
    /// The `(white, draws, black)` counts of one game with this result.
    pub fn counts(self) -> (i64, i64, i64) {
        match self {
            Winner::White => (1, 0, 0),
            Winner::Draw => (0, 1, 0),
            Winner::Black => (0, 0, 1),
        }
    }

    /// lichess's `winner` field: `white`, `black`, or none for a draw.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Winner::White => Some("white"),
            Winner::Black => Some("black"),
            Winner::Draw => None,
        }
    }

    /// The result from its stored form (`1-0`, `0-1`, `1/2-1/2`, and Mak-hot's `2-0`...).
    pub fn parse(result: &str) -> Option<Winner> {
        match result {
            "1-0" | "2-0" => Some(Winner::White),
            "0-1" | "0-2" => Some(Winner::Black),
            "1/2-1/2" | "1-1" => Some(Winner::Draw),
            _ => None,
        }
    }
}

/// What a query asks for, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Which games.
    pub source: Source,
    /// Speed names to include (site games; empty: all).
    pub speeds: Vec<&'static str>,
    /// Rating bands to include (empty: all).
    pub bands: Vec<i32>,
}

impl Filter {
    /// Reads the `db`, `speeds` and `ratings` query parameters
    /// (comma-separated lists, as lichess's explorer takes them). The error
    /// names the parameter and the value it could not read.
    pub fn parse(
        db: Option<&str>,
        speeds: Option<&str>,
        ratings: Option<&str>,
    ) -> Result<Filter, String> {
        let source = match db {
            None | Some("") => Source::Site,
            Some(name) => Source::parse(name)
                .ok_or_else(|| format!("db: unknown database {name:?} (site or engine)"))?,
        };
        let items = |text: Option<&str>| -> Vec<String> {
            text.unwrap_or("")
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        };
        let mut chosen_speeds = Vec::new();
        for name in items(speeds) {
            let speed = Speed::ALL
                .into_iter()
                .find(|s| s.name() == name || lichess_speed_name(*s) == name)
                .ok_or_else(|| {
                    format!("speeds: unknown speed {name:?} (ultraBullet, bullet, blitz, rapid, classical, correspondence)")
                })?;
            if !chosen_speeds.contains(&speed.name()) {
                chosen_speeds.push(speed.name());
            }
        }
        let mut bands = Vec::new();
        for text in items(ratings) {
            let value: i32 = text
                .parse()
                .map_err(|_| format!("ratings: {text:?} is not a number"))?;
            if !BANDS.contains(&value) {
                return Err(format!("ratings: {value} is not a band (one of {BANDS:?})"));
            }
            if !bands.contains(&value) {
                bands.push(value);
            }
        }
        Ok(Filter {
            source,
            speeds: chosen_speeds,
            bands,
        })
    }
}

/// lichess's camel-case name of a speed (`ultraBullet`).
fn lichess_speed_name(speed: Speed) -> &'static str {
    match speed {
        Speed::UltraBullet => "ultraBullet",
        other => other.name(),
    }
}

/// One stored row of the index, summed over the query's speeds and bands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTotals {
    /// Engine form.
    pub uci: String,
    /// As players write it.
    pub san: String,
    /// Games won by White after it.
    pub white: i64,
    /// Drawn.
    pub draws: i64,
    /// Won by Black.
    pub black: i64,
    /// Sum of the games' average ratings.
    pub rating_sum: i64,
}

/// One move of the explorer's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplorerMove {
    /// Engine form.
    pub uci: String,
    /// As players write it.
    pub san: String,
    /// Games won by White.
    pub white: i64,
    /// Drawn.
    pub draws: i64,
    /// Won by Black.
    pub black: i64,
    /// The mean of the games' average ratings (0 when no game was rated).
    pub average_rating: i64,
    /// Thai notation (an addition to lichess's shape; none if the stored
    /// move does not read in the position).
    pub thai: Option<ThaiText>,
}

/// A player of a top game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopPlayer {
    /// The name.
    pub name: String,
    /// The rating when the game started.
    pub rating: Option<i32>,
}

/// One of the highest-rated games through the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopGame {
    /// The game's id (its page is `/game/{id}`).
    pub id: String,
    /// The move played in the position.
    pub uci: String,
    /// `white`, `black`, or none for a draw.
    pub winner: Option<&'static str>,
    /// White.
    pub white: TopPlayer,
    /// Black.
    pub black: TopPlayer,
    /// The year it was played.
    pub year: i32,
}

/// The explorer's answer for a position, in lichess's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explorer {
    /// Games through the position won by White.
    pub white: i64,
    /// Drawn.
    pub draws: i64,
    /// Won by Black.
    pub black: i64,
    /// Each move played from it, most played first.
    pub moves: Vec<ExplorerMove>,
    /// The highest-rated games through it.
    pub top_games: Vec<TopGame>,
}

impl Explorer {
    /// The answer from the summed rows (any order) and the top games.
    pub fn new(rows: Vec<MoveTotals>, top_games: Vec<TopGame>) -> Explorer {
        let mut moves: Vec<ExplorerMove> = rows
            .into_iter()
            .map(|r| {
                let games = r.white + r.draws + r.black;
                ExplorerMove {
                    average_rating: if games > 0 { r.rating_sum / games } else { 0 },
                    uci: r.uci,
                    san: r.san,
                    white: r.white,
                    draws: r.draws,
                    black: r.black,
                    thai: None,
                }
            })
            .collect();
        let games = |m: &ExplorerMove| m.white + m.draws + m.black;
        moves.sort_by(|a, b| games(b).cmp(&games(a)).then_with(|| a.uci.cmp(&b.uci)));
        Explorer {
            white: moves.iter().map(|m| m.white).sum(),
            draws: moves.iter().map(|m| m.draws).sum(),
            black: moves.iter().map(|m| m.black).sum(),
            moves,
            top_games,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::AnyGame;

    fn play(kind: GameKind, moves: &[&str]) -> AnyGame {
        let mut g = AnyGame::new(kind);
        for m in moves {
            g.play_engine(m).unwrap();
        }
        g
    }

    #[test]
    fn transpositions_share_a_key_and_move_numbers_do_not_matter() {
        let kind = GameKind::Makruk(makruk::Variant::Makruk);
        let a = play(kind, &["e3e4", "e6e5", "b1d2", "b8d7"]);
        let b = play(kind, &["b1d2", "b8d7", "e3e4", "e6e5"]);
        assert_eq!(position_key(&a.position()), position_key(&b.position()));
        let c = play(kind, &["e3e4", "e6e5"]);
        assert_ne!(position_key(&a.position()), position_key(&c.position()));
    }

    #[test]
    fn the_game_and_its_rules_are_part_of_the_key() {
        let makruk = AnyPosition::start(GameKind::Makruk(makruk::Variant::Makruk));
        let ouk = AnyPosition::start(GameKind::Makruk(makruk::Variant::Cambodian));
        assert_ne!(position_key(&makruk), position_key(&ouk));
        let kinds: Vec<GameKind> = GameKind::rule_options("makhos")
            .iter()
            .map(|r| GameKind::from_names("makhos", Some(r)).unwrap())
            .collect();
        assert!(kinds.len() >= 2);
        assert_ne!(
            position_key(&AnyPosition::start(kinds[0])),
            position_key(&AnyPosition::start(kinds[1]))
        );
    }

    #[test]
    fn a_game_adds_its_first_moves_with_the_position_before_each() {
        let kind = GameKind::Makruk(makruk::Variant::Makruk);
        let g = play(kind, &["e3e4", "e6e5", "b1d2"]);
        let start = AnyPosition::start(kind);
        let moves = indexed_moves(&start, g.moves());
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[0].position, position_key(&start));
        assert_eq!(
            (moves[0].uci.as_str(), moves[0].san.as_str()),
            ("e3e4", "e4")
        );
        assert_eq!(moves[2].san, "Nd2");
        assert_eq!(
            moves[2].position,
            position_key(&play(kind, &["e3e4", "e6e5"]).position())
        );
    }

    #[test]
    fn long_games_add_only_the_opening() {
        let kind = GameKind::Makruk(makruk::Variant::Makruk);
        let mut g = AnyGame::new(kind);
        // Knights to and fro: a long legal game.
        let shuffle = ["b1d2", "b8d7", "d2b1", "d7b8"];
        for i in 0..(MAX_PLY + 20) {
            g.play_engine(shuffle[i % 4]).unwrap();
        }
        let moves = indexed_moves(&AnyPosition::start(kind), g.moves());
        assert_eq!(moves.len(), MAX_PLY);
    }

    #[test]
    fn bands_are_lower_bounds() {
        assert_eq!(band(-5), 0);
        assert_eq!(band(999), 0);
        assert_eq!(band(1000), 1000);
        assert_eq!(band(1599), 1400);
        assert_eq!(band(3100), 2500);
    }

    #[test]
    fn filters_read_lichess_parameters_and_name_what_is_wrong() {
        let f = Filter::parse(None, Some("blitz,ultraBullet,blitz"), Some("1600, 1800")).unwrap();
        assert_eq!(f.source, Source::Site);
        assert_eq!(f.speeds, vec!["blitz", "ultra_bullet"]);
        assert_eq!(f.bands, vec![1600, 1800]);
        let e = Filter::parse(None, Some("hyper"), None).unwrap_err();
        assert!(e.starts_with("speeds:") && e.contains("hyper"), "{e}");
        let e = Filter::parse(None, None, Some("1700")).unwrap_err();
        assert!(e.starts_with("ratings:") && e.contains("1700"), "{e}");
        let e = Filter::parse(Some("masters"), None, None).unwrap_err();
        assert!(e.starts_with("db:"), "{e}");
        assert_eq!(
            Filter::parse(Some("engine"), None, None).unwrap().source,
            Source::Engine
        );
    }

    #[test]
    fn the_answer_sums_moves_and_orders_them_by_games() {
        let row = |uci: &str, w, d, b, sum| MoveTotals {
            uci: uci.into(),
            san: uci.into(),
            white: w,
            draws: d,
            black: b,
            rating_sum: sum,
        };
        let e = Explorer::new(
            vec![row("a", 1, 0, 0, 1500), row("b", 2, 1, 1, 6400)],
            vec![],
        );
        assert_eq!((e.white, e.draws, e.black), (3, 1, 1));
        assert_eq!(e.moves[0].uci, "b");
        assert_eq!(e.moves[0].average_rating, 1600);
        let json = serde_json::to_value(&e).unwrap();
        assert!(json["moves"][0]["averageRating"].is_number());
        assert!(json["topGames"].is_array());
    }

    #[test]
    fn results_read_both_games_forms() {
        assert_eq!(Winner::parse("1-0"), Some(Winner::White));
        assert_eq!(Winner::parse("0-2"), Some(Winner::Black));
        assert_eq!(Winner::parse("1/2-1/2"), Some(Winner::Draw));
        assert_eq!(Winner::parse("*"), None);
    }
}
