//! Legal move generation.
//!
//! Captures are compulsory; a capture sequence goes on until no jump is left; men move and
//! capture forward only; kings slide and capture at a distance, landing on the square just
//! beyond the captured piece; captured pieces leave the board as they are jumped. Sequences
//! with the same start, end and captured set are one move.

use crate::bitboard::{Bitboard, NE, NEXT, NONE, NW, RAY, SE, SW, nearest, reverse, shift, slide};
use crate::moves::{MAX_CAPTURES, Move};
use crate::position::{Position, promotion_rank};
use crate::rules::Rules;
use crate::square::{Color, Square};

/// Whether the side to move in `pos` has a capture (and so must capture).
pub fn has_capture(pos: &Position) -> bool {
    match pos.turn {
        Color::White => has_capture_c::<true>(pos),
        Color::Black => has_capture_c::<false>(pos),
    }
}

/// The empty squares a king on `from` may move to without capturing: each of its four
/// diagonals up to the first occupied square (kings fly). A slide can always be played
/// back the same way, which is what retrograde analysis relies on.
pub fn king_slides(from: Square, occupied: Bitboard) -> Bitboard {
    let (s, occ) = (from.index(), occupied.0);
    Bitboard(slide(s, NW, occ) | slide(s, NE, occ) | slide(s, SW, occ) | slide(s, SE, occ))
}

/// The forward directions of White (`W`) or Black men.
#[inline(always)]
const fn fwd<const W: bool>() -> (usize, usize) {
    if W { (NW, NE) } else { (SW, SE) }
}

#[inline(always)]
const fn forward_dirs(c: Color) -> (usize, usize) {
    match c {
        Color::White => (NW, NE),
        Color::Black => (SW, SE),
    }
}

#[inline(always)]
const fn sides<const W: bool>(pos: &Position) -> (u32, u32) {
    if W {
        (pos.pieces[0], pos.pieces[1])
    } else {
        (pos.pieces[1], pos.pieces[0])
    }
}

#[inline(always)]
fn has_capture_c<const W: bool>(pos: &Position) -> bool {
    let (own, opp) = sides::<W>(pos);
    let occ = own | opp;
    let empty = !occ;
    let men = own & !pos.kings;
    let (d1, d2) = fwd::<W>();
    if (shift(shift(men, d1) & opp, d1) | shift(shift(men, d2) & opp, d2)) & empty != 0 {
        return true;
    }
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        if king_can_jump(s, occ, opp, empty) {
            return true;
        }
    }
    false
}

/// Whether a king on `s` has a jump in any direction.
#[inline(always)]
fn king_can_jump(s: usize, occ: u32, opp: u32, empty: u32) -> bool {
    king_jump(s, NW, occ, opp, empty).is_some()
        || king_jump(s, NE, occ, opp, empty).is_some()
        || king_jump(s, SW, occ, opp, empty).is_some()
        || king_jump(s, SE, occ, opp, empty).is_some()
}

/// A king on `s` jumping in direction `d`: `(captured square, landing square)` if the first
/// piece on the ray is an enemy with an empty square just beyond it.
#[inline(always)]
fn king_jump(s: usize, d: usize, occ: u32, opp: u32, empty: u32) -> Option<(usize, usize)> {
    let blockers = RAY[d][s] & occ;
    if blockers == 0 {
        return None;
    }
    let b = nearest(blockers, d) as usize;
    if opp & (1 << b) == 0 {
        return None;
    }
    let land = NEXT[d][b];
    if empty & (1u32 << (land & 31)) == 0 || land == NONE {
        return None;
    }
    Some((b, land as usize))
}

/// Number of legal moves (fast: no list is built unless a capture exists).
pub fn count_legal_moves(pos: &Position, rules: Rules) -> u64 {
    count_legal_moves_with(pos, rules, &mut Vec::new())
}

/// Number of legal moves, using `scratch` (cleared first) if capture sequences must be
/// listed to merge duplicates.
#[inline(always)]
pub fn count_legal_moves_with(pos: &Position, rules: Rules, scratch: &mut Vec<Move>) -> u64 {
    match pos.turn {
        Color::White => count_c::<true>(pos, rules, scratch),
        Color::Black => count_c::<false>(pos, rules, scratch),
    }
}

