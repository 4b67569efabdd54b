//! Colours, piece roles and pieces.

use std::fmt;

/// A side: White moves first and starts on ranks 1 to 3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The second side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Picks `white` or `black` by colour.
    #[inline]
    pub fn fold<T>(self, white: T, black: T) -> T {
        match self {
            Color::White => white,
            Color::Black => black,
        }
    }

    /// `w` or `b`, as in FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.fold("white", "black"))
    }
}

/// The kind of a piece, whatever its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Bia: one square forward, captures one square diagonally forward.
    Pawn = 0,
    /// Met: one square diagonally (also what a promoted bia becomes).
    Met = 1,
    /// Khon: one square diagonally or one square straight forward.
    Khon = 2,
    /// Ma: the chess knight.
    Knight = 3,
    /// Ruea: the chess rook.
    Rook = 4,
    /// Khun: one square in any direction.
    King = 5,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Met,
        Role::Khon,
        Role::Knight,
        Role::Rook,
        Role::King,
    ];

    /// 0 to 5, in the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The Fairy-Stockfish letter in lower case: `p m s n r k`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Met => 'm',
            Role::Khon => 's',
            Role::Knight => 'n',
            Role::Rook => 'r',
            Role::King => 'k',
        }
    }

    /// The upper-case letter in the given convention (`M`/`S` or `Q`/`B`).
    pub const fn upper_char(self, letters: Letters) -> char {
        match (self, letters) {
            (Role::Met, Letters::SchemingMind) => 'Q',
            (Role::Khon, Letters::SchemingMind) => 'B',
            (Role::Pawn, _) => 'P',
            (Role::Met, _) => 'M',
            (Role::Khon, _) => 'S',
            (Role::Knight, _) => 'N',
            (Role::Rook, _) => 'R',
            (Role::King, _) => 'K',
        }
    }

    /// Reads a piece letter in any accepted convention, either case
    /// (`q` and `b` are read as met and khon).
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'm' | 'q' => Role::Met,
            's' | 'b' => Role::Khon,
            'n' => Role::Knight,
            'r' => Role::Rook,
            'k' => Role::King,
            _ => return None,
        })
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "bia",
            Role::Met => "met",
            Role::Khon => "khon",
            Role::Knight => "ma",
            Role::Rook => "ruea",
            Role::King => "khun",
        })
    }
}

/// Which piece letters notation uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Letters {
    /// Fairy-Stockfish letters: M for met, S for khon (the default).
    #[default]
    Fsf,
    /// SchemingMind and PlayOK letters: Q for met, B for khon.
    SchemingMind,
}

/// A piece: a colour and a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White.
    pub fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }
}

/// The rule set being played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Makruk, Thai chess.
    #[default]
    Makruk,
    /// Ouk Chatrang, Cambodian chess: Makruk plus the king's first-move leap
    /// and the met's first-move double step.
    Cambodian,
}

impl Variant {
    /// The name used in UCI (`UCI_Variant`) and PGN (`[Variant]`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Makruk => "makruk",
            Variant::Cambodian => "cambodian",
        }
    }

    /// The name for people: `Makruk` or `Ouk Chatrang`.
    pub const fn display_name(self) -> &'static str {
        match self {
            Variant::Makruk => "Makruk",
            Variant::Cambodian => "Ouk Chatrang",
        }
    }

    /// Reads a variant name, ignoring case (`makruk`, `cambodian`, also `ouk`/`kambodian`).
    pub fn from_name(name: &str) -> Option<Variant> {
        match name.trim().to_ascii_lowercase().as_str() {
            "makruk" | "thai" => Some(Variant::Makruk),
            "cambodian" | "kambodian" | "ouk" | "ouk chatrang" | "ouk-chatrang" => {
                Some(Variant::Cambodian)
            }
            _ => None,
        }
    }

    /// The start position in FEN.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Makruk => "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            Variant::Cambodian => "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
