//! `thaiboard nnue`: the networks' training pipeline, Makruk's and
//! Mak-hot's (`--variant`; the work is done by the `nnue` crate; this
//! module maps the command line onto it).
//! Every command can be stopped and run again to continue: `gen` after its
//! last whole shard, `label` at the first shard it has not written,
//! `train` from its last checkpoint.

use crate::error::CliError;
use clap::builder::PossibleValuesParser;
use clap::{Args, Subcommand};
use engine::eval::nnue::{Base, Layout, Network};
use nnue::data::{Record, Sample, read_dirs, shards};
use nnue::label::{LabelConfig, LabelStats, Labeller, label_dir};
use nnue::makhos_data::MakhosRecord;
use nnue::selfplay::{GenConfig, generate, generate_makhos, generate_variant};
use nnue::train::{Checkpoint, TrainConfig, split, train};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The training subcommands.
#[derive(Subcommand, Debug)]
pub enum NnueCommand {
    /// Self-play at a fixed node count from random openings; each quiet
    /// position is stored with its search score and the game's result, in
    /// numbered shards. Run again to add shards up to --shards.
    Gen(GenArgs),
    /// Search every position of existing Makruk shards again with an
    /// external UCI engine (a native Fairy-Stockfish) to a fixed node
    /// count, and write them with its scores, in shards of the same
    /// numbers and format. Run again to continue after the last shard
    /// written.
    Label(LabelArgs),
    /// Train the network on the shards of --data (Adam, WDL-blended
    /// target, validation by game); checkpoints in --out after each epoch,
    /// from which a new run with the same --out continues.
    Train(TrainArgs),
    /// Round a checkpoint's float network into the engine's int16 network
    /// file (for `EvalFile` and `bench --eval-file`).
    Quantize {
        /// The checkpoint (`checkpoint.bin` or `best.bin` of a training run).
        #[arg(long)]
        checkpoint: PathBuf,
        /// The network file to write.
        #[arg(long)]
        out: PathBuf,
        /// How the network was made (stored in the file); default: the
        /// checkpoint's path, epoch and validation loss.
        #[arg(long)]
        description: Option<String>,
    },
    /// Compare a checkpoint's network and the classical evaluation with
    /// the search scores of the held-out games (the split `train` uses):
    /// mean absolute error, correlation, quantisation error.
    Check {
        /// The checkpoint (`best.bin` of a training run).
        #[arg(long)]
        checkpoint: PathBuf,
        /// The folders of shards (as given to `train`).
        #[arg(long, num_args = 1..)]
        data: Vec<PathBuf>,
        /// Percent of the games held out (as given to `train`).
        #[arg(long, default_value_t = 5)]
        val_percent: u32,
    },
}

/// `nnue gen`'s options.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// The game: makruk, cambodian (Ouk Chatrang: its first moves and
    /// counts; the records and the network are Makruk's), or makhos
    /// (Mak-hot, default rules).
    #[arg(long, default_value = "makruk", value_parser = PossibleValuesParser::new(["makruk", "cambodian", "makhos"]))]
    variant: String,
    /// The folder of the shards (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// Shards the folder should hold when the run ends.
    #[arg(long, default_value_t = 100)]
    shards: u64,
    /// Finished games per shard.
    #[arg(long, default_value_t = 50)]
    games_per_shard: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random plies opening each game.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Plies after which an unfinished game is dropped.
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Seed of the openings (shard n's games depend on it and n only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play with this network instead of the classical evaluation.
    #[arg(long)]
    eval_file: Option<PathBuf>,
}

/// `nnue label`'s options.
#[derive(Args, Debug)]
pub struct LabelArgs {
    /// The engine's program (a Fairy-Stockfish built by
    /// crates/engine/tools/build_native_fsf.sh).
    #[arg(long)]
    engine: PathBuf,
    /// An argument for the engine (repeat for more; `uci` for thaiboard).
    #[arg(long = "engine-arg", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// A UCI option NAME=VALUE sent after the defaults (UCI_Variant
    /// makruk, Use NNUE false, Threads 1, Hash 16); repeat for more.
    #[arg(long = "option")]
    options: Vec<String>,
    /// Nodes the engine searches per position.
    #[arg(long, default_value_t = 10_000)]
    nodes: u64,
    /// Seconds to wait for one search before giving up.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Label one position in this many, the same ones every run (1: all).
    /// Positions of one game are alike, so a few from each of many games
    /// teach more per search.
    #[arg(long, default_value_t = 1)]
    sample: u32,
    /// The folder of the shards to label (from `nnue gen`).
    #[arg(long = "in")]
    input: PathBuf,
    /// The folder of the labelled shards (created if needed).
    #[arg(long)]
    out: PathBuf,
}

