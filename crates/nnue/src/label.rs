//! Training data labelled by another engine: every position of existing
//! Makruk shards searched again by an external UCI engine (a native
//! Fairy-Stockfish, say) to a fixed node count, and written with that
//! engine's score in place of ours, keeping the game's result and number.
//!
//! Self-play labels from our own shallow searches teach a network no more
//! than the evaluation that made them; a stronger engine's scores carry
//! judgement ours lacks (the classical weights were fitted the same way).
//!
//! The output shards have the input's numbers and format, so `train`
//! reads them unchanged. A shard already in the output folder is skipped:
//! an interrupted run continues where it stopped. The engine's hash is
//! cleared (`ucinewgame`) at each new game, so a game's labels do not
//! depend on where a run was resumed.

use crate::data::{Record, read_shard, shard_path, shards, stored_score, write_shard};
use arena::spec::{EngineSpec, Limit};
use arena::uci::{Engine, EngineScore, SearchReply};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The external engine and how it searches.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The engine's program.
    pub program: PathBuf,
    /// Its arguments (`uci` for `thaiboard`, none for Fairy-Stockfish).
    pub args: Vec<String>,
    /// UCI options sent after `uci`, in order.
    pub options: Vec<(String, String)>,
    /// Nodes searched per position (`go nodes N`).
    pub nodes: u64,
    /// The longest wait for one search's `bestmove`.
    pub timeout: Duration,
    /// Label one position in this many (1: every one), chosen by a hash
    /// of the shard's number and the position's place in it, so a rerun
    /// picks the same ones. Positions of one game are alike: labelling a
    /// few of each of many games teaches more per search than all of a
    /// few games.
    pub sample: u32,
}

impl LabelConfig {
    /// The options a Fairy-Stockfish needs to search Makruk with its
    /// classical evaluation, on one thread with a small hash (an engine
    /// that lacks one of them ignores it, as UCI asks).
    pub fn default_options() -> Vec<(String, String)> {
        [
            ("UCI_Variant", "makruk"),
            ("Use NNUE", "false"),
            ("Threads", "1"),
            ("Hash", "16"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }
}

/// What became of one position's search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// A score in centipawns from the side to move's view, the shard's
    /// convention (clamped to [`crate::data::MAX_SCORE`] when stored).
    Cp(i32),
    /// The engine found a mate: no centipawn score to learn from.
    Mate,
    /// The engine gave no score it could read.
    Unparsed,
}

/// The label of an engine's reply. A UCI score is already from the side
/// to move's view, as the shards store it, so a centipawn score is kept
/// as it is.
pub fn label_of(reply: &SearchReply) -> Label {
    match reply.score {
        Some(EngineScore::Cp(cp)) => Label::Cp(cp),
        Some(EngineScore::Mate(_)) => Label::Mate,
        None => Label::Unparsed,
    }
}

/// What one shard's labelling did.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct LabelStats {
    /// The shard's number.
    pub shard: u64,
    /// Positions in the shard.
    pub read: usize,
    /// Positions searched (those [`LabelConfig::sample`] picked).
    pub positions: usize,
    /// Positions written with the engine's score.
    pub written: usize,
    /// Positions dropped: the engine found a mate.
    pub mates: usize,
    /// Positions dropped: no readable score, or a board the rules refuse.
    pub unparsed: usize,
    /// The mean depth the engine reported (0 if it reported none).
    pub mean_depth: f64,
    /// The mean of |engine's score - stored score| over the written
    /// positions, in centipawns (how far the old labels were).
    pub mean_change: f64,
    /// Seconds spent on the shard.
    pub seconds: f64,
}

/// An external engine searching positions to a fixed node count.
pub struct Labeller {
    engine: Engine,
    go: String,
    timeout: Duration,
    sample: u32,
}

