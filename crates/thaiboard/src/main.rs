//! `thaiboard`: the command-line tool for Makruk and Mak-hot.

mod bench_cmd;
mod error;
#[cfg(feature = "server")]
mod loadtest_cmd;
mod makhos_cmd;
mod makruk_cmd;
mod match_cmd;
mod nnue_cmd;
mod output;
mod pgn_cmd;
mod pgn_stats;
mod puzzles_cmd;
mod record_files;
#[cfg(feature = "server")]
mod serve_cmd;
mod spsa_cmd;
mod tb_cmd;
mod tune_cmd;

use clap::builder::PossibleValuesParser;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use games::GameKind;

/// The server's allocator (see `thaiboard-server`): the game server and the
/// load generator run in this binary too.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(feature = "server")]
unsafe extern "C" {
    /// mimalloc's own: gives the calling thread's free memory back to the
    /// system (`force`: now, and abandoned pages too).
    fn mi_collect(force: bool);
}

#[cfg(feature = "server")]
/// What the server's worker threads run to give their free memory back
/// after a crowd of connections (`thaiboard_server::set_memory_release`).
fn release_memory() {
    // SAFETY: mi_collect takes no pointers; any thread may call it at any time.
    unsafe { mi_collect(true) }
}
use error::CliError;

/// The command line.
#[derive(Parser, Debug)]
#[command(
    name = "thaiboard",
    version,
    about = "Makruk and Mak-hot on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command that starts from a position.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// The game: makruk, cambodian (Ouk Chatrang) or makhos (Mak-hot).
    #[arg(long, default_value = "makruk", value_parser = PossibleValuesParser::new(GameKind::VARIANT_NAMES))]
    pub variant: String,
    /// Rule option (Mak-hot: `default` or `no-reverse`).
    #[arg(long)]
    pub rules: Option<String>,
    /// Start position (Makruk FEN or Mak-hot position text); default: the start position.
    #[arg(long)]
    pub fen: Option<String>,
}

impl GameArgs {
    /// The game the options name.
    pub fn kind(&self) -> Result<GameKind, CliError> {
        game_kind(&self.variant, self.rules.as_deref())
    }
}

/// How Makruk and Ouk Chatrang positions and moves are written.
#[derive(Args, Debug, Clone, Default)]
pub struct FormatArgs {
    /// Mark promoted bias in FEN as `M~`/`m~` (as Fairy-Stockfish and
    /// pychess can); Makruk and Ouk Chatrang only.
    #[arg(long)]
    pub promoted_marks: bool,
    /// Move notation: `moves` writes its second column in it, `fen` reads
    /// `--moves` in it (UCI is always read too; without the option any
    /// notation is read). Thai forms separate moves with commas or spaces.
    #[arg(long, value_enum)]
    pub notation: Option<NotationArg>,
}

/// The notations of Makruk and Ouk Chatrang moves (`makruk::Notation`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NotationArg {
    /// SAN in Fairy-Stockfish letters: `Me2`, `Sxd4`, `c6=M`.
    San,
    /// SAN in SchemingMind and PlayOK letters: `Qe2`, `Bxd4`, `c6`.
    Schemingmind,
    /// Fairy-Stockfish's short Thai form: `จ๔`, `ม-ง๗`, `คจ-ง๔`.
    ThaiSan,
    /// Fairy-Stockfish's long Thai form, the book form: `บ จ๓-จ๔`.
    ThaiLan,
}

impl From<NotationArg> for makruk::Notation {
    fn from(n: NotationArg) -> makruk::Notation {
        match n {
            NotationArg::San => makruk::Notation::San,
            NotationArg::Schemingmind => makruk::Notation::SchemingMind,
            NotationArg::ThaiSan => makruk::Notation::ThaiSan,
            NotationArg::ThaiLan => makruk::Notation::ThaiLan,
        }
    }
}