/// `nnue train`'s options.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game of the network and its shards: makruk or makhos.
    #[arg(long, default_value = "makruk", value_parser = parse_layout)]
    variant: Layout,
    /// The folders of the training shards (one or more; positions of
    /// every folder are pooled).
    #[arg(long, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The folder of the checkpoints and the log (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// Epochs to reach.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    /// The step size is multiplied by --lr-gamma every this many epochs.
    #[arg(long, default_value_t = 10)]
    lr_drop_every: u32,
    /// See --lr-drop-every.
    #[arg(long, default_value_t = 0.3)]
    lr_gamma: f32,
    /// The share of the target from the search score (the rest from the
    /// game's result).
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Centipawns per unit of the logistic win expectation.
    #[arg(long, default_value_t = 400.0)]
    wdl_scale: f32,
    /// Decoupled weight decay of the feature weights per unit of step
    /// size (AdamW); 0 turns it off.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Percent of the games held out for validation.
    #[arg(long, default_value_t = 5)]
    val_percent: u32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// What the network's output is added to: `zero` (the network is the
    /// whole evaluation) or `classical` (it learns a correction to the
    /// classical feature sum). A resumed run must name its own.
    #[arg(long, default_value = "zero", value_parser = parse_base)]
    base: Base,
    /// Start from random weights even if --out holds a checkpoint.
    #[arg(long)]
    fresh: bool,
    /// Start a new run from this network's weights (a `.nnue` file of the
    /// same game and base) instead of random ones: to go on training a
    /// shipped network on new games, e.g. Ouk Chatrang's. A run already
    /// in --out is resumed as usual (give --fresh to start again from it).
    #[arg(long)]
    init: Option<PathBuf>,
}

fn parse_layout(s: &str) -> Result<Layout, String> {
    Layout::from_name(s).ok_or_else(|| format!("unknown variant {s:?}: makruk or makhos"))
}

fn parse_base(s: &str) -> Result<Base, String> {
    Base::from_name(s).ok_or_else(|| format!("unknown base {s:?}: zero or classical"))
}

fn input(e: String) -> CliError {
    CliError::input(e)
}

/// Runs a `thaiboard nnue` subcommand.
pub fn run(cmd: NnueCommand) -> Result<(), CliError> {
    match cmd {
        NnueCommand::Gen(args) => gen_cmd(args),
        NnueCommand::Label(args) => label_cmd(args),
        NnueCommand::Train(args) => train_cmd(args),
        NnueCommand::Check {
            checkpoint,
            data,
            val_percent,
        } => check_cmd(&checkpoint, &data, val_percent),
        NnueCommand::Quantize {
            checkpoint,
            out,
            description,
        } => {
            let ck = Checkpoint::load(&checkpoint).map_err(input)?;
            let description = description.unwrap_or_else(|| {
                format!(
                    "{} epoch {} validation loss {:.6}, added to base {}",
                    checkpoint.display(),
                    ck.epoch,
                    ck.best_val,
                    ck.model.base.name()
                )
            });
            let net = ck.model.quantize(&description);
            std::fs::write(&out, net.to_bytes())
                .map_err(|e| input(format!("{}: {e}", out.display())))?;
            println!("wrote {} ({description})", out.display());
            Ok(())
        }
    }
}

