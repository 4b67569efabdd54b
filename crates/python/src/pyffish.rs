//! `thaiboard.pyffish`: Fairy-Stockfish's Python binding (pyffish) for its
//! Makruk and Ouk Chatrang use, with the same names, arguments and results.
//!
//! Every function builds the position from a FEN (or `startpos`) and a
//! list of UCI moves, as pyffish does. The Makruk rules come from the
//! `makruk` crate; what pyffish computes beyond them (the counting fields
//! under `count_started`, SFEN, LAN, the optional game end by repetition,
//! the material test and the FEN validator) is written here after
//! Fairy-Stockfish's definitions.

use makruk::{Bitboard, Color, Move, Position, Role, Setup, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// `VALUE_MATE`: a won game's value (the side to move's view).
pub const VALUE_MATE: i32 = 32000;
/// `VALUE_DRAW`.
pub const VALUE_DRAW: i32 = 0;

/// pyffish's notation numbers.
pub const NOTATION_DEFAULT: i32 = 0;
/// Standard algebraic notation.
pub const NOTATION_SAN: i32 = 1;
/// Long algebraic notation (`e3-e4`, `Nb1xc3`).
pub const NOTATION_LAN: i32 = 2;
/// The Thai short form.
pub const NOTATION_THAI_SAN: i32 = 8;
/// The Thai long form.
pub const NOTATION_THAI_LAN: i32 = 9;
/// pyffish's other notations, which are not Makruk's: refused here.
const FOREIGN_NOTATIONS: [(i32, &str); 5] = [
    (3, "NOTATION_SHOGI_HOSKING"),
    (4, "NOTATION_SHOGI_HODGES"),
    (5, "NOTATION_SHOGI_HODGES_NUMBER"),
    (6, "NOTATION_JANGGI"),
    (7, "NOTATION_XIANGQI_WXF"),
];

/// Fairy-Stockfish's FEN validation codes.
pub const FEN_OK: i32 = 1;
const FEN_EMPTY: i32 = 0;
const FEN_INVALID_MOVE_COUNTER: i32 = -1;
const FEN_INVALID_HALF_MOVE_COUNTER: i32 = -2;
const FEN_INVALID_NUMBER_OF_KINGS: i32 = -3;
const FEN_INVALID_SIDE_TO_MOVE: i32 = -6;
const FEN_INVALID_BOARD_GEOMETRY: i32 = -8;
const FEN_TOUCHING_KINGS: i32 = -9;
const FEN_INVALID_CHAR: i32 = -10;
const FEN_INVALID_NB_PARTS: i32 = -11;
/// A promoted piece that cannot be promoted (shogi variants only).
pub const FEN_INVALID_PROMOTED_PIECE: i32 = -12;
const FEN_INVALID_COUNTING_RULE: i32 = -14;

/// Ouk Chatrang's board's-honour limit in plies (63 moves).
const CAMBODIAN_BOARD_LIMIT: i64 = 126;

/// The variant of a pyffish variant name: only `makruk` and `cambodian`.
pub fn variant_of(name: &str) -> PyResult<Variant> {
    match name {
        "makruk" => Ok(Variant::Makruk),
        "cambodian" => Ok(Variant::Cambodian),
        _ => Err(PyValueError::new_err(format!(
            "unknown variant '{name}': thaiboard.pyffish plays 'makruk' and 'cambodian' only"
        ))),
    }
}

/// A position built from a FEN and moves, with the history pyffish keeps.
struct Built {
    pos: Position,
    /// Fairy-Stockfish's game ply (0 before White's first move).
    game_ply: i64,
    /// Plies since the last capture or bia move (Fairy-Stockfish's `rule50`).
    rule50: u32,
    /// The placement keys of every position from the FEN on, the last one
    /// being the current position's.
    keys: Vec<Key>,
}

/// What Fairy-Stockfish's repetition key holds here: the placement and the
/// side to move (not the Ouk Chatrang rights, not promoted marks).
type Key = [u64; 9];

fn key_of(pos: &Position) -> Key {
    let mut k = [0u64; 9];
    k[0] = pos.by_color(Color::White).0;
    k[1] = pos.by_color(Color::Black).0;
    for role in Role::ALL {
        k[2 + role.index()] = pos.by_role(role).0;
    }
    k[8] = (pos.turn() == Color::Black) as u64;
    k
}

fn parse_fen(variant: Variant, fen: &str) -> PyResult<(Position, Setup)> {
    let fen = if fen == "startpos" {
        variant.start_fen()
    } else {
        fen
    };
    let setup = Setup::from_fen(fen)
        .map_err(|e| PyValueError::new_err(format!("invalid FEN '{fen}': {e}")))?;
    let pos = Position::from_setup(variant, &setup).map_err(|e| {
        PyValueError::new_err(format!("invalid FEN '{fen}' for {}: {e}", variant.name()))
    })?;
    Ok((pos, setup))
}

fn parse_move(pos: &Position, text: &str, index: Option<usize>) -> PyResult<Move> {
    pos.parse_uci(text).map_err(|e| {
        let at = index.map_or(String::new(), |i| format!(" (move {} of the list)", i + 1));
        PyValueError::new_err(format!("Invalid move '{text}'{at} in {}: {e}", pos.fen()))
    })
}

fn build(variant: &str, fen: &str, moves: &[String]) -> PyResult<Built> {
    let variant = variant_of(variant)?;
    let (mut pos, setup) = parse_fen(variant, fen)?;
    let black = (setup.turn == Color::Black) as i64;
    let mut built = Built {
        game_ply: (2 * (setup.fullmoves as i64 - 1)).max(0) + black,
        rule50: setup.halfmoves,
        keys: Vec::new(),
        pos: pos.clone(),
    };
    if moves.is_empty() {
        return Ok(built);
    }
    built.keys.reserve(moves.len() + 1);
    built.keys.push(key_of(&pos));
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(&pos, text, Some(i))?;
        let zeroing = pos.is_capture(m) || pos.role_at(m.from()) == Some(Role::Pawn);
        pos.play_unchecked(m);
        built.rule50 = if zeroing { 0 } else { built.rule50 + 1 };
        built.keys.push(key_of(&pos));
    }
    built.game_ply += moves.len() as i64;
    built.pos = pos;
    Ok(built)
}

