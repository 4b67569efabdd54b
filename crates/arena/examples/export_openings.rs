//! Writes an openings file that `thaiboard match` reads in a form
//! cutechess-cli and Fairy-Stockfish read too (see `thaiboard_arena`'s
//! `portable` module): FENs with a number in the counting field, no
//! comment lines.
//!
//! ```sh
//! cargo run -p thaiboard-arena --example export_openings -- makruk epd data/openings/makruk.epd > data/openings/makruk-portable.epd
//! cargo run -p thaiboard-arena --example export_openings -- makruk pgn data/openings/makruk.epd > data/openings/makruk-portable.pgn
//! cargo run -p thaiboard-arena --example export_openings -- cambodian epd data/openings/cambodian.epd > data/openings/cambodian-portable.epd
//! cargo run -p thaiboard-arena --example export_openings -- cambodian pgn data/openings/cambodian.epd > data/openings/cambodian-portable.pgn
//! ```
//!
//! Arguments: game (`makruk` or `cambodian`), format (`epd` or `pgn`),
//! the openings file.

use arena::portable::{Format, write};
use games::GameKind;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: export_openings makruk|cambodian epd|pgn FILE";
    let [game, format, file] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let run = || -> Result<String, String> {
        let kind = GameKind::from_names(game, None).map_err(|e| e.to_string())?;
        let format: Format = format.parse()?;
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let openings =
            arena::parse_openings(kind, &text, None).map_err(|e| format!("{file}: {e}"))?;
        write(kind, &openings, format)
    };
    match run() {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("export_openings: {e}");
            std::process::exit(1);
        }
    }
}
