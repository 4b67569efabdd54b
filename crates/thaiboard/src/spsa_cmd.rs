//! `thaiboard tune spsa`: tunes an engine's search parameters by SPSA over
//! real games (the schedule and update are `tune::spsa`'s; the games are
//! played by the `arena` crate). The run lives in one folder:
//! `spsa.json`, the state, rewritten after every step, and `steps.csv`,
//! a line a step. Run the same command again to continue a stopped run.

use crate::error::CliError;
use arena::{
    Adjudication, DEFAULT_REPETITION, EngineSpec, Limit, MatchConfig, Opening, TimeControl,
    parse_openings, run_match,
};
use clap::Args;
use games::GameKind;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tune::spsa::{Spsa, SpsaParam, engine_params, format_params, parse_params};

/// The state file in a run's folder.
const STATE: &str = "spsa.json";
/// The step log in a run's folder.
const STEPS: &str = "steps.csv";

/// The options of `thaiboard tune spsa`.
#[derive(Args, Debug)]
#[command(after_help = "EXAMPLES:\n  \
    thaiboard tune spsa --print-params > params.csv\n  \
    thaiboard tune spsa --out spsa1 --tc 2+0.02 --openings data/openings/makruk.epd --pairs 5000\n  \
    thaiboard tune spsa --out spsa1 --show")]
pub struct SpsaArgs {
    /// The run's folder: `spsa.json` (the state) and `steps.csv` (a line a
    /// step). A folder holding a state continues that run.
    #[arg(long, required_unless_present = "print_params")]
    out: Option<PathBuf>,
    /// The parameters, fishtest's form: `NAME,int,VALUE,MIN,MAX,C_END,R_END`
    /// a line (default: this engine's search parameters, see
    /// --print-params). Only for a new run.
    #[arg(long)]
    params: Option<PathBuf>,
    /// Print this engine's search parameters in that form, and exit.
    #[arg(long)]
    print_params: bool,
    /// Print the run's current values, and exit.
    #[arg(long)]
    show: bool,
    /// Game pairs the schedule spans (a new run only).
    #[arg(long, default_value_t = 5000)]
    pairs: u64,
    /// Game pairs each step plays with one perturbation.
    #[arg(long, default_value_t = 2)]
    batch: u64,
    /// Stop after this many steps (the run can be continued).
    #[arg(long)]
    steps: Option<u64>,
    /// The game: makruk, cambodian or makhos.
    #[arg(long, default_value = "makruk", value_parser = clap::builder::PossibleValuesParser::new(GameKind::VARIANT_NAMES))]
    variant: String,
    /// Time control kept by the runner: `[MOVES/]BASE[+INC]` in seconds.
    #[arg(long, value_parser = parse_tc)]
    tc: Option<TimeControl>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Openings (FEN / EPD lines, position texts, or a PGN / PDN file),
    /// shuffled by the run's seed; each step plays each of its openings
    /// with both colours.
    #[arg(long, required_unless_present_any = ["print_params", "show"])]
    openings: Option<PathBuf>,
    /// Seed of the signs and the openings' order (a new run only).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// The engine tuned, as `thaiboard match --engine` reads it (KEY=VALUE
    /// words; default: this program's `thaiboard uci`). The parameters
    /// are sent as UCI options after its own.
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1..)]
    engine: Vec<String>,
    /// Draw a game after this many full moves.
    #[arg(long, default_value_t = 300)]
    maxmoves: u32,
    /// Makruk: draw a game when one position has occurred this many times;
    /// 0 turns it off.
    #[arg(long, default_value_t = DEFAULT_REPETITION)]
    repetition: u32,
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    text.parse()
}