/// Fairy-Stockfish's counting fields under `count_started`.
struct Counting {
    limit: i64,
    ply: i64,
    shorter: bool,
    bare: bool,
    game_ply: i64,
    count_started: i64,
}

impl Counting {
    fn of(built: &Built, count_started: i64) -> Option<Counting> {
        let setup = built.pos.to_setup();
        if setup.counting_limit == 0 {
            return None;
        }
        let pos = &built.pos;
        let bare = pos.by_role(Role::Pawn).is_empty()
            && (pos.by_color(Color::White).count() <= 1 || pos.by_color(Color::Black).count() <= 1);
        let mut c = Counting {
            limit: setup.counting_limit as i64,
            ply: setup.counting_ply as i64,
            shorter: false,
            bare,
            game_ply: built.game_ply,
            count_started,
        };
        c.shorter = pos.variant() == Variant::Cambodian
            && CAMBODIAN_BOARD_LIMIT - c.board_honour_ply() < c.limit - c.ply;
        Some(c)
    }

    fn board_honour_ply(&self) -> i64 {
        match self.count_started {
            0 => self.ply,
            s if s < 0 => 0,
            s => (1 + self.game_ply - s).max(0),
        }
    }

    fn limit(&self) -> i64 {
        if self.shorter {
            CAMBODIAN_BOARD_LIMIT
        } else {
            self.limit
        }
    }

    fn ply(&self) -> i64 {
        if self.bare && !self.shorter {
            self.ply
        } else {
            self.board_honour_ply()
        }
    }
}

fn fen_of(built: &Built, sfen: bool, show_promoted: bool, count_started: i64) -> String {
    let written = built.pos.fen_with_marks(show_promoted);
    let mut fields = written.split(' ');
    let board = fields.next().unwrap_or_default();
    let _turn = fields.next();
    let rights = fields.next().unwrap_or("-");
    let white = built.pos.turn() == Color::White;
    if sfen {
        // Fairy-Stockfish's SFEN: the colours' letters swapped, no hand, the ply.
        return format!(
            "{board} {} - {}",
            if white { 'b' } else { 'w' },
            built.game_ply + 1
        );
    }
    let (fourth, fifth) = match Counting::of(built, count_started) {
        Some(c) => (c.limit().to_string(), c.ply()),
        None => ("-".to_string(), built.pos.to_setup().halfmoves as i64),
    };
    let fullmove = 1 + (built.game_ply - (!white) as i64) / 2;
    format!(
        "{board} {} {rights} {fourth} {fifth} {fullmove}",
        if white { 'w' } else { 'b' }
    )
}