/// The game named by `--variant` and `--rules`.
pub fn game_kind(variant: &str, rules: Option<&str>) -> Result<GameKind, CliError> {
    GameKind::from_names(variant, rules).map_err(|e| CliError::input(format!("--rules: {e}")))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move paths to a depth, per root move (as Stockfish's `go perft`).
    Perft {
        #[command(flatten)]
        game: GameArgs,
        /// Also print time and nodes per second.
        #[arg(long)]
        bench: bool,
        /// Depth in plies.
        depth: u32,
    },
    /// List the legal moves: `UCI SAN FEN_AFTER` (Makruk; SAN or the
    /// `--notation` chosen) or `MOVE POSITION_AFTER` (Mak-hot).
    Moves {
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Play moves from a position and print the resulting position and its state.
    Fen {
        #[command(flatten)]
        game: GameArgs,
        /// Moves to play, separated by spaces (UCI form; Makruk also SAN or
        /// Thai notation, see `--notation`; Mak-hot also `c3xe5xc7`).
        #[arg(long, default_value = "")]
        moves: String,
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Start the game server with the web board.
    #[cfg(feature = "server")]
    Serve(serve_cmd::ServeArgs),
    /// Back up the server's SQLite database while it runs (VACUUM INTO).
    #[cfg(feature = "server")]
    Backup(thaiboard_server::cli::BackupArgs),
    /// Restore a backup into the server's database (stop the server first).
    #[cfg(feature = "server")]
    Restore(thaiboard_server::cli::RestoreArgs),
    /// The opening explorer: import records into its engine database, or
    /// measure its index.
    #[cfg(feature = "server")]
    #[command(subcommand)]
    Explorer(thaiboard_server::ExplorerCommand),
    /// Play many simultaneous games through the server's WebSocket API and
    /// report move round trips (starts its own server unless given --url).
    #[cfg(feature = "server")]
    Loadtest(loadtest_cmd::LoadtestArgs),
    /// Check, convert and sum up game records (PGN for Makruk, PDN for Mak-hot).
    #[command(subcommand)]
    Pgn(pgn_cmd::PgnCommand),
    /// Run the engine over the UCI protocol (Fairy-Stockfish style).
    Uci,
    /// Play two UCI engines against each other: openings in colour-reversed
    /// pairs, clocks, adjudication by the rules, PGN, Elo and SPRT.
    Match(Box<match_cmd::MatchArgs>),
    /// Search the fixed bench positions of both games; print nodes and speed.
    Bench {
        /// Depth for every position (default: 10 for Makruk, 14 for Mak-hot).
        #[arg(long)]
        depth: Option<u32>,
        /// Also search the Makruk positions with this network (NNUE), with
        /// the SIMD and the scalar kernels, and print the speed ratios.
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
    },
    /// Tune the evaluation weights (Texel: generate self-play data, fit,
    /// compare) or the search parameters (SPSA).
    #[command(subcommand)]
    Tune(tune_cmd::TuneCommand),
    /// Endgame tables: generate, probe, verify.
    #[command(subcommand)]
    Tb(tb_cmd::TbCommand),
    /// Puzzles: play games to mine, mine them, check puzzle sets.
    #[command(subcommand)]
    Puzzles(puzzles_cmd::PuzzlesCommand),
    /// The Makruk network (NNUE): generate training data, train, quantise.
    #[command(subcommand)]
    Nnue(nnue_cmd::NnueCommand),
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Perft { game, bench, depth } => match game.kind()? {
            GameKind::Makhos(rules) => makhos_cmd::perft(&game, rules, depth, bench),
            GameKind::Makruk(v) => makruk_cmd::perft(&game, v, depth, bench),
        },
        Command::Moves { game, format } => match game.kind()? {
            GameKind::Makhos(rules) => makhos_cmd::moves(&game, rules),
            GameKind::Makruk(v) => makruk_cmd::moves(&game, v, &format),
        },
        Command::Fen {
            game,
            moves,
            format,
        } => match game.kind()? {
            GameKind::Makhos(rules) => makhos_cmd::fen(&game, rules, &moves),
            GameKind::Makruk(v) => makruk_cmd::fen(&game, v, &moves, &format),
        },
        #[cfg(feature = "server")]
        Command::Serve(args) => serve_cmd::serve(args),
        #[cfg(feature = "server")]
        Command::Backup(args) => args.run().map_err(error::CliError::input),
        #[cfg(feature = "server")]
        Command::Restore(args) => args.run().map_err(error::CliError::input),
        #[cfg(feature = "server")]
        Command::Explorer(command) => command.run().map_err(error::CliError::input),
        #[cfg(feature = "server")]
        Command::Loadtest(args) => loadtest_cmd::loadtest(args),
        Command::Pgn(cmd) => pgn_cmd::run(cmd),
        Command::Uci => {
            // The engine's UCI loop, with `TablebasePath` opening the tables.
            let tables = thaiboard_tablebase::engine_tables::TableDirectory::default();
            engine::uci::run(std::io::stdin().lock(), std::io::stdout(), tables);
            Ok(())
        }
        Command::Match(args) => match_cmd::run(*args),
        Command::Bench { depth, eval_file } => bench_cmd::bench(depth, eval_file.as_deref()),
        Command::Tune(cmd) => tune_cmd::run(cmd),
        Command::Tb(cmd) => tb_cmd::run(cmd),
        Command::Puzzles(cmd) => puzzles_cmd::run(cmd),
        Command::Nnue(cmd) => nnue_cmd::run(cmd),
    }
}

fn main() {
    #[cfg(feature = "server")]
    thaiboard_server::set_memory_release(release_memory);
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let (Command::Match(args), Some(m)) = (&mut cli.command, matches.subcommand_matches("match"))
    {
        match_cmd::with_groups(args, m);
    }
    if let Err(err) = run(cli) {
        eprintln!("error: {}", err.message);
        std::process::exit(err.code);
    }
}