fn gen_cmd(a: GenArgs) -> Result<(), CliError> {
    let network = match &a.eval_file {
        Some(path) => {
            let net = Network::load(path).map_err(|e| input(format!("--eval-file: {e}")))?;
            Some(&*Box::leak(Box::new(net)))
        }
        None => None,
    };
    let cfg = GenConfig {
        nodes: a.nodes,
        random_plies: a.random_plies,
        max_plies: a.max_plies,
        games_per_shard: a.games_per_shard,
        shards: a.shards,
        seed: a.seed,
        network,
    };
    let start = std::time::Instant::now();
    let mut positions = 0;
    let on_shard = |s: &nnue::selfplay::ShardStats| {
        positions += s.positions;
        println!(
            "shard {}: {} games (+{} dropped at the ply limit), {} positions, W-D-B {}-{}-{}; {:.0} positions/s this run",
            s.shard,
            s.games,
            s.dropped,
            s.positions,
            s.results[0],
            s.results[1],
            s.results[2],
            positions as f64 / start.elapsed().as_secs_f64().max(1e-9)
        );
    };
    match a.variant.as_str() {
        "makhos" => generate_makhos(&a.out, &cfg, on_shard),
        "cambodian" => generate_variant(&a.out, &cfg, makruk::Variant::Cambodian, on_shard),
        _ => generate(&a.out, &cfg, on_shard),
    }
    .map_err(input)?;
    let held = shards(&a.out).map_err(input)?.len();
    println!("{} holds {held} shards", a.out.display());
    Ok(())
}

fn label_cmd(a: LabelArgs) -> Result<(), CliError> {
    let mut options = LabelConfig::default_options();
    for o in &a.options {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| input(format!("--option {o:?} is not NAME=VALUE")))?;
        options.push((name.to_string(), value.to_string()));
    }
    let cfg = LabelConfig {
        program: a.engine.clone(),
        args: a.engine_args.clone(),
        options,
        nodes: a.nodes,
        timeout: std::time::Duration::from_secs(a.timeout.max(1)),
        sample: a.sample,
    };
    let mut labeller = Labeller::start(&cfg).map_err(input)?;
    let start = std::time::Instant::now();
    let (mut written, mut mates, mut unparsed) = (0, 0, 0);
    label_dir(&a.input, &a.out, &mut labeller, |s: &LabelStats| {
        written += s.written;
        mates += s.mates;
        unparsed += s.unparsed;
        println!(
            "shard {}: {} of {} positions labelled ({} of the shard's {} searched; {} mates, {} unparsed dropped), \
             mean depth {:.1}, mean change {:.0} cp, {:.1} positions/s; this run {} written, {} mates, {} unparsed, \
             {:.1} positions/s",
            s.shard,
            s.written,
            s.positions,
            s.positions,
            s.read,
            s.mates,
            s.unparsed,
            s.mean_depth,
            s.mean_change,
            s.positions as f64 / s.seconds.max(1e-9),
            written,
            mates,
            unparsed,
            written as f64 / start.elapsed().as_secs_f64().max(1e-9)
        );
    })
    .map_err(input)?;
    let held = shards(&a.out).map_err(input)?.len();
    println!(
        "{} holds {held} shards; this run wrote {written} positions and dropped {mates} mates and {unparsed} unparsed",
        a.out.display()
    );
    Ok(())
}

fn train_cmd(a: TrainArgs) -> Result<(), CliError> {
    if a.batch == 0
        || !(0.0..=1.0).contains(&a.lambda)
        || a.val_percent > 50
        || !(a.weight_decay >= 0.0 && a.lr * a.weight_decay < 1.0)
    {
        return Err(CliError::input(
            "--batch must be positive, --lambda from 0 to 1, --val-percent at most 50, \
             --weight-decay at least 0 and below 1 / --lr",
        ));
    }
    let cfg = TrainConfig {
        batch: a.batch,
        lr: a.lr,
        lr_drop_every: a.lr_drop_every,
        lr_gamma: a.lr_gamma,
        epochs: a.epochs,
        lambda: a.lambda,
        wdl_scale: a.wdl_scale,
        weight_decay: a.weight_decay,
        val_percent: a.val_percent,
        seed: a.seed,
    };
    std::fs::create_dir_all(&a.out).map_err(|e| input(format!("{}: {e}", a.out.display())))?;
    let latest = a.out.join("checkpoint.bin");
    if a.variant == Layout::Makhos && a.base != Base::Zero {
        return Err(CliError::input(
            "--base: a Mak-hot network adds to nothing (--base zero)",
        ));
    }
    let mut ck = if latest.exists() && !a.fresh {
        let ck = Checkpoint::load(&latest).map_err(input)?;
        if ck.model.shape.layout != a.variant {
            return Err(CliError::input(format!(
                "{} is a {} network, but --variant is {} (or give --fresh to start again)",
                latest.display(),
                ck.model.shape.layout.name(),
                a.variant.name()
            )));
        }
        if ck.model.base != a.base {
            return Err(CliError::input(format!(
                "{} adds the output to base {}, but --base is {} (give --base {} to resume, \
                 or --fresh to start again)",
                latest.display(),
                ck.model.base.name(),
                a.base.name(),
                ck.model.base.name()
            )));
        }
        println!(
            "resuming from {} after epoch {}",
            latest.display(),
            ck.epoch
        );
        ck
    } else {
        let mut ck = Checkpoint::new_for(a.seed, a.base, a.variant);
        if let Some(path) = &a.init {
            let net = Network::load(path).map_err(|e| input(format!("--init: {e}")))?;
            net.check_layout(a.variant)
                .map_err(|e| input(format!("--init: {e}")))?;
            if net.base != a.base {
                return Err(CliError::input(format!(
                    "--init: {} adds its output to base {}, but --base is {}",
                    path.display(),
                    net.base.name(),
                    a.base.name()
                )));
            }
            ck.model = nnue::model::Model::from_network(&net)
                .map_err(|e| input(format!("--init: {e}")))?;
            println!("starting from {} ({})", path.display(), net.description);
        }
        ck
    };
    match a.variant {
        Layout::Makruk => train_on::<Record>(&a, &cfg, &mut ck, &latest),
        Layout::Makhos => train_on::<MakhosRecord>(&a, &cfg, &mut ck, &latest),
    }
}

