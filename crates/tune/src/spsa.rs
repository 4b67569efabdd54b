//! SPSA (simultaneous perturbation stochastic approximation) of engine
//! parameters from game results, with fishtest's schedule: every step
//! moves all parameters at once, by a random sign each, plays the engine
//! with `θ + c·Δ` against the engine with `θ − c·Δ`, and moves `θ` toward
//! the side that scored better.
//!
//! This module is the pure part: the parameter list, the schedule, the
//! perturbation of each step and the update. `thaiboard tune spsa` plays
//! the games (with the `arena` crate) and keeps the state in a file, so a
//! stopped run continues where it was.
//!
//! With `N` game pairs in all, pair `k` (from 0) perturbs parameter `i` by
//! `c_k = c_end·N^γ / (k+1)^γ` and updates it by
//! `R_k·c_k·(wins − losses)·Δ_i`, where `R_k = a_k / c_k²`,
//! `a_k = r_end·c_end²·(A+N)^α / (A+k+1)^α` and `A = N / 10`
//! (`α = 0.602`, `γ = 0.101`). At the end `c_k = c_end` and `R_k = r_end`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The exponent of the step size's decay.
const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;
/// `A` as a share of the run's pairs.
const A_SHARE: f64 = 0.1;
/// fishtest's usual `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;

/// One parameter of a run: its UCI option name, start, bounds, final
/// perturbation `c_end` and final learning rate `r_end`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    /// The UCI option name.
    pub name: String,
    /// The value the run starts from.
    pub start: f64,
    /// The least value.
    pub min: f64,
    /// The greatest value.
    pub max: f64,
    /// The perturbation at the end of the run.
    pub c_end: f64,
    /// The learning rate at the end of the run.
    pub r_end: f64,
}

/// Reads parameters in fishtest's form, one a line:
/// `NAME,int,VALUE,MIN,MAX,C_END,R_END` (blank lines and `#` comments
/// skipped). An error names the line and what is wrong with it.
pub fn parse_params(text: &str) -> Result<Vec<SpsaParam>, String> {
    let mut params: Vec<SpsaParam> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| format!("line {}: {what}", n + 1);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(at(format!(
                "expected NAME,int,VALUE,MIN,MAX,C_END,R_END (7 fields), got {}",
                fields.len()
            )));
        }
        if fields[0].is_empty() {
            return Err(at("the name is empty".into()));
        }
        if fields[1] != "int" {
            return Err(at(format!("type '{}' unknown (int)", fields[1])));
        }
        let mut numbers = [0.0; 5];
        for (slot, (field, what)) in numbers.iter_mut().zip(
            fields[2..]
                .iter()
                .zip(["VALUE", "MIN", "MAX", "C_END", "R_END"]),
        ) {
            *slot = field
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(format!("{what} '{field}' is not a number")))?;
        }
        let [start, min, max, c_end, r_end] = numbers;
        if !(min <= start && start <= max) {
            return Err(at(format!("VALUE {start} is not within {min}..{max}")));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(at("C_END and R_END must be positive".into()));
        }
        if params
            .iter()
            .any(|p| p.name.eq_ignore_ascii_case(fields[0]))
        {
            return Err(at(format!("{} is given twice", fields[0])));
        }
        params.push(SpsaParam {
            name: fields[0].to_string(),
            start,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if params.is_empty() {
        return Err("no parameters".into());
    }
    Ok(params)
}

/// The engine's own search parameters ([`engine::SEARCH_TUNABLES`]) as a
/// run's parameters, from their defaults, with fishtest's usual `r_end`.
pub fn engine_params() -> Vec<SpsaParam> {
    engine::SEARCH_TUNABLES
        .iter()
        .map(|t| SpsaParam {
            name: t.name.to_string(),
            start: f64::from(t.default),
            min: f64::from(t.min),
            max: f64::from(t.max),
            c_end: t.c_end,
            r_end: DEFAULT_R_END,
        })
        .collect()
}

/// The parameters in the form [`parse_params`] reads.
pub fn format_params(params: &[SpsaParam]) -> String {
    params
        .iter()
        .map(|p| {
            format!(
                "{},int,{},{},{},{},{}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            )
        })
        .collect()
}

/// What one step plays: the pair number it starts at, each parameter's
/// sign, the values of the `+` engine and of the `−` engine, and each
/// parameter's `c_k` and `R_k`.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The run's pairs played before this step (`k`).
    pub k: u64,
    /// `Δ_i`: +1 or −1.
    pub signs: Vec<i8>,
    /// The `+` engine's values (rounded, within bounds).
    pub plus: Vec<i32>,
    /// The `−` engine's values.
    pub minus: Vec<i32>,
    c: Vec<f64>,
    r: Vec<f64>,
}

/// A run: its parameters, where `θ` is, how far the schedule has gone, and
/// the games so far (scored for the `+` engine).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    /// The parameters, as the run began.
    pub params: Vec<SpsaParam>,
    /// The current values (not rounded).
    pub theta: Vec<f64>,
    /// The game pairs the schedule spans (`N`).
    pub pairs_total: u64,
    /// The pairs played so far (`k`).
    pub pairs_done: u64,
    /// The seed of the signs.
    pub seed: u64,
    /// The `+` engine's wins so far.
    pub wins: u64,
    /// The `+` engine's losses so far.
    pub losses: u64,
    /// Draws so far.
    pub draws: u64,
    /// How the run's games are played (the driver's words: time control,
    /// openings, ...), so that a continued run plays the same games.
    #[serde(default)]
    pub games: String,
}