/// The move in Fairy-Stockfish's long algebraic notation (`e3-e4`,
/// `Ra1xa8+`, `d6-d7=M`).
fn lan(pos: &Position, m: Move) -> String {
    let mut out = String::with_capacity(10);
    if let Some(role) = pos.role_at(m.from()) {
        if role != Role::Pawn {
            out.push(role.char().to_ascii_uppercase());
        }
    }
    out.push_str(&m.from().to_string());
    out.push(if pos.is_capture(m) { 'x' } else { '-' });
    out.push_str(&m.to().to_string());
    if m.is_promotion() {
        out.push_str("=M");
    }
    let after = pos.played(m);
    if after.is_check() {
        out.push(if after.has_legal_move() { '+' } else { '#' });
    }
    out
}

/// Whether a khun or met move is Ouk Chatrang's first-move leap or double
/// step (more than one square).
fn is_leap(m: Move) -> bool {
    let (df, dr) = (
        m.from().file().abs_diff(m.to().file()),
        m.from().rank().abs_diff(m.to().rank()),
    );
    df.max(dr) > 1
}

/// A met's SAN or Thai SAN in Ouk Chatrang, disambiguated as
/// Fairy-Stockfish does: only against other mets that reach the square
/// with a move of the same kind (a double step is a special move there, and
/// an ordinary move never competes with it). `None`: the `makruk` crate's
/// text stands.
fn cambodian_met_san(pos: &Position, m: Move, thai: bool) -> Option<String> {
    if pos.variant() != Variant::Cambodian || pos.role_at(m.from()) != Some(Role::Met) {
        return None;
    }
    let others: Vec<makruk::Square> = pos
        .legal_moves()
        .iter()
        .filter(|o| {
            o.to() == m.to()
                && o.from() != m.from()
                && pos.role_at(o.from()) == Some(Role::Met)
                && is_leap(**o) == is_leap(m)
        })
        .map(|o| o.from())
        .collect();
    let plain = pos.legal_moves().iter().any(|o| {
        o.to() == m.to() && o.from() != m.from() && pos.role_at(o.from()) == Some(Role::Met)
    });
    if !plain || !others.is_empty() {
        return None; // no met competes, or the crate's rule and Fairy-Stockfish's agree
    }
    let written = if thai { pos.thai_san(m) } else { pos.san(m) };
    let check = written.trim_end_matches(['+', '#']);
    let mark = &written[check.len()..];
    let capture = pos.is_capture(m);
    Some(if thai {
        let piece = if pos.promoted().contains(m.from()) {
            "ง"
        } else {
            "ม็"
        };
        format!(
            "{piece}{}{}{mark}",
            if capture { 'x' } else { '-' },
            makruk::thai_square(m.to())
        )
    } else {
        format!("M{}{}{mark}", if capture { "x" } else { "" }, m.to())
    })
}

fn write_move(pos: &Position, m: Move, notation: i32) -> PyResult<String> {
    if let Some(text) = match notation {
        NOTATION_DEFAULT | NOTATION_SAN => cambodian_met_san(pos, m, false),
        NOTATION_THAI_SAN => cambodian_met_san(pos, m, true),
        _ => None,
    } {
        return Ok(text);
    }
    Ok(match notation {
        NOTATION_DEFAULT | NOTATION_SAN => pos.san(m),
        NOTATION_LAN => lan(pos, m),
        NOTATION_THAI_SAN => pos.thai_san(m),
        NOTATION_THAI_LAN => pos.thai_lan(m),
        n => {
            let name = FOREIGN_NOTATIONS
                .iter()
                .find(|(v, _)| *v == n)
                .map_or("an unknown notation".to_string(), |(_, s)| s.to_string());
            return Err(PyValueError::new_err(format!(
                "notation {n} ({name}) is not a Makruk notation: use NOTATION_DEFAULT, NOTATION_SAN, NOTATION_LAN, NOTATION_THAI_SAN or NOTATION_THAI_LAN"
            )));
        }
    })
}

/// The pyffish version this module copies: `(0, 0, 90)`.
#[pyfunction]
pub fn version() -> (u32, u32, u32) {
    (0, 0, 90)
}

/// A line naming the engine behind the module.
#[pyfunction]
pub fn info() -> String {
    format!(
        "thaiboard {} (Makruk and Ouk Chatrang rules, pyffish-compatible)",
        env!("CARGO_PKG_VERSION")
    )
}