/// Runs `thaiboard tune spsa`.
pub fn run(args: SpsaArgs) -> Result<(), CliError> {
    if args.print_params {
        print!("{}", format_params(&engine_params()));
        return Ok(());
    }
    let Some(dir) = args.out.clone() else {
        return Err(CliError::input("give --out DIR"));
    };
    let state_path = dir.join(STATE);
    let games = games_text(&args);
    let mut run = match read_state(&state_path)? {
        Some(run) => {
            if let Some(p) = &args.params {
                run.same_params(&read_params(p)?)
                    .map_err(|e| CliError::input(format!("{}: {e}", state_path.display())))?;
            }
            if !args.show && !run.games.is_empty() && run.games != games {
                return Err(CliError::input(format!(
                    "{}: the run plays '{}', not '{games}'; give the same options to continue it",
                    state_path.display(),
                    run.games
                )));
            }
            run
        }
        None if args.show => {
            return Err(CliError::input(format!("{} holds no run", dir.display())));
        }
        None => {
            let params = match &args.params {
                Some(p) => read_params(p)?,
                None => engine_params(),
            };
            let mut run = Spsa::new(params, args.pairs, args.seed).map_err(CliError::input)?;
            run.games = games;
            run
        }
    };
    if args.show {
        print!("{}", show(&run));
        return Ok(());
    }
    if args.batch == 0 || args.concurrency == 0 {
        return Err(CliError::input(
            "--batch and --concurrency must be at least 1",
        ));
    }
    let kind = crate::game_kind(&args.variant, None)?;
    let Some(openings) = &args.openings else {
        return Err(CliError::input("give --openings FILE"));
    };
    let openings = load_openings(openings, kind, run.seed)?;
    let base = base_spec(&args.engine)?;
    let limit = Limit {
        tc: args.tc,
        nodes: args.nodes.filter(|&n| n > 0),
        ..Limit::default()
    };
    if limit.tc.is_none() && limit.nodes.is_none() && base.limit.is_empty() {
        return Err(CliError::input("give --tc or --nodes"));
    }
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
    let exe = std::env::current_exe()
        .map_err(|e| CliError::input(format!("cannot find this program's path: {e}")))?;
    let stop = AtomicBool::new(false);
    let mut steps = 0;
    while !run.finished() && args.steps.is_none_or(|s| steps < s) {
        let step = run.step();
        let pairs = args.batch.min(run.pairs_total - run.pairs_done);
        let cfg = MatchConfig {
            kind,
            engines: [
                with_values(&base, "plus", &run.params, &step.plus),
                with_values(&base, "minus", &run.params, &step.minus),
            ],
            default_cmd: (exe.to_string_lossy().into_owned(), vec!["uci".to_string()]),
            limit: limit.clone(),
            openings: (0..pairs)
                .map(|j| openings[((step.k + j) % openings.len() as u64) as usize].clone())
                .collect(),
            games: 2 * pairs as usize,
            concurrency: args.concurrency,
            adjudication: Adjudication {
                max_moves: Some(args.maxmoves),
                repetition: (args.repetition > 0).then_some(args.repetition),
                ..Adjudication::default()
            },
            sprt: None,
            margin_ms: 100,
            move_timeout: Duration::from_secs(60),
            event: "thaiboard tune spsa".into(),
        };
        let summary = run_match(&cfg, &stop, |_, _, _| {}).map_err(CliError::input)?;
        let t = summary.tally;
        run.apply(&step, t.wins, t.losses, t.draws)
            .map_err(CliError::input)?;
        write_state(&state_path, &run)?;
        append_step(&dir.join(STEPS), &run, (t.wins, t.losses, t.draws))?;
        eprintln!(
            "pairs {}/{}: +{} -{} ={} (total +{} -{} ={}) {}",
            run.pairs_done,
            run.pairs_total,
            t.wins,
            t.losses,
            t.draws,
            run.wins,
            run.losses,
            run.draws,
            values_text(&run)
        );
        steps += 1;
    }
    print!("{}", show(&run));
    Ok(())
}