impl Spsa {
    /// A run of `pairs_total` game pairs from the parameters' start values.
    pub fn new(params: Vec<SpsaParam>, pairs_total: u64, seed: u64) -> Result<Spsa, String> {
        if pairs_total == 0 {
            return Err("a run needs at least one pair".into());
        }
        if params.is_empty() {
            return Err("no parameters".into());
        }
        Ok(Spsa {
            theta: params.iter().map(|p| p.start).collect(),
            params,
            pairs_total,
            pairs_done: 0,
            seed,
            wins: 0,
            losses: 0,
            draws: 0,
            games: String::new(),
        })
    }

    /// Whether every pair of the schedule has been played.
    pub fn finished(&self) -> bool {
        self.pairs_done >= self.pairs_total
    }

    /// The current values, rounded and within bounds.
    pub fn values(&self) -> Vec<i32> {
        self.params
            .iter()
            .zip(&self.theta)
            .map(|(p, &t)| t.clamp(p.min, p.max).round() as i32)
            .collect()
    }

    /// The next step's perturbation; the signs depend only on the seed and
    /// the pairs played, so a resumed run plays the step it stopped in.
    pub fn step(&self) -> Step {
        let n = self.pairs_total as f64;
        let k = self.pairs_done as f64;
        let big_a = A_SHARE * n;
        let mut rng =
            StdRng::seed_from_u64(self.seed ^ self.pairs_done.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut step = Step {
            k: self.pairs_done,
            signs: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
            c: Vec::new(),
            r: Vec::new(),
        };
        for (p, &theta) in self.params.iter().zip(&self.theta) {
            let c = p.c_end * n.powf(GAMMA) / (k + 1.0).powf(GAMMA);
            let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA)
                / (big_a + k + 1.0).powf(ALPHA);
            let sign: i8 = if rng.random::<bool>() { 1 } else { -1 };
            let shifted = |s: f64| (theta + s * c).clamp(p.min, p.max).round() as i32;
            step.plus.push(shifted(f64::from(sign)));
            step.minus.push(shifted(-f64::from(sign)));
            step.signs.push(sign);
            step.r.push(a / (c * c));
            step.c.push(c);
        }
        step
    }

    /// Moves `θ` by the results of `step`'s `pairs` game pairs (`wins`,
    /// `losses` and `draws` of the `+` engine), keeps it within bounds and
    /// advances the schedule. A step of other pairs than the run's next is
    /// refused.
    pub fn apply(&mut self, step: &Step, wins: u64, losses: u64, draws: u64) -> Result<(), String> {
        if step.k != self.pairs_done {
            return Err(format!(
                "the step starts at pair {}, the run is at pair {}",
                step.k, self.pairs_done
            ));
        }
        let games = wins + losses + draws;
        if games == 0 || games % 2 != 0 {
            return Err(format!("a step plays whole pairs of games, not {games}"));
        }
        let result = wins as f64 - losses as f64;
        for (i, p) in self.params.iter().enumerate() {
            let moved = self.theta[i] + step.r[i] * step.c[i] * result * f64::from(step.signs[i]);
            self.theta[i] = moved.clamp(p.min, p.max);
        }
        self.pairs_done += games / 2;
        self.wins += wins;
        self.losses += losses;
        self.draws += draws;
        Ok(())
    }

