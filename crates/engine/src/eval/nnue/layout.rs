//! Which board a network reads ([`Layout`]), and so the shape of its
//! layers: the one place the shapes are written down.

use super::features::{INPUTS, OUTPUT_BUCKETS};

/// Hidden units of the accumulator, per perspective, in a Makruk network
/// (the most of any layout).
pub const HIDDEN: usize = 256;

/// Which board a network reads, and so its inputs and shape.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Makruk and Ouk Chatrang: [`super::features`], khun-bucketed.
    #[default]
    Makruk,
    /// Mak-hot: [`super::makhos`], man and king on each dark square.
    Makhos,
}

impl Layout {
    /// Every layout, in the order of their codes.
    pub const ALL: [Layout; 2] = [Layout::Makruk, Layout::Makhos];

    /// The layout's code in a network file or checkpoint.
    pub fn code(self) -> u32 {
        match self {
            Layout::Makruk => 0,
            Layout::Makhos => 1,
        }
    }

    /// The layout of a code, if there is one.
    pub fn from_code(code: u32) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The layout's place in [`Layout::ALL`] (tables kept per game).
    pub fn index(self) -> usize {
        self.code() as usize
    }

    /// The game's name, as the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Makruk => "makruk",
            Layout::Makhos => "makhos",
        }
    }

    /// The layout of a game's name (see [`Layout::name`]).
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Inputs per perspective: Makruk's khun-bucketed planes; for Mak-hot
    /// 2 sides x (man, king) x 32 dark squares.
    pub const fn inputs(self) -> usize {
        match self {
            Layout::Makruk => INPUTS,
            Layout::Makhos => 2 * 2 * 32,
        }
    }

    /// Hidden units per perspective (a multiple of 16, at most [`HIDDEN`]).
    pub const fn hidden(self) -> usize {
        match self {
            Layout::Makruk => HIDDEN,
            Layout::Makhos => 128,
        }
    }

    /// Output buckets, by the number of pieces on the board.
    pub const fn buckets(self) -> usize {
        match self {
            Layout::Makruk => OUTPUT_BUCKETS,
            Layout::Makhos => 4,
        }
    }

    /// Bytes of the weights and biases, between the description and the
    /// checksum.
    pub(super) const fn payload_bytes(self) -> usize {
        let (i, h, b) = (self.inputs(), self.hidden(), self.buckets());
        2 * (i * h + h + b * 2 * h) + 4 * b
    }
}

// The kernels work in 16-lane steps, and no layout is wider than Makruk's.
const _: () = assert!(Layout::Makhos.hidden() % 16 == 0 && Layout::Makhos.hidden() <= HIDDEN);
