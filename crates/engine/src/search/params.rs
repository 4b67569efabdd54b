//! Every margin, reduction and pruning threshold of the search, in one
//! place. Depths are in plies; margins in the evaluation's units
//! (centipawns, Mak-hot centi-men). A change here changes the engine's
//! play: check `thaiboard bench` node counts move only when meant to.
//!
//! The numbers worth tuning are [`SearchParams`]' fields, listed with their
//! ranges in [`SEARCH_TUNABLES`]: a search reads them from its
//! [`SearchOptions`](super::SearchOptions), `setoption` changes them by
//! name, and `thaiboard tune spsa` tunes them. The rest are constants.

use super::score::MAX_PLY;

/// The bound of every history score (from-to and continuation).
pub(super) const HISTORY_MAX: i32 = 16384;

/// The stop flag and the clock are polled once per this many nodes (a
/// power of two).
pub(super) const STOP_POLL_NODES: u64 = 512;

/// Checks are extended by one ply only this far from the root, so check
/// chains cannot run the line past [`MAX_PLY`].
pub(super) const CHECK_EXTENSION_MAX_PLY: usize = MAX_PLY / 2;

// Step 3b. Endgame tables.

/// The depth a table's exact value is stored with in the transposition
/// table: deeper than any search reaches, since no search improves on it.
pub(super) const TABLE_HIT_DEPTH: i32 = MAX_PLY as i32 - 1;

/// One search parameter open to tuning: its UCI option name, default,
/// bounds, and the perturbation an SPSA run ends with (`c_end`, in the
/// parameter's units; about a twentieth of its range).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchTunable {
    /// The option name (`setoption name NAME value N`).
    pub name: &'static str,
    /// The value the engine plays with.
    pub default: i32,
    /// The least value accepted.
    pub min: i32,
    /// The greatest value accepted.
    pub max: i32,
    /// SPSA's final perturbation.
    pub c_end: f64,
}

/// Declares [`SearchParams`], its defaults and [`SEARCH_TUNABLES`] from one list,
/// so a field, its option name and its range cannot drift apart.
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $field:ident: $name:literal = $default:literal,
       $min:literal..=$max:literal, c_end $c:literal;)*) => {
        /// The search's tunable numbers (see [`SEARCH_TUNABLES`] for their option
        /// names and ranges); [`SearchParams::default`] is what the engine
        /// plays with.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        /// Every tunable parameter, in [`SearchParams`]' field order.
        pub const SEARCH_TUNABLES: &[SearchTunable] = &[$(SearchTunable {
            name: $name,
            default: $default,
            min: $min,
            max: $max,
            c_end: $c,
        }),*];

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $($field: $default),* }
            }
        }

        impl SearchParams {
            /// The fields, in [`SEARCH_TUNABLES`]' order.
            fn slots(&mut self) -> Vec<&mut i32> {
                vec![$(&mut self.$field),*]
            }

            /// The values, in [`SEARCH_TUNABLES`]' order.
            pub fn values(&self) -> Vec<i32> {
                vec![$(self.$field),*]
            }
        }
    };
}

