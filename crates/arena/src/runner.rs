//! The match: games in colour-reversed pairs over the openings, several at
//! once (one thread and one pair of engine processes per slot), the tally,
//! and the SPRT stop.

use crate::adjudicate::Adjudication;
use crate::game::{GameSetup, Played, play_game};
use crate::openings::Opening;
use crate::referee::Ending;
use crate::spec::{EngineSpec, Limit};
use crate::stats::{Sprt, SprtVerdict, Tally};
use crate::uci::Engine;
use games::GameKind;
use records::GameResult;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game (Makruk, Ouk Chatrang, Mak-hot and its rules).
    pub kind: GameKind,
    /// The first and second engine; scores are the first engine's.
    pub engines: [EngineSpec; 2],
    /// The program and arguments run for a spec without `cmd` (normally
    /// this program with `uci`).
    pub default_cmd: (String, Vec<String>),
    /// Limits for both engines (each spec's own limits win).
    pub limit: Limit,
    /// Openings in playing order; each is played twice, colours reversed.
    pub openings: Vec<Opening>,
    /// Games to play (openings are reused in a cycle).
    pub games: usize,
    /// Games at once.
    pub concurrency: usize,
    /// Score adjudication and the move cap.
    pub adjudication: Adjudication,
    /// Stop early when the SPRT decides.
    pub sprt: Option<Sprt>,
    /// How far past zero a clock may go, in ms.
    pub margin_ms: u64,
    /// How long to wait for a move with no clock, and for engine start-up.
    pub move_timeout: Duration,
    /// The PGN `[Event]`.
    pub event: String,
}

/// A finished game, as reported to the caller.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game number, from 1 (games 2k-1 and 2k share an opening).
    pub number: usize,
    /// Whether the first engine had White.
    pub first_white: bool,
    /// The record.
    pub record: records::Game,
    /// How it ended.
    pub ending: Ending,
    /// The first engine's score in half points (0, 1, 2).
    pub points2: u8,
}

/// A game a previous run of the match finished (read back by
/// [`crate::resume`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The game number, from 1 (the PGN's `[Round]`).
    pub number: usize,
    /// The first engine's score in half points (0, 1, 2).
    pub points2: u8,
}

/// How a match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// The final tally.
    pub tally: Tally,
    /// The SPRT verdict and LLR, if an SPRT was run.
    pub sprt: Option<(SprtVerdict, f64)>,
    /// Whether the SPRT stopped the match before its last game.
    pub stopped_early: bool,
}

impl MatchConfig {
    /// Checks the numbers and that every engine has a limit.
    pub fn validate(&self) -> Result<(), String> {
        if self.openings.is_empty() {
            return Err("no openings".into());
        }
        if self.games == 0 {
            return Err("no games to play".into());
        }
        if self.concurrency == 0 {
            return Err("concurrency must be at least 1".into());
        }
        for spec in &self.engines {
            if spec.limit.or(&self.limit).is_empty() {
                return Err(format!(
                    "engine '{}' has no limit: give --tc, --movetime, --nodes or --depth (or tc=, movetime=, nodes=, depth= in its --engine)",
                    spec.name
                ));
            }
        }
        Ok(())
    }

    /// Whether the first engine has White in game `number` (from 1):
    /// games 2k-1 and 2k share an opening, colours reversed.
    pub fn first_white(number: usize) -> bool {
        number % 2 == 1
    }

    /// The opening of game `number` (from 1).
    pub fn opening_of(&self, number: usize) -> &Opening {
        &self.openings[(number - 1) / 2 % self.openings.len()]
    }

    /// Starts engine `i` (0 first, 1 second) with `UCI_Variant` set.
    fn start_engine(&self, i: usize) -> Result<Engine, String> {
        let spec = &self.engines[i];
        let (program, args) = match &spec.cmd {
            Some(c) => (c.clone(), spec.args.clone()),
            None => {
                let mut a = self.default_cmd.1.clone();
                a.extend(spec.args.iter().cloned());
                (self.default_cmd.0.clone(), a)
            }
        };
        let mut options = vec![(
            "UCI_Variant".to_string(),
            self.kind.variant_name().to_string(),
        )];
        if self.kind != GameKind::MAKHOS && !self.kind.is_makruk() {
            options.push((
                "Makhos Rules".to_string(),
                self.kind.rules_name().to_string(),
            ));
        }
        Engine::start(spec, &program, &args, &options, self.move_timeout)
    }
}

/// One worker's engines, started when first needed and again after a crash.
struct Slot<'a> {
    cfg: &'a MatchConfig,
    engines: [Option<Engine>; 2],
}

