//! Adapters from the rules crates (`makruk`, `makhos`) to [`crate::rules::GameRules`].

use crate::rules::{CountInfo, GameRules, LegalMove, Outcome, SearchPosition, Side, Variant};

fn side_of_makruk(c: makruk::Color) -> Side {
    match c {
        makruk::Color::White => Side::White,
        makruk::Color::Black => Side::Black,
    }
}

fn makruk_color(s: Side) -> makruk::Color {
    match s {
        Side::White => makruk::Color::White,
        Side::Black => makruk::Color::Black,
    }
}

/// Makruk or Ouk Chatrang, with board's-honour counts declared by the players.
#[derive(Clone)]
pub struct MakrukRules {
    pos: makruk::Position,
    variant: Variant,
}

/// A Makruk or Ouk Chatrang game from the start position.
pub fn makruk_game(variant: Variant) -> Result<Box<dyn GameRules>, String> {
    let v = match variant {
        Variant::Makruk => makruk::Variant::Makruk,
        Variant::Cambodian => makruk::Variant::Cambodian,
        other => return Err(format!("{other} is not a Makruk variant")),
    };
    let mut pos = makruk::Position::new(v);
    pos.set_counting_mode(makruk::CountingMode::Declared);
    Ok(Box::new(MakrukRules { pos, variant }))
}

impl MakrukRules {
    fn legal(&self, m: makruk::Move) -> LegalMove {
        LegalMove {
            uci: m.to_uci(),
            san: self.pos.san(m),
            path: vec![m.from().to_string(), m.to().to_string()],
        }
    }
}

impl GameRules for MakrukRules {
    fn variant(&self) -> Variant {
        self.variant
    }
    fn turn(&self) -> Side {
        side_of_makruk(self.pos.turn())
    }
    fn fen(&self) -> String {
        self.pos.fen()
    }
    fn legal_moves(&self) -> Vec<LegalMove> {
        self.pos
            .legal_moves()
            .iter()
            .map(|m| self.legal(*m))
            .collect()
    }
    fn parse(&self, text: &str) -> Result<LegalMove, String> {
        let text = text.trim();
        match self.pos.parse_uci(text) {
            Ok(m) => Ok(self.legal(m)),
            Err(uci_err) => match self.pos.parse_san(text) {
                Ok(m) => Ok(self.legal(m)),
                Err(san_err) => {
                    if text.len() >= 4
                        && text.as_bytes()[1].is_ascii_digit()
                        && text.as_bytes()[3].is_ascii_digit()
                    {
                        Err(uci_err.to_string())
                    } else {
                        Err(san_err.to_string())
                    }
                }
            },
        }
    }
    fn play(&mut self, uci: &str) -> Result<(), String> {
        let m = self.pos.parse_uci(uci).map_err(|e| e.to_string())?;
        self.pos.play_unchecked(m);
        Ok(())
    }
    fn outcome(&self) -> Outcome {
        match self.pos.state() {
            makruk::State::Ongoing => Outcome::Ongoing,
            makruk::State::Checkmate => Outcome::Win(self.turn().other(), "checkmate"),
            makruk::State::Stalemate => Outcome::Draw("stalemate"),
            makruk::State::CountingDraw => Outcome::Draw("counting"),
            makruk::State::InsufficientMaterial => Outcome::Draw("insufficient_material"),
        }
    }
    fn can_win(&self, side: Side) -> bool {
        self.pos.by_color(makruk_color(side)).count() > 1
    }
    fn count(&self) -> Option<CountInfo> {
        self.pos.counting().map(|c| CountInfo {
            side: c.counter.map(side_of_makruk),
            kind: match c.kind {
                makruk::CountKind::BoardsHonour => "board",
                makruk::CountKind::PiecesHonour => "pieces",
            },
            ply: c.ply,
            limit: c.limit,
        })
    }
    fn can_start_count(&self, side: Side) -> bool {
        self.pos.may_start_board_count(makruk_color(side))
    }
    fn can_stop_count(&self, side: Side) -> bool {
        self.pos.counting().is_some_and(|c| {
            c.kind == makruk::CountKind::BoardsHonour && c.counter == Some(makruk_color(side))
        })
    }
    fn start_count(&mut self, side: Side) -> Result<(), String> {
        self.pos
            .start_board_count(makruk_color(side))
            .map_err(|e| e.to_string())
    }
    fn stop_count(&mut self, side: Side) -> Result<(), String> {
        self.pos
            .stop_board_count(makruk_color(side))
            .map_err(|e| e.to_string())
    }
    fn box_clone(&self) -> Box<dyn GameRules> {
        Box::new(self.clone())
    }
    fn search_position(&self) -> Option<SearchPosition> {
        Some(SearchPosition::Makruk(self.pos.clone()))
    }
}