tunables! {
    /// Reverse futility margin per ply of depth.
    rfp_margin: "RFPMargin" = 100, 40..=250, c_end 10.0;
    /// Razoring margin per ply of depth ...
    razor_depth: "RazorDepth" = 250, 80..=500, c_end 20.0;
    /// ... and its constant part.
    razor_base: "RazorBase" = 150, 0..=400, c_end 20.0;
    /// How far below beta per ply the static evaluation may be for a null
    /// move.
    nmp_eval_margin: "NMPEvalMargin" = 20, 0..=60, c_end 4.0;
    /// The evaluation's lead over beta worth one more ply of null-move
    /// reduction.
    nmp_divisor: "NMPDivisor" = 200, 60..=500, c_end 20.0;
    /// Singular margin per ply of depth, in sixteenths.
    se_margin: "SEMargin" = 32, 8..=96, c_end 4.0;
    /// Late-move pruning's constant (quiet moves from `(c + depth²) / 2`).
    lmp_base: "LMPBase" = 3, 0..=12, c_end 1.0;
    /// Futility margin's constant ...
    futility_base: "FutilityBase" = 100, 20..=300, c_end 10.0;
    /// ... and per ply of reduced depth.
    futility_depth: "FutilityDepth" = 100, 30..=300, c_end 10.0;
    /// History below minus this per ply prunes a quiet move.
    history_prune: "HistoryPrune" = 3000, 500..=9000, c_end 300.0;
    /// Exchange loss a quiet move may risk, per square of reduced depth.
    see_quiet: "SEEQuiet" = 25, 5..=80, c_end 3.0;
    /// Exchange loss a tactical move may risk, per ply of depth.
    see_tactical: "SEETactical" = 100, 20..=250, c_end 10.0;
    /// Late-move reduction's constant, in hundredths of a ply.
    lmr_base: "LMRBase" = 50, -50..=150, c_end 8.0;
    /// Late-move reduction's divisor of `ln(depth) ln(index)`, in
    /// hundredths.
    lmr_divisor: "LMRDivisor" = 225, 120..=400, c_end 12.0;
    /// History worth one ply less (or more) of reduction.
    lmr_history: "LMRHistory" = 6000, 2000..=16000, c_end 500.0;
    /// History bonus per ply of depth ...
    history_bonus_mul: "HistoryBonusMul" = 170, 50..=400, c_end 15.0;
    /// ... less this ...
    history_bonus_sub: "HistoryBonusSub" = 120, 0..=400, c_end 20.0;
    /// ... and at most this.
    history_bonus_max: "HistoryBonusMax" = 1600, 400..=4000, c_end 150.0;
    /// The first aspiration window either side of the last score.
    aspiration_delta: "AspirationDelta" = 30, 8..=100, c_end 4.0;
    /// How much of what the correction history learnt is added to the
    /// static evaluation, in percent (100, the default: Stockfish's
    /// proportions, accepted by an SPRT in
    /// `docs/src/results/2026-11-search-changes.md`). 0 keeps no correction.
    correction_scale: "CorrectionScale" = 100, 0..=200, c_end 10.0;
    /// How much of its histories (move order and the evaluation's
    /// correction) a search hands to the next search of the game, in
    /// percent: 100, the default (accepted by an SPRT in
    /// `docs/src/results/2026-11-search-changes.md`), keeps them whole; 0
    /// starts every search afresh.
    history_carry: "HistoryCarry" = 100, 0..=100, c_end 8.0;
    /// Plies more of late-move reduction in a cut node (a null-window node
    /// expected to fail high); 0, the default while it is under test,
    /// reduces cut nodes as any other.
    cut_node_reduction: "CutNodeReduction" = 0, 0..=3, c_end 0.5;
    /// How much the capture history (captures and promotions by moving
    /// piece, destination and captured kind, rewarded at cutoffs) weighs in
    /// the order of tactical moves within their tier, in percent: at 100 a
    /// full history is worth half a step of the captured piece's value. 0,
    /// the default while it is under test, orders them by MVV-LVA alone.
    capture_history: "CaptureHistory" = 0, 0..=200, c_end 10.0;
    /// Plies more of late-move reduction for the quiet moves of a node whose
    /// stored move is tactical (Stockfish's `ttCapture`); 0, the default
    /// while it is under test, reduces them as any other.
    tt_capture_reduction: "TTCaptureReduction" = 0, 0..=2, c_end 0.5;
    /// How far above beta a capture must score for ProbCut to fail the
    /// node high on its shallow search; 0, the default while it is under
    /// test, tries no ProbCut.
    probcut_margin: "ProbCutMargin" = 0, 0..=500, c_end 20.0;
    /// Quiescence skips a capture (not a check) whose exchange cannot bring
    /// the stand-pat score plus this margin above alpha; 0, the default
    /// while it is under test, skips none.
    qs_futility: "QSFutility" = 0, 0..=400, c_end 15.0;
    /// How far a reduced move's null-window score must rise above the best
    /// score so far (and 10 more per ply of reduction) for its full-depth
    /// search to go a ply deeper; one that hardly beats the best score is
    /// searched a ply shallower instead (Stockfish's `doDeeperSearch` and
    /// `doShallowerSearch`). 0, the default while it is under test,
    /// searches it again at the full depth.
    lmr_research_margin: "LMRResearchMargin" = 0, 0..=200, c_end 8.0;
}