impl Labeller {
    /// Starts the engine of `cfg` and sets its options.
    pub fn start(cfg: &LabelConfig) -> Result<Labeller, String> {
        if cfg.nodes == 0 {
            return Err("--nodes must be positive".into());
        }
        if cfg.sample == 0 {
            return Err("--sample must be positive (1 labels every position)".into());
        }
        let program = cfg.program.to_string_lossy().into_owned();
        let spec = EngineSpec {
            name: program.clone(),
            cmd: Some(program.clone()),
            args: cfg.args.clone(),
            dir: None,
            options: Vec::new(),
            limit: Limit::default(),
        };
        let engine = Engine::start(
            &spec,
            &program,
            &cfg.args,
            &cfg.options,
            Duration::from_secs(30),
        )?;
        Ok(Labeller {
            engine,
            go: format!("go nodes {}", cfg.nodes),
            timeout: cfg.timeout,
            sample: cfg.sample,
        })
    }

    /// Clears the engine's hash before a new game.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.engine
            .new_game(self.timeout)
            .map_err(|e| format!("engine: {e}"))
    }

    /// Searches the position of FEN `fen`.
    pub fn search(&mut self, fen: &str) -> Result<SearchReply, String> {
        self.engine
            .go(&format!("position fen {fen}"), &self.go, self.timeout)
            .map_err(|e| format!("engine: {e}"))
    }
}

/// Labels every shard of `input` not yet in `output` (created if needed)
/// with `labeller`'s scores, shard by shard in order, calling `on_shard`
/// after each is written.
pub fn label_dir(
    input: &Path,
    output: &Path,
    labeller: &mut Labeller,
    mut on_shard: impl FnMut(&LabelStats),
) -> Result<(), String> {
    if input == output {
        return Err("the output folder must not be the input folder".into());
    }
    std::fs::create_dir_all(output).map_err(|e| format!("{}: {e}", output.display()))?;
    for (n, path) in shards(input)? {
        let out = shard_path(output, n);
        if out.exists() {
            continue;
        }
        let records = read_shard::<Record>(&path)?;
        let stats = label_shard(n, &records, &out, labeller)
            .map_err(|e| format!("shard {n} ({}): {e}", path.display()))?;
        on_shard(&stats);
    }
    Ok(())
}

/// Labels one shard's `records` and writes them as `out`.
fn label_shard(
    n: u64,
    records: &[Record],
    out: &Path,
    labeller: &mut Labeller,
) -> Result<LabelStats, String> {
    let start = Instant::now();
    let picked: Vec<&Record> = records
        .iter()
        .enumerate()
        .filter(|&(i, _)| sampled(n, i, labeller.sample))
        .map(|(_, r)| r)
        .collect();
    let mut stats = LabelStats {
        shard: n,
        read: records.len(),
        positions: picked.len(),
        ..LabelStats::default()
    };
    let (mut depths, mut depth_sum, mut change_sum) = (0u64, 0u64, 0u64);
    let mut labelled = Vec::with_capacity(picked.len());
    let mut game = None;
    for r in picked {
        if game != Some(r.game) {
            labeller.new_game()?;
            game = Some(r.game);
        }
        let Some(pos) = r.position() else {
            stats.unparsed += 1;
            continue;
        };
        let reply = labeller.search(&pos.fen())?;
        if let Some(d) = reply.depth {
            depths += 1;
            depth_sum += u64::from(d);
        }
        match label_of(&reply) {
            Label::Cp(cp) => {
                let new = relabelled(r, cp);
                change_sum += u64::from((new.score - r.score).unsigned_abs());
                labelled.push(new);
            }
            Label::Mate => stats.mates += 1,
            Label::Unparsed => stats.unparsed += 1,
        }
    }
    write_shard(out, &labelled)?;
    stats.written = labelled.len();
    stats.mean_depth = depth_sum as f64 / depths.max(1) as f64;
    stats.mean_change = change_sum as f64 / labelled.len().max(1) as f64;
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}