#[inline(always)]
fn count_c<const W: bool>(pos: &Position, rules: Rules, scratch: &mut Vec<Move>) -> u64 {
    let (own, opp) = sides::<W>(pos);
    let occ = own | opp;
    let empty = !occ;
    let men = own & !pos.kings;
    let (d1, d2) = fwd::<W>();
    let s1 = shift(men, d1);
    let s2 = shift(men, d2);
    if (shift(s1 & opp, d1) | shift(s2 & opp, d2)) & empty != 0 {
        return count_captures(pos, rules, scratch);
    }
    let kings = own & pos.kings;
    // One population count for both men's directions.
    let mut n = ((((s1 & empty) as u64) << 32) | (s2 & empty) as u64).count_ones();
    if kings != 0 {
        let mut k = kings;
        while k != 0 {
            let s = k.trailing_zeros() as usize;
            k &= k - 1;
            if king_can_jump(s, occ, opp, empty) {
                return count_captures(pos, rules, scratch);
            }
            n += (slide(s, NW, occ) | slide(s, NE, occ) | slide(s, SW, occ) | slide(s, SE, occ))
                .count_ones();
        }
    }
    n as u64
}

/// The position after `mv` (generated for `pos`), the mover's colour fixed at compile time.
#[inline(always)]
fn play_c<const W: bool>(pos: &Position, mv: &Move) -> Position {
    let from = 1u32 << (mv.from & 31);
    let to = 1u32 << (mv.to & 31);
    let captured = mv.captured;
    let (us, them) = if W { (0, 1) } else { (1, 0) };
    let mut pieces = [0u32; 2];
    pieces[us] = (pos.pieces[us] & !from) | to;
    pieces[them] = pos.pieces[them] & !captured;
    let promo = if W {
        Bitboard::RANK_8.0
    } else {
        Bitboard::RANK_1.0
    };
    let promoted = (pos.kings & from) | (promo & to);
    let kings = (pos.kings & !captured & !from) | if promoted != 0 { to } else { 0 };
    Position {
        pieces,
        kings,
        turn: if W { Color::Black } else { Color::White },
    }
}

/// The legal move count of a child position, the child's side to move being `!W`.
#[inline(always)]
fn count_child<const W: bool>(child: &Position, rules: Rules, scratch: &mut Vec<Move>) -> u64 {
    if W {
        count_c::<false>(child, rules, scratch)
    } else {
        count_c::<true>(child, rules, scratch)
    }
}

/// The position after a plain (non-capturing) move of side `W` from `from`
/// to `to`, given the new set of kings.
#[inline(always)]
fn quiet_child<const W: bool>(own: u32, opp: u32, from: u32, to: u32, kings: u32) -> Position {
    let moved = (own & !from) | to;
    let (pieces, turn) = if W {
        ([moved, opp], Color::Black)
    } else {
        ([opp, moved], Color::White)
    };
    Position {
        pieces,
        kings,
        turn,
    }
}