impl SearchParams {
    /// The parameter named `name` (any case) set to `value`; an unknown
    /// name or a value outside its range is refused with the reason.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let i = search_tunable_index(name).ok_or_else(|| format!("no search parameter {name}"))?;
        let t = &SEARCH_TUNABLES[i];
        if !(t.min..=t.max).contains(&value) {
            return Err(format!(
                "{} must be from {} to {} (got {value})",
                t.name, t.min, t.max
            ));
        }
        *self.slots().swap_remove(i) = value;
        Ok(())
    }

    /// The value of the parameter named `name` (any case).
    pub fn get(&self, name: &str) -> Option<i32> {
        search_tunable_index(name).map(|i| self.values()[i])
    }

    // Step 5. Pruning before the moves.

    /// How far the static evaluation must exceed beta for reverse futility
    /// pruning to return it: less when the position is improving.
    pub(super) fn reverse_futility_margin(&self, depth: i32, improving: bool) -> i32 {
        self.rfp_margin * (depth - i32::from(improving))
    }

    /// How far the static evaluation must fall below alpha for razoring to
    /// try quiescence instead of a full search.
    pub(super) fn razor_margin(&self, depth: i32) -> i32 {
        self.razor_depth * depth + self.razor_base
    }

    /// How far below beta the unsharpened static evaluation may be for a
    /// null move to be tried.
    pub(super) fn null_move_eval_margin(&self, depth: i32) -> i32 {
        self.nmp_eval_margin * depth
    }

    /// How much shallower the null move's reply is searched: more at depth
    /// and the further the evaluation is above beta.
    pub(super) fn null_move_reduction(&self, depth: i32, eval_above_beta: i32) -> i32 {
        3 + depth / 4 + (eval_above_beta / self.nmp_divisor.max(1)).min(3)
    }

    // Step 7. Singular extension.

    /// How far below the stored score every other move must stay for the
    /// stored move to count as singular.
    pub(super) fn singular_margin(&self, depth: i32) -> i32 {
        self.se_margin * depth / 16
    }

    // Step 9. Pruning inside the move loop.

    /// Late-move pruning: quiet moves from this index on are skipped (fewer
    /// when the position is not improving).
    pub(super) fn late_move_count(&self, depth: i32, improving: bool) -> i32 {
        (self.lmp_base + depth * depth) / (2 - i32::from(improving))
    }

    /// How far above the static evaluation alpha may be for a quiet move to
    /// be searched at the reduced depth `lmr_depth`.
    pub(super) fn futility_margin(&self, lmr_depth: i32) -> i32 {
        self.futility_base + self.futility_depth * lmr_depth
    }

    /// The history score below which a quiet move is pruned at `depth`.
    pub(super) fn history_pruning_threshold(&self, depth: i32) -> i32 {
        -self.history_prune * depth
    }

    /// The least exchange result a quiet move must keep at the reduced
    /// depth `lmr_depth`.
    pub(super) fn see_quiet_threshold(&self, lmr_depth: i32) -> i32 {
        -self.see_quiet * lmr_depth * lmr_depth
    }

    /// The least exchange result a tactical move must keep at `depth`.
    pub(super) fn see_tactical_threshold(&self, depth: i32) -> i32 {
        -self.see_tactical * depth
    }

    // Late-move reductions.

    /// The base late-move reduction by depth and move index (both capped at
    /// 63): `base + ln(depth) ln(index) / divisor`, rounded down.
    pub(super) fn lmr_table(&self) -> Vec<[i32; 64]> {
        let base = f64::from(self.lmr_base) / 100.0;
        let divisor = f64::from(self.lmr_divisor.max(1)) / 100.0;
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (i as f64).ln() / divisor)
                    .floor()
                    .max(0.0) as i32;
            }
        }
        lmr
    }

    /// The depth a reduced move searched at `reduced` (null window) is
    /// searched again at once it beat alpha with `score`, where `new_depth`
    /// is its unreduced depth and `best` the node's best score before it:
    /// a ply deeper when the score rises far above `best`, a ply shallower
    /// when it hardly beats it (`LMRResearchMargin`; at 0, `new_depth`).
    pub(super) fn research_depth(
        &self,
        new_depth: i32,
        reduced: i32,
        score: i32,
        best: i32,
    ) -> i32 {
        let margin = self.lmr_research_margin;
        if margin == 0 {
            return new_depth;
        }
        if score > best.saturating_add(margin + 10 * (new_depth - reduced)) {
            new_depth + 1
        } else if score < best.saturating_add(new_depth) {
            new_depth - 1
        } else {
            new_depth
        }
    }

    // History.

    /// The history bonus of the quiet move that caused a cutoff at `depth`
    /// (and the malus of the quiet moves tried before it).
    pub(super) fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_mul * depth - self.history_bonus_sub).clamp(0, self.history_bonus_max)
    }
}

