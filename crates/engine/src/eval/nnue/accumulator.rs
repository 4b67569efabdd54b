//! The accumulators: each perspective's hidden units before the clipped
//! ReLU, the feature biases plus the weights of every feature that is on.
//! A move changes only a few features, so the accumulators of the
//! position after it are those before it plus and minus a few rows of
//! weights; only a khun move into another bucket or half of the board
//! recomputes its own side's from scratch.

use super::features::{MAX_ACTIVE, View};
use super::network::{HIDDEN, Network};
use super::simd::{self, Kernel};
use makruk::{Color, Move, Position, Role};

/// Both perspectives' hidden units, indexed by colour.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// White's view, then Black's.
    pub units: [[i16; HIDDEN]; 2],
    /// The view each perspective's units were computed in.
    views: [View; 2],
}

impl std::fmt::Debug for Accumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Accumulator({:?}, ...)", &self.units[0][..4])
    }
}

impl Accumulator {
    /// Both perspectives computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            units: [[0; HIDDEN]; 2],
            views: [View::of(pos, Color::White), View::of(pos, Color::Black)],
        };
        for color in Color::ALL {
            acc.refresh_side(net, pos, color);
        }
        acc
    }

    fn refresh_side(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let kernel = simd::kernel();
        let view = View::of(pos, perspective);
        let units = &mut self.units[perspective.index()];
        units.copy_from_slice(&net.feature_biases);
        // Rows are added in batches of up to MAX_ACTIVE (one batch for any
        // legal position), without allocating.
        let mut rows: [&[i16]; MAX_ACTIVE] = [&[]; MAX_ACTIVE];
        let mut n = 0;
        let flush = |rows: &[&[i16]], units: &mut [i16; HIDDEN]| {
            let before = *units;
            simd::update(kernel, units, &before, rows, &[]);
        };
        view.each_active(pos, |f| {
            rows[n] = net.feature_row(f);
            n += 1;
            if n == MAX_ACTIVE {
                flush(&rows, units);
                n = 0;
            }
        });
        flush(&rows[..n], units);
        self.views[perspective.index()] = view;
    }

    /// The accumulators after the legal move `m` from `before`, which gives
    /// `after`.
    pub fn played(&self, net: &Network, before: &Position, m: Move, after: &Position) -> Self {
        let kernel = simd::kernel();
        let us = before.turn();
        let (from, to) = (m.from(), m.to());
        let role = before.role_at(from).unwrap_or(Role::Pawn);
        let new_role = if m.is_promotion() { Role::Met } else { role };
        let captured = before.role_at(to);
        let mut next = Accumulator {
            units: [[0; HIDDEN]; 2],
            views: self.views,
        };
        for perspective in Color::ALL {
            let p = perspective.index();
            if role == Role::King && perspective == us && View::of(after, us) != self.views[p] {
                next.refresh_side(net, after, us);
                continue;
            }
            let view = self.views[p];
            let add = net.feature_row(view.feature(us, new_role, to));
            let sub = net.feature_row(view.feature(us, role, from));
            match captured {
                Some(c) => {
                    let taken = net.feature_row(view.feature(us.other(), c, to));
                    simd::update(
                        kernel,
                        &mut next.units[p],
                        &self.units[p],
                        &[add],
                        &[sub, taken],
                    );
                }
                None => simd::update(kernel, &mut next.units[p], &self.units[p], &[add], &[sub]),
            }
        }
        next
    }

    /// The network's score of `pos` (whose accumulators these are) in
    /// centipawns from the side to move's view, before the rules'
    /// corrections.
    pub fn evaluate(&self, net: &Network, pos: &Position, kernel: Kernel) -> i32 {
        let us = pos.turn().index();
        let bucket = super::features::output_bucket(pos.occupied().count());
        net.output(kernel, &self.units[us], &self.units[1 - us], bucket)
    }
}