/// Perft to depth 2 for side `W`: plain moves are played straight from the bitboards, without
/// building a move list; captures are listed (to merge duplicates) and played.
#[inline(always)]
fn perft2_c<const W: bool>(
    pos: &Position,
    rules: Rules,
    list: &mut Vec<Move>,
    scratch: &mut Vec<Move>,
) -> u64 {
    let mut n = 0;
    if has_capture_c::<W>(pos) {
        list.clear();
        generate_captures(pos, rules, list);
        for m in list.iter() {
            n += count_child::<W>(&play_c::<W>(pos, m), rules, scratch);
        }
        return n;
    }
    let (own, opp) = sides::<W>(pos);
    let occ = own | opp;
    let empty = !occ;
    let men = own & !pos.kings;
    let (d1, d2) = fwd::<W>();
    let promo = if W {
        Bitboard::RANK_8.0
    } else {
        Bitboard::RANK_1.0
    };
    for d in [d1, d2] {
        let mut targets = shift(men, d) & empty;
        let back = reverse(d);
        while targets != 0 {
            let t = targets.trailing_zeros();
            targets &= targets - 1;
            let to = 1u32 << t;
            let from = 1u32 << (NEXT[back][t as usize] & 31);
            let kings = pos.kings | (promo & to);
            n += count_child::<W>(&quiet_child::<W>(own, opp, from, to, kings), rules, scratch);
        }
    }
    let mut ks = own & pos.kings;
    while ks != 0 {
        let s = ks.trailing_zeros() as usize;
        ks &= ks - 1;
        let from = 1u32 << s;
        let mut targets =
            slide(s, NW, occ) | slide(s, NE, occ) | slide(s, SW, occ) | slide(s, SE, occ);
        while targets != 0 {
            let to = 1u32 << targets.trailing_zeros();
            targets &= targets - 1;
            let kings = (pos.kings & !from) | to;
            n += count_child::<W>(&quiet_child::<W>(own, opp, from, to, kings), rules, scratch);
        }
    }
    n
}

/// Perft to depth 2 with bulk counting: the children's legal move counts, summed.
#[inline(always)]
pub(crate) fn perft2(
    pos: &Position,
    rules: Rules,
    list: &mut Vec<Move>,
    scratch: &mut Vec<Move>,
) -> u64 {
    match pos.turn {
        Color::White => perft2_c::<true>(pos, rules, list, scratch),
        Color::Black => perft2_c::<false>(pos, rules, list, scratch),
    }
}

/// Appends every legal move of `pos` to `list` (which is not cleared first).
pub fn generate_legal_moves(pos: &Position, rules: Rules, list: &mut Vec<Move>) {
    let capture = match pos.turn {
        Color::White => has_capture_c::<true>(pos),
        Color::Black => has_capture_c::<false>(pos),
    };
    if capture {
        generate_captures(pos, rules, list);
    } else {
        generate_quiet(pos, list);
    }
}

/// The legal moves of `pos` under `rules`.
pub fn legal_moves(pos: &Position, rules: Rules) -> Vec<Move> {
    let mut list = Vec::with_capacity(32);
    generate_legal_moves(pos, rules, &mut list);
    list
}

/// Appends the plain moves (valid as legal moves only when no capture exists).
pub fn generate_quiet(pos: &Position, list: &mut Vec<Move>) {
    match pos.turn {
        Color::White => generate_quiet_c::<true>(pos, list),
        Color::Black => generate_quiet_c::<false>(pos, list),
    }
}

#[inline(always)]
fn generate_quiet_c<const W: bool>(pos: &Position, list: &mut Vec<Move>) {
    let (own, opp) = sides::<W>(pos);
    let occ = own | opp;
    let empty = !occ;
    let men = own & !pos.kings;
    let (d1, d2) = fwd::<W>();
    for d in [d1, d2] {
        let mut targets = shift(men, d) & empty;
        let back = reverse(d);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = NEXT[back][t as usize];
            list.push(Move {
                from,
                to: t,
                len: 0,
                path: [0; MAX_CAPTURES],
                captured: 0,
            });
        }
    }
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        let mut targets =
            slide(s, NW, occ) | slide(s, NE, occ) | slide(s, SW, occ) | slide(s, SE, occ);
        while targets != 0 {
            let t = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            list.push(Move {
                from: s as u8,
                to: t,
                len: 0,
                path: [0; MAX_CAPTURES],
                captured: 0,
            });
        }
    }
}

/// Appends every complete capture sequence of the side to move (deduplicated).
pub fn generate_captures(pos: &Position, rules: Rules, list: &mut Vec<Move>) {
    generate_man_captures(pos, list);
    generate_king_captures(pos, rules, list);
}