/// The index in [`SEARCH_TUNABLES`] of the parameter named `name` (any case).
pub fn search_tunable_index(name: &str) -> Option<usize> {
    SEARCH_TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

// Step 5. Pruning before the moves.

/// Reverse futility pruning applies up to this depth.
pub(super) const REVERSE_FUTILITY_MAX_DEPTH: i32 = 6;

/// Razoring applies up to this depth.
pub(super) const RAZOR_MAX_DEPTH: i32 = 2;

/// Null-move pruning needs at least this depth.
pub(super) const NULL_MOVE_MIN_DEPTH: i32 = 3;

/// ProbCut is tried from this depth on ...
pub(super) const PROBCUT_MIN_DEPTH: i32 = 5;

/// ... and its captures are searched this many plies shallower than the
/// node (their result stored one ply deeper than that).
pub(super) const PROBCUT_REDUCTION: i32 = 4;

// Step 6. Internal iterative reduction.

/// Nodes without a stored move lose a ply from this depth on.
pub(super) const IIR_MIN_DEPTH: i32 = 4;

// Step 7. Singular extension.

/// Singular extension is tried from this depth on.
pub(super) const SINGULAR_MIN_DEPTH: i32 = 7;

/// The stored entry may be this many plies shallower than the node and
/// still be trusted for singular extension.
pub(super) const SINGULAR_TT_DEPTH_SLACK: i32 = 3;

/// The depth of the search of the other moves that decides singularity.
pub(super) fn singular_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}

// Step 9. Pruning inside the move loop.

/// Futility pruning of quiet moves applies up to this reduced depth.
pub(super) const FUTILITY_MAX_DEPTH: i32 = 6;

/// Quiet moves with a bad history are pruned up to this reduced depth.
pub(super) const HISTORY_PRUNING_MAX_DEPTH: i32 = 3;

/// Quiet moves that lose material by exchange are pruned up to this
/// reduced depth.
pub(super) const SEE_QUIET_MAX_DEPTH: i32 = 7;

/// Tactical moves that lose material by exchange are pruned up to this
/// depth.
pub(super) const SEE_TACTICAL_MAX_DEPTH: i32 = 6;

// Late-move reductions.

/// Late moves are reduced from this depth on.
pub(super) const LMR_MIN_DEPTH: i32 = 3;

/// The most plies history moves a reduction, either way.
pub(super) const LMR_HISTORY_MAX_PLIES: i32 = 2;

// History.

/// At most this many quiet moves, and as many tactical ones, tried before a
/// cutoff get the malus.
pub(super) const MAX_TRIED_QUIETS: usize = 64;

// Correction history.

/// The correction table has `2 << CORRECTION_BITS` entries (both sides to move).
pub(super) const CORRECTION_BITS: u32 = 14;

/// The bound of a correction entry, in `1 / CORRECTION_GRAIN` of the
/// evaluation's unit (so at most 32 centipawns).
pub(super) const CORRECTION_MAX: i32 = 1024;

/// A correction entry's unit: this many make one centipawn.
pub(super) const CORRECTION_GRAIN: i32 = 32;

/// A node `depth` plies deep with its score `error` from its evaluation moves its
/// entry by `error * depth / CORRECTION_DEPTH_DIVISOR` (at most a quarter of the bound).
pub(super) const CORRECTION_DEPTH_DIVISOR: i32 = 8;

// Quiescence.

/// Check evasions in quiescence stop at the evaluation after this many
/// quiescence plies.
pub(super) const QS_MAX_EVASION_PLIES: u32 = 6;