    /// Whether `params` are this run's (same names, bounds and rates), so
    /// a resumed run is the run that was stopped.
    pub fn same_params(&self, params: &[SpsaParam]) -> Result<(), String> {
        if self.params.len() != params.len()
            || self.params.iter().zip(params).any(|(a, b)| {
                !a.name.eq_ignore_ascii_case(&b.name)
                    || (a.min, a.max, a.c_end, a.r_end) != (b.min, b.max, b.c_end, b.r_end)
            })
        {
            return Err("the parameters differ from the stopped run's".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, start: f64) -> SpsaParam {
        SpsaParam {
            name: name.into(),
            start,
            min: 0.0,
            max: 200.0,
            c_end: 10.0,
            r_end: DEFAULT_R_END,
        }
    }

    #[test]
    fn the_fishtest_form_round_trips_and_errors_name_the_line() {
        let text = "# comment\nA,int,100,0,200,10,0.002\n\nB,int,5,0,12,1,0.002\n";
        let params = parse_params(text).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(params[1].max, 12.0);
        assert_eq!(parse_params(&format_params(&params)).unwrap(), params);
        let e = parse_params("A,int,100,0,200,10,0.002\nB,int,5,0,12,1\n").unwrap_err();
        assert!(e.starts_with("line 2:") && e.contains("7 fields"), "{e}");
        let e = parse_params("A,int,300,0,200,10,0.002").unwrap_err();
        assert!(e.contains("not within"), "{e}");
        let e = parse_params("A,float,1,0,2,1,0.002").unwrap_err();
        assert!(e.contains("float"), "{e}");
        let e = parse_params("A,int,x,0,2,1,0.002").unwrap_err();
        assert!(e.contains("VALUE 'x'"), "{e}");
        let e = parse_params("A,int,1,0,2,1,0.002\na,int,1,0,2,1,0.002").unwrap_err();
        assert!(e.contains("twice"), "{e}");
        assert!(parse_params("# nothing\n").is_err());
    }

    #[test]
    fn the_engine_parameters_read_back() {
        let params = engine_params();
        assert_eq!(params.len(), engine::SEARCH_TUNABLES.len());
        assert_eq!(parse_params(&format_params(&params)).unwrap(), params);
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let mut run = Spsa::new(vec![param("A", 100.0)], 100, 7).unwrap();
        let first = run.step();
        assert!(first.c[0] > 10.0, "the perturbation starts wider");
        run.pairs_done = 99;
        let last = run.step();
        assert!((last.c[0] - 10.0).abs() < 1e-9, "{}", last.c[0]);
        assert!((last.r[0] - DEFAULT_R_END).abs() < 1e-12, "{}", last.r[0]);
        assert_eq!(
            (last.plus[0] - last.minus[0]).abs(),
            20,
            "θ ± c_end, rounded"
        );
    }

    #[test]
    fn theta_moves_toward_the_side_that_wins() {
        // The `+` engine always wins: every parameter moves in its sign's
        // direction, by R·c per pair won.
        let mut run = Spsa::new(vec![param("A", 100.0), param("B", 100.0)], 1000, 3).unwrap();
        let step = run.step();
        run.apply(&step, 2, 0, 0).unwrap();
        for i in 0..2 {
            let moved = run.theta[i] - 100.0;
            assert!(moved * f64::from(step.signs[i]) > 0.0, "{moved}");
            assert!((moved.abs() - 2.0 * step.r[i] * step.c[i]).abs() < 1e-9);
        }
        assert_eq!(run.pairs_done, 1);
        // A level result leaves θ where it was.
        let before = run.theta.clone();
        let step = run.step();
        run.apply(&step, 1, 1, 2).unwrap();
        assert_eq!(run.theta, before);
        assert_eq!(
            (run.wins, run.losses, run.draws, run.pairs_done),
            (3, 1, 2, 3)
        );
    }

    #[test]
    fn a_run_stays_within_bounds_and_learns_a_hidden_optimum() {
        // A noiseless toy: the `+` engine wins a pair when it is nearer 150
        // than the `−` engine, loses it when farther. θ starts at 100 and
        // must climb toward 150 without leaving 0..200.
        let mut run = Spsa::new(vec![param("A", 100.0)], 2000, 11).unwrap();
        while !run.finished() {
            let step = run.step();
            let d = |v: i32| (f64::from(v) - 150.0).abs();
            let (w, l) = match d(step.plus[0]).total_cmp(&d(step.minus[0])) {
                std::cmp::Ordering::Less => (2, 0),
                std::cmp::Ordering::Greater => (0, 2),
                std::cmp::Ordering::Equal => (1, 1),
            };
            run.apply(&step, w, l, 0).unwrap();
            assert!((0.0..=200.0).contains(&run.theta[0]));
        }
        assert!((run.theta[0] - 150.0).abs() < 15.0, "{}", run.theta[0]);
    }

    #[test]
    fn steps_are_reproducible_and_stale_ones_refused() {
        let run = Spsa::new(vec![param("A", 100.0), param("B", 50.0)], 500, 9).unwrap();
        let copy: Spsa = serde_json::from_str(&serde_json::to_string(&run).unwrap()).unwrap();
        assert_eq!(copy.step(), run.step());
        let mut run = run;
        let step = run.step();
        run.apply(&step, 1, 0, 1).unwrap();
        assert!(run.apply(&step, 1, 0, 1).unwrap_err().contains("pair 0"));
        assert!(run.apply(&run.step(), 1, 0, 0).is_err(), "half a pair");
        assert!(run.same_params(&run.params.clone()).is_ok());
        let mut other = run.params.clone();
        other[1].max = 99.0;
        assert!(run.same_params(&other).is_err());
    }
}