/// The side to move's men that have a jump.
#[inline(always)]
fn capturing_men(pos: &Position) -> u32 {
    let us = pos.turn.index();
    let own = pos.pieces[us];
    let opp = pos.pieces[1 - us];
    let (d1, d2) = forward_dirs(pos.turn);
    let empty = !(own | opp);
    let men = own & !pos.kings;
    let can1 = shift(shift(men, d1) & opp, d1) & empty;
    let can2 = shift(shift(men, d2) & opp, d2) & empty;
    men & (shift(shift(can1, reverse(d1)), reverse(d1))
        | shift(shift(can2, reverse(d2)), reverse(d2)))
}

/// Appends the men's capture sequences (a man's sequences never repeat: each captured set
/// fixes its path).
fn generate_man_captures(pos: &Position, list: &mut Vec<Move>) {
    let us = pos.turn.index();
    let own = pos.pieces[us];
    let opp = pos.pieces[1 - us];
    let (d1, d2) = forward_dirs(pos.turn);
    let mut men = capturing_men(pos);
    while men != 0 {
        let s = men.trailing_zeros() as usize;
        men &= men - 1;
        let mut ctx = Ctx {
            from: s as u8,
            others: own & !(1 << s),
            promo: promotion_rank(pos.turn),
            dirs: [d1, d2],
            reverse_ok: true,
            path: [0; MAX_CAPTURES],
            start: list.len(),
            list: &mut *list,
        };
        ctx.man(s, opp, 0, 0);
    }
}

/// Number of the men's capture sequences, without listing them.
fn count_man_captures(pos: &Position) -> u64 {
    match pos.turn {
        Color::White => count_man_captures_c::<true>(pos),
        Color::Black => count_man_captures_c::<false>(pos),
    }
}

#[inline(always)]
fn count_man_captures_c<const W: bool>(pos: &Position) -> u64 {
    let (own, opp) = sides::<W>(pos);
    let empty = !(own | opp);
    let men = own & !pos.kings;
    let (d1, d2) = fwd::<W>();
    let promo = if W {
        Bitboard::RANK_8.0
    } else {
        Bitboard::RANK_1.0
    };
    let mut n = 0;
    for d in [d1, d2] {
        let mut lands = shift(shift(men, d) & opp, d) & empty;
        let back = reverse(d);
        while lands != 0 {
            let t = lands.trailing_zeros() as usize;
            lands &= lands - 1;
            if promo & (1 << t) != 0 {
                n += 1; // promotion ends the move
                continue;
            }
            let mid = NEXT[back][t] & 31;
            let from = NEXT[back][mid as usize] & 31;
            n += count_man_from::<W>(t, own & !(1 << from), opp & !(1 << mid), 1);
        }
    }
    n
}

/// Number of complete sequences of a man on `s` after `depth` jumps (1 if it cannot go on).
#[inline]
fn count_man_from<const W: bool>(s: usize, others: u32, opp: u32, depth: usize) -> u64 {
    let (d1, d2) = fwd::<W>();
    let empty = !(others | opp);
    let b = 1u32 << s;
    let j1 = shift(shift(b, d1) & opp, d1) & empty;
    let j2 = shift(shift(b, d2) & opp, d2) & empty;
    if j1 | j2 == 0 || depth >= MAX_CAPTURES {
        return 1;
    }
    let promo = if W {
        Bitboard::RANK_8.0
    } else {
        Bitboard::RANK_1.0
    };
    let mut n = 0;
    for (d, j) in [(d1, j1), (d2, j2)] {
        if j == 0 {
            continue;
        }
        let land = j.trailing_zeros() as usize;
        if promo & j != 0 {
            n += 1;
        } else {
            let mid = NEXT[d][s] & 31;
            n += count_man_from::<W>(land, others, opp & !(1 << mid), depth + 1);
        }
    }
    n
}

/// Appends the kings' capture sequences (deduplicated per king).
fn generate_king_captures(pos: &Position, rules: Rules, list: &mut Vec<Move>) {
    let us = pos.turn.index();
    let own = pos.pieces[us];
    let opp = pos.pieces[1 - us];
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        let mut ctx = Ctx {
            from: s as u8,
            others: own & !(1 << s),
            promo: 0,
            dirs: [0, 0],
            reverse_ok: rules.king_may_reverse(),
            path: [0; MAX_CAPTURES],
            start: list.len(),
            list: &mut *list,
        };
        ctx.king(s, opp, 0, 0, 4);
    }
}