/// Trains `ck` on the shards of `a.data`, records of type `R`, saving it
/// as `latest` after each epoch (and as `best.bin` when it is the best).
fn train_on<R: Sample>(
    a: &TrainArgs,
    cfg: &TrainConfig,
    ck: &mut Checkpoint,
    latest: &Path,
) -> Result<(), CliError> {
    let records = read_dirs::<R>(&a.data).map_err(input)?;
    let (train_set, val_set) = split(records, a.val_percent);
    println!(
        "{} training positions, {} validation positions",
        train_set.len(),
        val_set.len()
    );
    let log_path = a.out.join("train.log");
    train(ck, &train_set, &val_set, cfg, |ck, r| {
        let line = format!(
            "epoch {} lr {:.2e} train loss {:.6} validation loss {:.6} ({:.0} positions/s)",
            r.epoch, r.lr, r.train_loss, r.val_loss, r.positions_per_second
        );
        println!("{line}");
        append(&log_path, &line)?;
        ck.save(latest)?;
        if r.val_loss <= ck.best_val {
            ck.save(&a.out.join("best.bin"))?;
        }
        Ok(())
    })
    .map_err(input)
}

fn check_cmd(checkpoint: &Path, data: &[PathBuf], val_percent: u32) -> Result<(), CliError> {
    if val_percent == 0 || val_percent > 50 {
        return Err(CliError::input("--val-percent must be from 1 to 50"));
    }
    let ck = Checkpoint::load(checkpoint).map_err(input)?;
    let (held_out, r) = match ck.model.shape.layout {
        Layout::Makruk => compare_held_out::<Record>(&ck, data, val_percent)?,
        Layout::Makhos => compare_held_out::<MakhosRecord>(&ck, data, val_percent)?,
    };
    println!("{held_out} held-out positions; against their search scores:");
    for (name, a) in [("network", &r.network), ("classical", &r.classical)] {
        println!(
            "  {name:<9} mean |error| {:.1} cp, correlation {:.4}, slope {:.3} ({} positions)",
            a.mean_abs_error(),
            a.correlation(),
            a.slope(),
            a.n
        );
    }
    println!(
        "  quantised network against float: mean {:.2} cp, largest {:.1} cp",
        r.quantisation_mean, r.quantisation_max
    );
    Ok(())
}

/// The held-out records of type `R` in `data` and how `ck`'s network and
/// the classical evaluation score them.
fn compare_held_out<R: Sample>(
    ck: &Checkpoint,
    data: &[PathBuf],
    val_percent: u32,
) -> Result<(usize, nnue::check::Report), CliError> {
    let (_, val_set) = split(read_dirs::<R>(data).map_err(input)?, val_percent);
    Ok((val_set.len(), nnue::check::compare(&ck.model, &val_set)))
}

fn append(path: &Path, line: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    writeln!(f, "{line}").map_err(|e| format!("{}: {e}", path.display()))
}