/// The variants this module plays: `['makruk', 'cambodian']`.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    vec!["makruk", "cambodian"]
}

/// The start position of `variant` in FEN.
#[pyfunction]
pub fn start_fen(variant: &str) -> PyResult<&'static str> {
    Ok(variant_of(variant)?.start_fen())
}

/// Whether the variant is played on two boards: never here.
#[pyfunction]
pub fn two_boards(variant: &str) -> PyResult<bool> {
    variant_of(variant)?;
    Ok(false)
}

/// Whether captured pieces go to the hand: never here.
#[pyfunction]
pub fn captures_to_hand(variant: &str) -> PyResult<bool> {
    variant_of(variant)?;
    Ok(false)
}

/// The legal moves in UCI after `movelist` is played from `fen`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn legal_moves(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<Vec<String>> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    let pos = &built.pos;
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    // Fairy-Stockfish's order of piece kinds (bia, ma, ruea, met, khon,
    // khun); the sort is stable, so each kind keeps the generator's order.
    moves.sort_by_key(|m| match pos.role_at(m.from()) {
        Some(Role::Pawn) => 0,
        Some(Role::Knight) => 1,
        Some(Role::Rook) => 2,
        Some(Role::Met) => 3,
        Some(Role::Khon) => 4,
        _ => 5,
    });
    Ok(moves.iter().map(|m| m.to_uci()).collect())
}

/// The FEN after `movelist` is played from `fen`. `sfen` writes the SFEN
/// form, `show_promoted` marks promoted bias `M~`, and `count_started`
/// (pychess's) is the game ply plus one at which a board's-honour count was
/// declared, -1 when none is declared, 0 for automatic counting.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, sfen=false, show_promoted=false, count_started=0))]
pub fn get_fen(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    sfen: bool,
    show_promoted: bool,
    count_started: i64,
) -> PyResult<String> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    Ok(fen_of(&built, sfen, show_promoted, count_started))
}

/// A UCI move of the position `fen` in `notation` (SAN by default).
#[pyfunction]
#[pyo3(signature = (variant, fen, r#move, chess960=false, notation=NOTATION_DEFAULT))]
pub fn get_san(
    variant: &str,
    fen: &str,
    r#move: &str,
    chess960: bool,
    notation: i32,
) -> PyResult<String> {
    let _ = chess960;
    let (pos, _) = parse_fen(variant_of(variant)?, fen)?;
    let m = parse_move(&pos, r#move, None)?;
    write_move(&pos, m, notation)
}

/// The UCI moves of `movelist`, played from `fen`, in `notation`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, notation=NOTATION_DEFAULT))]
pub fn get_san_moves(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    notation: i32,
) -> PyResult<Vec<String>> {
    let _ = chess960;
    let (mut pos, _) = parse_fen(variant_of(variant)?, fen)?;
    let mut out = Vec::with_capacity(movelist.len());
    for (i, text) in movelist.iter().enumerate() {
        let m = parse_move(&pos, text, Some(i))?;
        out.push(write_move(&pos, m, notation)?);
        pos.play_unchecked(m);
    }
    Ok(out)
}

/// Whether the side to move is in check after `movelist`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn gives_check(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<bool> {
    let _ = chess960;
    Ok(build(variant, fen, &movelist)?.pos.is_check())
}

/// Whether `move` captures, after `movelist`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, r#move, chess960=false))]
pub fn is_capture(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    r#move: &str,
    chess960: bool,
) -> PyResult<bool> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    let m = parse_move(&built.pos, r#move, None)?;
    Ok(built.pos.is_capture(m))
}

/// The result of a game that has ended with no legal move, from the side to
/// move's view: `-VALUE_MATE` when checkmated, `VALUE_DRAW` when
/// stalemated (as pyffish, it reads only whether the side is in check).
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn game_result(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<i32> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    Ok(if built.pos.is_check() {
        -VALUE_MATE
    } else {
        VALUE_DRAW
    })
}

/// Whether a variant rule ends the game at once: never in Makruk and Ouk
/// Chatrang (mate and stalemate are not such rules). `(False, 0)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn is_immediate_game_end(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<(bool, i32)> {
    let _ = chess960;
    build(variant, fen, &movelist)?;
    Ok((false, VALUE_DRAW))
}