/// The options that decide the games a step plays, as one line (the
/// openings by file name, so a run's folder and openings can move).
fn games_text(a: &SpsaArgs) -> String {
    let tc = a.tc.map_or("-".to_string(), |t| t.to_string());
    let openings = a
        .openings
        .as_deref()
        .and_then(Path::file_name)
        .map_or("-".into(), |n| n.to_string_lossy().into_owned());
    format!(
        "variant {} tc {tc} nodes {} openings {openings} batch {} maxmoves {} repetition {} engine [{}]",
        a.variant,
        a.nodes.map_or("-".to_string(), |n| n.to_string()),
        a.batch,
        a.maxmoves,
        a.repetition,
        a.engine.join(" ")
    )
}

/// The run as `show` prints it: progress, then each parameter's start and
/// current value, then the values as `thaiboard match --engine` words.
fn show(run: &Spsa) -> String {
    let mut out = format!(
        "pairs {}/{}, the + engine scored +{} -{} ={}\ngames: {}\n",
        run.pairs_done, run.pairs_total, run.wins, run.losses, run.draws, run.games
    );
    for (p, t) in run.params.iter().zip(&run.theta) {
        out.push_str(&format!("{:<20} {:>8} -> {:>9.2}\n", p.name, p.start, t));
    }
    out.push_str(&values_text(run));
    out.push('\n');
    out
}

/// The current values as `option.NAME=VALUE` words.
fn values_text(run: &Spsa) -> String {
    run.params
        .iter()
        .zip(run.values())
        .map(|(p, v)| format!("option.{}={v}", p.name))
        .collect::<Vec<_>>()
        .join(" ")
}

fn read_params(path: &Path) -> Result<Vec<SpsaParam>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    parse_params(&text).map_err(|e| CliError::input(format!("{}: {e}", path.display())))
}

/// The run stored at `path`, or `None` when there is no file.
fn read_state(path: &Path) -> Result<Option<Spsa>, CliError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| CliError::input(format!("{}: not a run's state: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::input(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

/// Writes the state beside its place, then renames it there, so a run
/// stopped at any moment leaves a whole state.
fn write_state(path: &Path, run: &Spsa) -> Result<(), CliError> {
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(run)
        .map_err(|e| CliError::input(format!("cannot encode the state: {e}")))?;
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}

/// Appends the step's line to the log (with a header line when the file is
/// new): pairs done, the step's result, then every current value.
fn append_step(path: &Path, run: &Spsa, (w, l, d): (u64, u64, u64)) -> Result<(), CliError> {
    let new = !path.exists();
    let mut line = String::new();
    if new {
        line.push_str("pairs,wins,losses,draws");
        for p in &run.params {
            line.push(',');
            line.push_str(&p.name);
        }
        line.push('\n');
    }
    line.push_str(&format!("{},{w},{l},{d}", run.pairs_done));
    for t in &run.theta {
        line.push_str(&format!(",{t:.3}"));
    }
    line.push('\n');
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()))
        .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
}

fn load_openings(path: &Path, kind: GameKind, seed: u64) -> Result<Vec<Opening>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read openings {}: {e}", path.display())))?;
    let mut openings = parse_openings(kind, &text, None)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    if openings.is_empty() {
        return Err(CliError::input(format!("{}: no openings", path.display())));
    }
    arena::openings::shuffle(&mut openings, seed);
    Ok(openings)
}

/// The engine's spec from its `--engine` words.
fn base_spec(words: &[String]) -> Result<EngineSpec, CliError> {
    let all: Vec<&str> = std::iter::once("name=spsa")
        .chain(words.iter().map(String::as_str))
        .collect();
    EngineSpec::parse(&all).map_err(|e| CliError::input(format!("--engine: {e}")))
}

/// `base` named `name`, with the parameters set to `values`.
fn with_values(base: &EngineSpec, name: &str, params: &[SpsaParam], values: &[i32]) -> EngineSpec {
    let mut spec = base.clone();
    spec.name = name.to_string();
    spec.options.extend(
        params
            .iter()
            .zip(values)
            .map(|(p, v)| (p.name.clone(), v.to_string())),
    );
    spec
}