// Root: aspiration windows and time.

/// Aspiration windows start from this iteration.
pub(super) const ASPIRATION_MIN_DEPTH: u32 = 5;

/// A window side that fails is doubled; past this width it opens fully.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 400;

/// After this many iterations with the same best move the soft time limit
/// shrinks by [`STABLE_TIME_FACTOR`].
pub(super) const STABLE_ITERATIONS: u32 = 6;

/// The soft time limit's factor once the best move is stable.
pub(super) const STABLE_TIME_FACTOR: f64 = 0.7;

/// The soft time limit grows by this share per (decaying) change of the
/// best move.
pub(super) const INSTABILITY_TIME_SHARE: f64 = 0.3;

/// The share of the best-move instability kept from one iteration to the
/// next.
pub(super) const INSTABILITY_DECAY: f64 = 0.6;

/// A falling score counts up to this drop from the last iteration ...
pub(super) const FALLING_SCORE_MAX: i32 = 100;

/// ... and stretches the soft time limit by the drop over this.
pub(super) const FALLING_SCORE_DIVISOR: f64 = 200.0;

/// The soft time limit's factor stays within these bounds.
pub(super) const SOFT_TIME_SCALE: (f64, f64) = (0.5, 2.5);

/// With a single legal move, a timed search stops at this depth.
pub(super) const SINGLE_MOVE_DEPTH: u32 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        let defaults = SearchParams::default().values();
        assert_eq!(defaults.len(), SEARCH_TUNABLES.len());
        for (i, t) in SEARCH_TUNABLES.iter().enumerate() {
            assert_eq!(defaults[i], t.default, "{}", t.name);
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(
                t.c_end > 0.0 && t.c_end < f64::from(t.max - t.min),
                "{}",
                t.name
            );
            assert_eq!(search_tunable_index(&t.name.to_lowercase()), Some(i));
            assert!(!t.name.contains(' '), "{}", t.name);
        }
    }

    #[test]
    fn set_changes_one_field_and_refuses_what_is_out_of_range() {
        let mut p = SearchParams::default();
        p.set("lmrdivisor", 300).unwrap();
        assert_eq!(p.lmr_divisor, 300);
        assert_eq!(p.get("LMRDivisor"), Some(300));
        let q = SearchParams {
            lmr_divisor: 300,
            ..SearchParams::default()
        };
        assert_eq!(p, q, "only that field moved");
        let err = p.set("LMRDivisor", 100).unwrap_err();
        assert!(err.contains("from 120 to 400"), "{err}");
        assert!(p.set("NoSuch", 1).unwrap_err().contains("NoSuch"));
        assert_eq!(p.lmr_divisor, 300);
    }

    #[test]
    fn a_research_goes_deeper_or_shallower_only_when_the_margin_is_set() {
        let off = SearchParams::default();
        for score in [-500, 0, 10, 500] {
            assert_eq!(off.research_depth(8, 5, score, 0), 8, "score {score}");
        }
        let on = SearchParams {
            lmr_research_margin: 50,
            ..SearchParams::default()
        };
        // Reduced by 3 plies: deeper past best + 50 + 30.
        assert_eq!(on.research_depth(8, 5, 81, 0), 9);
        assert_eq!(on.research_depth(8, 5, 80, 0), 8);
        // Shallower when it beats the best by less than the depth.
        assert_eq!(on.research_depth(8, 5, 7, 0), 7);
        assert_eq!(on.research_depth(8, 5, 8, 0), 8);
        // Relative to the best score, and no overflow from none yet.
        assert_eq!(on.research_depth(8, 5, 1081, 1000), 9);
        assert_eq!(on.research_depth(8, 5, 0, i32::MIN + 1), 9);
    }

    #[test]
    fn the_default_reduction_table_is_the_formula_it_replaced() {
        let t = SearchParams::default().lmr_table();
        for (d, row) in t.iter().enumerate().skip(1) {
            for (i, &r) in row.iter().enumerate().skip(1) {
                let old = (0.5 + (d as f64).ln() * (i as f64).ln() / 2.25) as i32;
                assert_eq!(r, old, "depth {d} index {i}");
            }
        }
    }
}