/// Whether the game may end by rule here: a threefold repetition within
/// `movelist` (since the last capture or bia move), or a count that has run
/// out (under `count_started`, as [`get_fen`]) while the side to move is
/// not checkmated. `(True, VALUE_DRAW)` or `(False, 0)`.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false, count_started=0))]
pub fn is_optional_game_end(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
    count_started: i64,
) -> PyResult<(bool, i32)> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    Ok((optional_end(&built, count_started), VALUE_DRAW))
}

fn optional_end(built: &Built, count_started: i64) -> bool {
    // Threefold repetition: the same placement and side twice before, within
    // the plies since the last zeroing move and since the FEN.
    let plies = built.keys.len().saturating_sub(1);
    let end = plies.min(built.rule50 as usize);
    if end >= 4 {
        let now = built.keys[plies];
        let mut seen = 0;
        let mut i = 4;
        while i <= end {
            if built.keys[plies - i] == now {
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
    }
    match Counting::of(built, count_started) {
        Some(c) => c.ply() > c.limit() && (!built.pos.is_check() || built.pos.has_legal_move()),
        None => false,
    }
}

/// Whether each side lacks the material to mate: `(white, black)`, after
/// Fairy-Stockfish's test, where the khon is a major piece (a silver) and
/// the met a colour-bound one (a fers): a side with a ruea or a khon can
/// mate; a side with mets can when they stand on both colours of squares
/// or some other piece (a bia, a ma, or the opponent's ruea or khon) is on
/// the board; a side with a bia or a ma can when at least two pieces
/// besides the khuns are on the board.
#[pyfunction]
#[pyo3(signature = (variant, fen, movelist, chess960=false))]
pub fn has_insufficient_material(
    variant: &str,
    fen: &str,
    movelist: Vec<String>,
    chess960: bool,
) -> PyResult<(bool, bool)> {
    let _ = chess960;
    let built = build(variant, fen, &movelist)?;
    let pos = &built.pos;
    let others: Bitboard = pos.occupied() & !pos.by_role(Role::King);
    let mets = pos.by_role(Role::Met);
    let unbound = others & !mets;
    // Square colours of the mets: bit 0 for (file + rank) even, bit 1 for odd.
    let mut colours = 0u8;
    let mut bits = mets.0;
    while bits != 0 {
        let i = bits.trailing_zeros();
        colours |= 1 << ((i % 8 + i / 8) % 2);
        bits &= bits - 1;
    }
    let insufficient = |c: Color| {
        if pos.pieces(c, Role::Rook).any() || pos.pieces(c, Role::Khon).any() {
            return false;
        }
        if (pos.by_color(c) & mets).any() && (colours == 3 || unbound.any()) {
            return false;
        }
        !((pos.by_color(c) & unbound).any() && others.count() >= 2)
    };
    Ok((insufficient(Color::White), insufficient(Color::Black)))
}

/// Fairy-Stockfish's FEN check for `variant`: `FEN_OK` (1), or a negative
/// code naming the first problem (-11 fields, -10 character, -8 board
/// geometry, -3 khuns, -9 touching khuns, -6 side to move, -14 counting
/// field, -2 halfmove clock, -1 move number), 0 for an empty FEN.
#[pyfunction]
#[pyo3(signature = (fen, variant, chess960=false))]
pub fn validate_fen(fen: &str, variant: &str, chess960: bool) -> PyResult<i32> {
    let _ = chess960;
    variant_of(variant)?;
    Ok(validate(fen))
}

/// Fairy-Stockfish's `std::getline` split: empty parts between repeated
/// delimiters count, a trailing delimiter adds none.
fn getline_parts(text: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = text.split(' ').collect();
    if text.ends_with(' ') {
        parts.pop();
    }
    parts
}

fn digit_field(field: &str) -> bool {
    field == "-" || field.bytes().all(|b| b.is_ascii_digit())
}

fn validate(fen: &str) -> i32 {
    if fen.is_empty() {
        return FEN_EMPTY;
    }
    let parts = getline_parts(fen);
    if parts.is_empty() || parts.len() > 6 {
        return FEN_INVALID_NB_PARTS;
    }
    let board = parts[0].as_bytes();
    const PIECES: &[u8] = b"PNRMSKpnrmsk";
    if board
        .iter()
        .any(|&c| !(c.is_ascii_digit() || PIECES.contains(&c) || b"/*~ ".contains(&c)))
    {
        return FEN_INVALID_CHAR;
    }
    // Board geometry, as Fairy-Stockfish fills its character board.
    let mut cells = [b' '; 64];
    let (mut rank, mut file): (usize, i64) = (0, 0);
    let mut prev = b'?';
    for &c in board {
        if c == b' ' || c == b'[' {
            break;
        }
        if c == b'*' {
            file += 1;
        } else if c.is_ascii_digit() {
            file += (c - b'0') as i64;
            if prev.is_ascii_digit() {
                file += 9 * (prev - b'0') as i64;
            }
        } else if c == b'/' {
            rank += 1;
            if file != 8 {
                return FEN_INVALID_BOARD_GEOMETRY;
            }
            if rank == 8 {
                break;
            }
            file = 0;
        } else if c != b'~' {
            if file == 8 {
                return FEN_INVALID_BOARD_GEOMETRY;
            }
            let index = (7 - rank) as i64 * 8 + file;
            if (0..64).contains(&index) {
                cells[index as usize] = c;
            }
            file += 1;
        }
        prev = c;
    }
    if rank + 1 != 8 {
        return FEN_INVALID_BOARD_GEOMETRY;
    }
    let kings = |k: u8| board.iter().filter(|&&c| c == k).count();
    if kings(b'K') != 1 || kings(b'k') != 1 {
        return FEN_INVALID_NUMBER_OF_KINGS;
    }
    let at = |k: u8| {
        let i = cells.iter().position(|&c| c == k).unwrap_or(0) as i64;
        // Fairy-Stockfish's rows run from its rank 1 up.
        (i / 8, i % 8)
    };
    let (wk, bk) = (at(b'K'), at(b'k'));
    if (wk.0 - bk.0).pow(2) + (wk.1 - bk.1).pow(2) <= 2 {
        return FEN_TOUCHING_KINGS;
    }
    if parts.len() >= 2 && !matches!(parts[1].bytes().next(), Some(b'w') | Some(b'b')) {
        return FEN_INVALID_SIDE_TO_MOVE;
    }
    let skip = (4..=5).contains(&parts.len())
        && parts[2].bytes().next().is_some_and(|b| b.is_ascii_digit());
    if parts.len() >= 4 && !skip && !digit_field(parts[3]) {
        return FEN_INVALID_COUNTING_RULE;
    }
    let between = if skip { 0 } else { 2 };
    let n = parts.len();
    if n >= 3 + between && !digit_field(parts[n - 2]) {
        return FEN_INVALID_HALF_MOVE_COUNTER;
    }
    if n >= 4 + between && !digit_field(parts[n - 1]) {
        return FEN_INVALID_MOVE_COUNTER;
    }
    FEN_OK
}

/// Adds the module's functions and constants to `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(info, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(start_fen, m)?)?;
    m.add_function(wrap_pyfunction!(two_boards, m)?)?;
    m.add_function(wrap_pyfunction!(captures_to_hand, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(get_fen, m)?)?;
    m.add_function(wrap_pyfunction!(get_san, m)?)?;
    m.add_function(wrap_pyfunction!(get_san_moves, m)?)?;
    m.add_function(wrap_pyfunction!(gives_check, m)?)?;
    m.add_function(wrap_pyfunction!(is_capture, m)?)?;
    m.add_function(wrap_pyfunction!(game_result, m)?)?;
    m.add_function(wrap_pyfunction!(is_immediate_game_end, m)?)?;
    m.add_function(wrap_pyfunction!(is_optional_game_end, m)?)?;
    m.add_function(wrap_pyfunction!(has_insufficient_material, m)?)?;
    m.add_function(wrap_pyfunction!(validate_fen, m)?)?;
    m.add("VALUE_MATE", VALUE_MATE)?;
    m.add("VALUE_DRAW", VALUE_DRAW)?;
    m.add("NOTATION_DEFAULT", NOTATION_DEFAULT)?;
    m.add("NOTATION_SAN", NOTATION_SAN)?;
    m.add("NOTATION_LAN", NOTATION_LAN)?;
    for (value, name) in FOREIGN_NOTATIONS {
        m.add(name, value)?;
    }
    m.add("NOTATION_THAI_SAN", NOTATION_THAI_SAN)?;
    m.add("NOTATION_THAI_LAN", NOTATION_THAI_LAN)?;
    m.add("FEN_OK", FEN_OK)?;
    m.add("FEN_INVALID_PROMOTED_PIECE", FEN_INVALID_PROMOTED_PIECE)?;
    Ok(())
}