/// Number of capture moves: men's sequences counted directly, kings' listed in `scratch`
/// to merge duplicates.
fn count_captures(pos: &Position, rules: Rules, scratch: &mut Vec<Move>) -> u64 {
    let mut n = count_man_captures(pos);
    if pos.pieces[pos.turn.index()] & pos.kings != 0 {
        scratch.clear();
        generate_king_captures(pos, rules, scratch);
        n += scratch.len() as u64;
    }
    n
}

/// The state of one piece's capture search.
struct Ctx<'a> {
    from: u8,
    /// The mover's own other pieces (the mover's start square counts as empty).
    others: u32,
    promo: u32,
    dirs: [usize; 2],
    reverse_ok: bool,
    path: [u8; MAX_CAPTURES],
    /// Where this piece's moves begin in `list` (duplicates can only come from one piece).
    start: usize,
    list: &'a mut Vec<Move>,
}

impl Ctx<'_> {
    fn emit(&mut self, to: usize, captured: u32, depth: usize) {
        let to = to as u8;
        if self.list[self.start..]
            .iter()
            .any(|m| m.to == to && m.captured == captured)
        {
            return;
        }
        let mut path = [0u8; MAX_CAPTURES];
        path[..depth].copy_from_slice(&self.path[..depth]);
        self.list.push(Move {
            from: self.from,
            to,
            len: depth as u8,
            path,
            captured,
        });
    }

    /// A man on `s` (after `depth` jumps taking `captured`; `opp` = enemy pieces still on
    /// the board) continues its capture.
    fn man(&mut self, s: usize, opp: u32, captured: u32, depth: usize) {
        let mut jumped = false;
        if depth < MAX_CAPTURES {
            let occ = self.others | opp;
            for d in self.dirs {
                let mid = NEXT[d][s];
                if mid == NONE || opp & (1 << mid) == 0 {
                    continue;
                }
                let land = NEXT[d][mid as usize];
                if land == NONE || occ & (1 << land) != 0 {
                    continue;
                }
                jumped = true;
                self.path[depth] = land;
                let bit = 1u32 << mid;
                if self.promo & (1 << land) != 0 {
                    // Promotion ends the move.
                    self.emit(land as usize, captured | bit, depth + 1);
                } else {
                    self.man(land as usize, opp & !bit, captured | bit, depth + 1);
                }
            }
        }
        if !jumped && depth > 0 {
            self.emit(s, captured, depth);
        }
    }

    /// A king on `s` continues its capture; `last` is the direction of the previous jump
    /// (4 before the first).
    fn king(&mut self, s: usize, opp: u32, captured: u32, depth: usize, last: usize) {
        let mut jumped = false;
        if depth < MAX_CAPTURES {
            let occ = self.others | opp;
            let empty = !occ;
            for d in 0..4 {
                if !self.reverse_ok && last < 4 && d == reverse(last) {
                    continue;
                }
                if let Some((b, land)) = king_jump(s, d, occ, opp, empty) {
                    jumped = true;
                    self.path[depth] = land as u8;
                    let bit = 1u32 << b;
                    self.king(land, opp & !bit, captured | bit, depth + 1, d);
                }
            }
        }
        if !jumped && depth > 0 {
            self.emit(s, captured, depth);
        }
    }
}

impl Position {
    /// The legal moves under `rules`.
    pub fn legal_moves(&self, rules: Rules) -> Vec<Move> {
        legal_moves(self, rules)
    }

    /// Number of legal moves under `rules`.
    pub fn count_legal_moves(&self, rules: Rules) -> u64 {
        count_legal_moves(self, rules)
    }

    /// Whether the side to move must capture.
    pub fn has_capture(&self) -> bool {
        has_capture(self)
    }

    /// Whether `mv` is legal here under `rules`; returns the legal move (with its path).
    pub fn find_legal(&self, rules: Rules, mv: &Move) -> Option<Move> {
        self.legal_moves(rules).into_iter().find(|m| m == mv)
    }
}