/// Mak-hot with its rule option, history kept for the repetition rule.
#[derive(Clone)]
pub struct MakhosRules {
    game: makhos::Game,
}

/// A Mak-hot game from the start position with rule option `option`.
pub fn makhos_game(option: &str) -> Result<Box<dyn GameRules>, String> {
    let rules: makhos::Rules = option
        .parse()
        .map_err(|e: makhos::RulesParseError| e.to_string())?;
    Ok(Box::new(MakhosRules {
        game: makhos::Game::new(rules),
    }))
}

fn makhos_legal(m: &makhos::Move) -> LegalMove {
    LegalMove {
        uci: m.to_engine(),
        san: m.to_algebraic(),
        path: std::iter::once(m.from())
            .chain(m.path())
            .map(|s| s.to_string())
            .collect(),
    }
}

impl GameRules for MakhosRules {
    fn variant(&self) -> Variant {
        Variant::Makhos
    }
    fn turn(&self) -> Side {
        match self.game.position().turn() {
            makhos::Color::White => Side::White,
            makhos::Color::Black => Side::Black,
        }
    }
    fn fen(&self) -> String {
        self.game.position().to_string()
    }
    fn legal_moves(&self) -> Vec<LegalMove> {
        self.game.legal_moves().iter().map(makhos_legal).collect()
    }
    fn parse(&self, text: &str) -> Result<LegalMove, String> {
        self.game
            .position()
            .parse_move(self.game.rules(), text.trim())
            .map(|m| makhos_legal(&m))
            .map_err(|e| e.to_string())
    }
    fn play(&mut self, uci: &str) -> Result<(), String> {
        self.game
            .play_text(uci)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    fn outcome(&self) -> Outcome {
        match self.game.outcome() {
            None => Outcome::Ongoing,
            Some(o) => match o.winner {
                Some(w) => Outcome::Win(
                    match w {
                        makhos::Color::White => Side::White,
                        makhos::Color::Black => Side::Black,
                    },
                    o.reason.name(),
                ),
                None => Outcome::Draw(o.reason.name()),
            },
        }
    }
    fn box_clone(&self) -> Box<dyn GameRules> {
        Box::new(self.clone())
    }
    fn search_position(&self) -> Option<SearchPosition> {
        Some(SearchPosition::Makhos(self.game.clone()))
    }
}

/// Rules from any position (analysis boards): a Makruk / Ouk Chatrang FEN,
/// counted automatically as in Fairy-Stockfish, or a Mak-hot position text
/// with rule option `option`.
pub fn rules_from_position(
    variant: Variant,
    option: &str,
    text: &str,
) -> Result<Box<dyn GameRules>, String> {
    if !variant.rule_options().contains(&option) {
        return Err(format!(
            "unknown rule option {option:?} for {variant}; expected one of {:?}",
            variant.rule_options()
        ));
    }
    match variant {
        Variant::Makruk | Variant::Cambodian => {
            let v = if variant == Variant::Makruk {
                makruk::Variant::Makruk
            } else {
                makruk::Variant::Cambodian
            };
            let pos = makruk::Position::from_fen(v, text).map_err(|e| e.to_string())?;
            Ok(Box::new(MakrukRules { pos, variant }))
        }
        Variant::Makhos => {
            let rules: makhos::Rules = option
                .parse()
                .map_err(|e: makhos::RulesParseError| e.to_string())?;
            let pos: makhos::Position = text
                .parse()
                .map_err(|e: makhos::PositionTextError| e.to_string())?;
            Ok(Box::new(MakhosRules {
                game: makhos::Game::from_position(pos, rules),
            }))
        }
        Variant::Test => Err("the test game has no positions to set up".to_string()),
    }
}