/// Whether position `index` of shard `shard` is one of the one in
/// `sample` that [`LabelConfig::sample`] labels.
pub fn sampled(shard: u64, index: usize, sample: u32) -> bool {
    if sample <= 1 {
        return true;
    }
    let mut h = crate::model::Rng(shard << 32 ^ index as u64 ^ 0x5A3C_96E1);
    h.next_u64() % u64::from(sample) == 0
}

/// `r` with the score `cp` (side to move's view), clamped as every
/// record's ([`stored_score`]), its game's result and number kept.
pub fn relabelled(r: &Record, cp: i32) -> Record {
    Record {
        score: stored_score(cp),
        ..r.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use makruk::{Position, Variant};

    fn reply(score: Option<EngineScore>) -> SearchReply {
        SearchReply {
            best: "a3a4".into(),
            score,
            depth: Some(12),
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn a_centipawn_score_is_kept_from_the_side_to_move_and_mates_are_dropped() {
        assert_eq!(label_of(&reply(Some(EngineScore::Cp(-37)))), Label::Cp(-37));
        assert_eq!(label_of(&reply(Some(EngineScore::Mate(3)))), Label::Mate);
        assert_eq!(label_of(&reply(Some(EngineScore::Mate(-2)))), Label::Mate);
        assert_eq!(label_of(&reply(None)), Label::Unparsed);
        // Black to move, White has won: the score is Black's, the result
        // White's, as `gen` stores them.
        let pos = Position::from_fen(
            Variant::Makruk,
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1",
        )
        .unwrap();
        let old = Record::new(&pos, 15, 2, 4);
        let new = relabelled(&old, -37);
        assert_eq!((new.score, new.result, new.game), (-37, 2, 4));
        assert!(!new.white_to_move);
        assert_eq!(new.board, old.board);
        assert_eq!(relabelled(&old, 99_999).score, 4000);
        assert_eq!(relabelled(&old, -99_999).score, -4000);
    }

    /// A stand-in UCI engine: a shell script that answers every `go` with
    /// the next of `scores` (an `info` line's score words, or nothing),
    /// then exits when they run out.
    fn fake_engine(name: &str, scores: &[&str]) -> LabelConfig {
        let mut script = String::from(
            "read l; echo 'id name fake'; echo uciok\n\
             while read l; do case \"$l\" in isready) echo readyok;; go*) break;; esac; done\n",
        );
        for (i, s) in scores.iter().enumerate() {
            if i > 0 {
                script.push_str(
                    "while read l; do case \"$l\" in isready) echo readyok;; go*) break;; esac; done\n",
                );
            }
            if !s.is_empty() {
                script.push_str(&format!("echo 'info depth 3 score {s} nodes 10 pv a3a4'\n"));
            }
            script.push_str("echo 'info depth 4 seldepth 6 nodes 20 nps 1000'\n");
            script.push_str("echo 'bestmove a3a4'\n");
        }
        let dir =
            std::env::temp_dir().join(format!("thaiboard-label-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engine.sh");
        std::fs::write(&path, script).unwrap();
        LabelConfig {
            program: "sh".into(),
            args: vec![path.to_string_lossy().into_owned()],
            options: LabelConfig::default_options(),
            nodes: 1000,
            timeout: Duration::from_secs(10),
            sample: 1,
        }
    }

    fn shard_of_three(dir: &Path) -> Vec<Record> {
        let fens = [
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR b - - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 1",
        ];
        let records: Vec<Record> = fens
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let pos = Position::from_fen(Variant::Makruk, f).unwrap();
                Record::new(&pos, 10, 1, i as u32 / 2)
            })
            .collect();
        std::fs::create_dir_all(dir).unwrap();
        write_shard(&shard_path(dir, 3), &records).unwrap();
        records
    }

    #[test]
    fn scores_read_from_a_uci_engine_replace_the_stored_ones() {
        let dir = std::env::temp_dir().join(format!("thaiboard-label-io-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let records = shard_of_three(&dir.join("in"));
        let cfg = fake_engine("io", &["cp -37 upperbound", "mate 4", "cp 512"]);
        let mut labeller = Labeller::start(&cfg).unwrap();
        let mut seen = Vec::new();
        label_dir(&dir.join("in"), &dir.join("out"), &mut labeller, |s| {
            seen.push(*s)
        })
        .unwrap();
        assert_eq!(seen.len(), 1);
        let s = seen[0];
        assert_eq!(
            (s.shard, s.read, s.positions, s.written, s.mates, s.unparsed),
            (3, 3, 3, 2, 1, 0)
        );
        assert_eq!(s.mean_depth, 4.0);
        let out: Vec<Record> = read_shard(&shard_path(&dir.join("out"), 3)).unwrap();
        assert_eq!(
            out,
            vec![relabelled(&records[0], -37), relabelled(&records[2], 512)]
        );
        // Run again: the shard is there, so nothing is asked of the engine
        // (which has no answers left).
        label_dir(&dir.join("in"), &dir.join("out"), &mut labeller, |_| {
            panic!("labelled again")
        })
        .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn sampling_picks_about_one_in_n_the_same_way_every_run() {
        assert!((0..50).all(|i| sampled(7, i, 1)));
        let picked: Vec<usize> = (0..80_000).filter(|&i| sampled(7, i, 8)).collect();
        assert!((9_000..11_000).contains(&picked.len()), "{}", picked.len());
        let again: Vec<usize> = (0..80_000).filter(|&i| sampled(7, i, 8)).collect();
        assert_eq!(picked, again);
        // Another shard picks other positions.
        let other: Vec<usize> = (0..80_000).filter(|&i| sampled(8, i, 8)).collect();
        assert_ne!(picked, other);
    }

    #[test]
    fn a_sampled_shard_searches_and_writes_only_the_picked_positions() {
        let dir =
            std::env::temp_dir().join(format!("thaiboard-label-sample-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let records = shard_of_three(&dir.join("in"));
        let picked: Vec<usize> = (0..3).filter(|&i| sampled(3, i, 2)).collect();
        let scores: Vec<String> = picked.iter().map(|i| format!("cp {}", 10 + i)).collect();
        let words: Vec<&str> = scores.iter().map(String::as_str).collect();
        let cfg = LabelConfig {
            sample: 2,
            ..fake_engine("sample", &words)
        };
        let mut labeller = Labeller::start(&cfg).unwrap();
        let mut seen = Vec::new();
        label_dir(&dir.join("in"), &dir.join("out"), &mut labeller, |s| {
            seen.push(*s)
        })
        .unwrap();
        assert_eq!((seen[0].read, seen[0].positions), (3, picked.len()));
        let out: Vec<Record> = read_shard(&shard_path(&dir.join("out"), 3)).unwrap();
        let want: Vec<Record> = picked
            .iter()
            .map(|&i| relabelled(&records[i], 10 + i as i32))
            .collect();
        assert_eq!(out, want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_engine_that_dies_is_an_error_and_leaves_no_shard() {
        let dir = std::env::temp_dir().join(format!("thaiboard-label-dies-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        shard_of_three(&dir.join("in"));
        // Answers one search, then exits.
        let cfg = fake_engine("dies", &["cp 5"]);
        let mut labeller = Labeller::start(&cfg).unwrap();
        let err = label_dir(&dir.join("in"), &dir.join("out"), &mut labeller, |_| {}).unwrap_err();
        assert!(
            err.contains("shard 3") && (err.contains("exited") || err.contains("stopped reading")),
            "{err}"
        );
        assert!(!shard_path(&dir.join("out"), 3).exists());
        let missing = LabelConfig {
            program: dir.join("no-such-engine"),
            ..cfg
        };
        let err = Labeller::start(&missing).err().unwrap();
        assert!(err.contains("cannot start"), "{err}");
        let none = LabelConfig {
            sample: 0,
            ..fake_engine("sample0", &[])
        };
        let err = Labeller::start(&none).err().unwrap();
        assert!(err.contains("--sample must be positive"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