impl Slot<'_> {
    /// Engine `i`, started and told a new game begins.
    fn ready(&mut self, i: usize) -> Result<(), String> {
        for attempt in 0..2 {
            if self.engines[i].is_none() {
                self.engines[i] = Some(self.cfg.start_engine(i)?);
            }
            let e = self.engines[i].as_mut().expect("started above");
            match e.new_game(self.cfg.move_timeout) {
                Ok(()) => return Ok(()),
                Err(err) => {
                    self.engines[i] = None;
                    if attempt == 1 {
                        return Err(format!(
                            "engine '{}' fails at the start of a game: {err}",
                            self.cfg.engines[i].name
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn play(&mut self, number: usize) -> Result<GameReport, String> {
        let cfg = self.cfg;
        let first_white = MatchConfig::first_white(number);
        let opening = cfg.opening_of(number);
        self.ready(0)?;
        self.ready(1)?;
        let (w, b) = if first_white { (0, 1) } else { (1, 0) };
        let limits = [
            cfg.engines[w].limit.or(&cfg.limit),
            cfg.engines[b].limit.or(&cfg.limit),
        ];
        let mut tags = vec![
            ("Event".to_string(), cfg.event.clone()),
            ("Site".to_string(), "thaiboard match".to_string()),
            ("Date".to_string(), today()),
            ("Round".to_string(), number.to_string()),
            ("White".to_string(), cfg.engines[w].name.clone()),
            ("Black".to_string(), cfg.engines[b].name.clone()),
        ];
        if let (Some(a), Some(b)) = (limits[0].tc, limits[1].tc)
            && a == b
        {
            tags.push(("TimeControl".to_string(), a.to_string()));
        }
        let setup = GameSetup {
            opening,
            limits: [&limits[0], &limits[1]],
            margin_ms: cfg.margin_ms,
            move_timeout: cfg.move_timeout,
            adjudication: &cfg.adjudication,
            tags,
        };
        let [e0, e1] = &mut self.engines;
        let (we, be) = if first_white { (e0, e1) } else { (e1, e0) };
        let (Some(we), Some(be)) = (we.as_mut(), be.as_mut()) else {
            return Err("internal error: engines not started".into());
        };
        let Played {
            record,
            ending,
            broken,
        } = play_game([we, be], &setup);
        for (side, idx) in [(0, w), (1, b)] {
            if broken[side] {
                self.engines[idx] = None;
            }
        }
        Ok(GameReport {
            number,
            first_white,
            // A game without a result cannot come out of `play_game`; were
            // it to, it counts as a draw.
            points2: first_points2(ending.result, first_white).unwrap_or(1),
            record,
            ending,
        })
    }
}

/// Today's date as PGN writes it (`2026.11.22`), from the system clock (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's
/// algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Plays the match. `on_game` sees each game as it finishes (in finishing
/// order) with the tally after it; `stop` ends the match after the games
/// in progress (set it from outside to interrupt). An engine that cannot
/// be started ends the match with an error.
pub fn run_match(
    cfg: &MatchConfig,
    stop: &AtomicBool,
    on_game: impl FnMut(&GameReport, &Tally, Option<f64>),
) -> Result<MatchSummary, String> {
    run_match_resumed(cfg, &[], stop, on_game)
}

/// Plays the match less the games `done` (finished by an earlier run, see
/// [`crate::resume`]): they count in the tally, pairs and SPRT from the
/// start, and their numbers are not played again. Otherwise as
/// [`run_match`].
pub fn run_match_resumed(
    cfg: &MatchConfig,
    done: &[Finished],
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameReport, &Tally, Option<f64>),
) -> Result<MatchSummary, String> {
    cfg.validate()?;
    let mut tally = Tally::default();
    let mut half_pairs: HashMap<usize, u8> = HashMap::new();
    let mut skip = vec![false; cfg.games + 1];
    for f in done {
        if f.number == 0 || f.number > cfg.games || std::mem::replace(&mut skip[f.number], true) {
            return Err(format!(
                "finished game {} is not a game of this match, or given twice",
                f.number
            ));
        }
        count_game(&mut tally, &mut half_pairs, f.number, f.points2);
    }
    let to_play = skip.iter().skip(1).filter(|&&s| !s).count();
    if to_play == 0
        || cfg
            .sprt
            .is_some_and(|s| s.verdict(&tally) != SprtVerdict::Continue)
    {
        return Ok(MatchSummary {
            tally,
            sprt: cfg.sprt.map(|s| (s.verdict(&tally), s.llr(&tally))),
            stopped_early: to_play > 0,
        });
    }
    let next = AtomicUsize::new(1);
    let (tx, rx) = channel::<Result<GameReport, String>>();
    let workers = cfg.concurrency.min(to_play);
    let mut first_error = None;
    let mut stopped_early = false;
    let skip = &skip;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut slot = Slot {
                    cfg,
                    engines: [None, None],
                };
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let number = next.fetch_add(1, Ordering::SeqCst);
                    if number > cfg.games {
                        break;
                    }
                    if skip[number] {
                        continue;
                    }
                    let result = slot.play(number);
                    let failed = result.is_err();
                    if tx.send(result).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            let report = match result {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            count_game(&mut tally, &mut half_pairs, report.number, report.points2);
            let llr = cfg.sprt.map(|s| s.llr(&tally));
            on_game(&report, &tally, llr);
            if let Some(s) = cfg.sprt
                && s.verdict(&tally) != SprtVerdict::Continue
                && !stop.swap(true, Ordering::SeqCst)
            {
                stopped_early = (next.load(Ordering::SeqCst)..=cfg.games).any(|n| !skip[n]);
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(MatchSummary {
        tally,
        sprt: cfg.sprt.map(|s| (s.verdict(&tally), s.llr(&tally))),
        stopped_early,
    })
}

/// The first engine's score in half points (0, 1, 2) for a game with
/// `result` in which it had White if `first_white`; `None` without a
/// result.
pub fn first_points2(result: GameResult, first_white: bool) -> Option<u8> {
    let white = match result {
        GameResult::WhiteWins => 2,
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::Unknown => return None,
    };
    Some(if first_white { white } else { 2 - white })
}

/// Counts game `number` (first engine's `points2`) in `tally`, and its
/// pair once both games of it are in (`half_pairs` holds the pairs with
/// one game counted).
fn count_game(tally: &mut Tally, half_pairs: &mut HashMap<usize, u8>, number: usize, points2: u8) {
    tally.add_game(points2);
    let pair = (number - 1) / 2;
    if let Some(first) = half_pairs.remove(&pair) {
        tally.add_pair(first + points2);
    } else {
        half_pairs.insert(pair, points2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_414), (2025, 11, 22));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
    }

    /// A match whose engines cannot start: any game it tries to play is
    /// an error.
    fn unplayable(games: usize, sprt: Option<Sprt>) -> MatchConfig {
        let spec = |name: &str| {
            EngineSpec::parse(&[&format!("name={name}"), "cmd=/no/such/engine"]).unwrap()
        };
        MatchConfig {
            kind: GameKind::MAKRUK,
            engines: [spec("a"), spec("b")],
            default_cmd: ("/no/such/engine".into(), Vec::new()),
            limit: Limit {
                nodes: Some(100),
                ..Limit::default()
            },
            openings: vec![Opening::start(GameKind::MAKRUK)],
            games,
            concurrency: 2,
            adjudication: Adjudication::default(),
            sprt,
            margin_ms: 100,
            move_timeout: Duration::from_secs(1),
            event: "test".into(),
        }
    }

    fn wins(n: usize) -> Vec<Finished> {
        (1..=n)
            .map(|number| Finished { number, points2: 2 })
            .collect()
    }

    #[test]
    fn finished_games_are_counted_and_not_played_again() {
        let stop = AtomicBool::new(false);
        // Every game finished: nothing is started, the tally is theirs.
        let s = run_match_resumed(&unplayable(6, None), &wins(6), &stop, |_, _, _| {
            panic!("played a game")
        })
        .unwrap();
        assert_eq!((s.tally.wins, s.tally.games()), (6, 6));
        assert_eq!(s.tally.penta, [0, 0, 0, 0, 3]);
        assert!(!s.stopped_early);
        // An SPRT the finished games already decide stops before any game.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let s = run_match_resumed(
            &unplayable(400, Some(sprt)),
            &wins(240),
            &stop,
            |_, _, _| panic!("played a game"),
        )
        .unwrap();
        assert_eq!(s.sprt.map(|(v, _)| v), Some(SprtVerdict::H1));
        assert!(s.stopped_early);
        // Games left to play are played (here: the engines cannot start).
        let err =
            run_match_resumed(&unplayable(6, None), &wins(5), &stop, |_, _, _| {}).unwrap_err();
        assert!(!err.is_empty());
        // A finished game that is not one of the match's, or given twice.
        for done in [
            vec![Finished {
                number: 7,
                points2: 1,
            }],
            [wins(1), wins(1)].concat(),
        ] {
            let err =
                run_match_resumed(&unplayable(6, None), &done, &stop, |_, _, _| {}).unwrap_err();
            assert!(err.contains("not a game of this match"), "{err}");
        }
    }
}
