//! `thaiboard pgn stats`: a match's PGN read back from one player's side
//! (the score with its Elo, how the games ended, the draws given away from
//! a lead, time and depth a move), the report `thaiboard match` leaves to
//! be read from its PGN at any time, also of a match cut short.

use crate::error::CliError;
use crate::match_cmd::score_lines;
use crate::output::write_out;
use crate::record_files::{open, problem_line};
use arena::report::{BANDS, LEAD_CP, Report};
use clap::Args;
use records::Reader;
use std::path::PathBuf;

/// Options of `pgn stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The player whose side the report takes, as the `[White]` and
    /// `[Black]` tags name it (default: White of the first game).
    #[arg(long)]
    pub player: Option<String>,
    /// The record files (`-` for standard input); rounds 2k-1 and 2k of
    /// one file are a pair.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Reads the files and prints the report. Broken games are reported on
/// standard error and left out (exit code 1 after the report).
pub fn stats(args: &StatsArgs) -> Result<(), CliError> {
    let mut report: Option<Report> = args.player.as_deref().map(Report::new);
    let mut broken = 0usize;
    for (source, path) in args.files.iter().enumerate() {
        let (src, _) = open(path)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
        let mut reader = Reader::new(src);
        while let Some(item) = reader.read_game() {
            match item {
                Ok(game) => {
                    let r = report
                        .get_or_insert_with(|| Report::new(game.tags.get("White").unwrap_or("?")));
                    r.add(&game, source);
                }
                Err(e) => {
                    broken += 1;
                    eprintln!("{}", problem_line(path, &e));
                }
            }
        }
    }
    let Some(report) = report.filter(|r| r.games() > 0) else {
        return Err(match broken {
            0 => CliError::input("no game to report on"),
            n => CliError {
                message: format!("no game to report on: all {n} broken"),
                code: 1,
            },
        });
    };
    if report.without_player == report.games() {
        return Err(CliError::input(format!(
            "{} played none of the {} game(s): --player takes a name of the \
             [White] and [Black] tags",
            report.player,
            report.games()
        )));
    }
    write_out(&render(&report, args.player.is_none()))?;
    if broken > 0 {
        return Err(CliError {
            message: format!("{broken} broken game(s) left out"),
            code: 1,
        });
    }
    Ok(())
}

fn result_word(points2: u8) -> &'static str {
    match points2 {
        2 => "win",
        1 => "draw",
        _ => "loss",
    }
}

/// The report as text.
fn render(r: &Report, player_guessed: bool) -> String {
    let mut s = String::new();
    let mut line = |l: String| {
        s.push_str(&l);
        s.push('\n');
    };
    let opponents = match r.opponents.as_slice() {
        [one] => one.clone(),
        [] => "nobody".to_string(),
        many => format!("{} opponents", many.len()),
    };
    line(format!(
        "Player: {}{}",
        r.player,
        if player_guessed {
            " (White of the first game; --player chooses)"
        } else {
            ""
        }
    ));
    if r.opponents.len() > 1 {
        line(format!("Opponents: {}", r.opponents.join(", ")));
    }
    for l in score_lines([r.player.as_str(), opponents.as_str()], &r.tally, None) {
        line(l);
    }
    let [w, b] = &r.by_colour;
    line(format!(
        "As White: {} - {} - {}; as Black: {} - {} - {}",
        w.wins, w.losses, w.draws, b.wins, b.losses, b.draws
    ));
    let endings = r.endings();
    if !endings.is_empty() {
        line("Endings (games: as White + as Black):".to_string());
        let width = endings.iter().map(|e| e.reason.len()).max().unwrap_or(0);
        for e in &endings {
            line(format!(
                "  {:<5} {:<width$}  {:>5}  ({} + {})",
                result_word(e.points2),
                e.reason,
                e.games(),
                e.as_white,
                e.as_black
            ));
        }
    }
    if r.tally.draws > 0 {
        line(format!(
            "Draws after {} had scored {:+.2} or more: {}; after {opponents} had: {}",
            r.player,
            f64::from(LEAD_CP) / 100.0,
            r.drawn_from_lead[0],
            r.drawn_from_lead[1]
        ));
    }
    if r.time.iter().flatten().any(|b| b.moves > 0) {
        line("Time a move (seconds) and mean depth, by move number:".to_string());
        line(format!(
            "  {:<8} {:>16} {:>16}",
            "moves", r.player, opponents
        ));
        for (i, first) in BANDS.iter().enumerate() {
            let label = match BANDS.get(i + 1) {
                Some(next) => format!("{first}-{}", next - 1),
                None => format!("{first}-"),
            };
            let cell = |side: usize| {
                let b = &r.time[side][i];
                match (b.mean_seconds(), b.mean_depth()) {
                    (Some(t), Some(d)) => format!("{t:.3} d{d:.1}"),
                    (Some(t), None) => format!("{t:.3}"),
                    _ => "-".to_string(),
                }
            };
            if r.time[0][i].moves + r.time[1][i].moves > 0 {
                line(format!("  {label:<8} {:>16} {:>16}", cell(0), cell(1)));
            }
        }
    }
    if r.without_player > 0 || r.unfinished > 0 {
        line(format!(
            "Left out: {} game(s) without {}, {} without a result",
            r.without_player, r.player, r.unfinished
        ));
    }
    s
}
