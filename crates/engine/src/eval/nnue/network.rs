//! The quantised network and its file format.
//!
//! # File format (`.nnue`, version 3)
//!
//! All numbers little-endian.
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `THAINNUE` |
//! | 4 | format version (3) |
//! | 4 x 6 | shape and scales: inputs, hidden units, output buckets, QA, QB, output scale |
//! | 4 | what the output is added to ([`Base::code`]: 0 nothing, 1 the classical sum); absent in version 1, whose networks add to nothing |
//! | 4 | the input layout ([`Layout::code`]: 0 Makruk, 1 Mak-hot); absent in versions 1 and 2, whose networks are Makruk's |
//! | 4 | length of the description, at most [`MAX_DESCRIPTION`] |
//! | n | description (UTF-8: how the network was made) |
//! | 2 x inputs x hidden | feature weights (int16), one row of `hidden` per input |
//! | 2 x hidden | feature biases (int16) |
//! | 2 x buckets x 2 x hidden | output weights (int16), per bucket the side to move's half first |
//! | 4 x buckets | output biases (int32) |
//! | 4 | CRC-32 of every byte before it |
//!
//! The shape must be the one this build computes for the layout
//! ([`Layout::inputs`], [`Layout::hidden`], [`Layout::buckets`], and
//! [`QA`], [`QB`], [`OUTPUT_SCALE`]); a file that is cut short, too long,
//! damaged (checksum) or of another shape is refused with a message saying
//! which.

use super::base::Base;
pub use super::layout::{HIDDEN, Layout};
use super::simd::{self, Kernel};
use std::fmt;
use std::path::Path;

/// The accumulator's scale: a float activation of 1.0 is `QA`, where the
/// clipped ReLU saturates. As large as int16 allows: 32 feature weights
/// of at most 1.98 (the trainer's clip) and a bias stay below 32,767.
pub const QA: i32 = 400;
/// The output weights' scale: output weights of at most 1.98 times `QB`,
/// times `QA`, summed over both perspectives' units, stay within int32.
pub const QB: i32 = 1024;
/// The largest weight a trained network may have, in hundredths (the
/// trainer clips to it): the bound the scales above are chosen for.
pub const WEIGHT_CLIP_HUNDREDTHS: i32 = 198;

// A full board's 32 feature weights and the bias fit an int16 unit.
const _: () = assert!(33 * QA * WEIGHT_CLIP_HUNDREDTHS / 100 < i16::MAX as i32);
// The output layer's sum over both perspectives fits int32.
const _: () = assert!(
    (2 * HIDDEN as i64) * (QA as i64) * (QB as i64 * WEIGHT_CLIP_HUNDREDTHS as i64 / 100 + 1)
        < i32::MAX as i64
);

/// Centipawns per unit of the network's float output.
pub const OUTPUT_SCALE: i32 = 400;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"THAINNUE";
/// The file format version this build writes (it also reads version 1).
pub const VERSION: u32 = 3;
/// The longest description a file may carry, in bytes.
pub const MAX_DESCRIPTION: usize = 64 * 1024;
/// Bytes before the description: magic, version, six shape numbers, the
/// base, the layout, the description's length.
const HEADER_BYTES: usize = 8 + 4 + 6 * 4 + 4 + 4 + 4;
/// The same in a version 2 file (no layout).
const HEADER_BYTES_V2: usize = HEADER_BYTES - 4;
/// The same in a version 1 file (no base, no layout).
const HEADER_BYTES_V1: usize = HEADER_BYTES - 8;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`].
    NotANetwork,
    /// A format version this build does not read.
    Version(u32),
    /// A base code this build does not know.
    Base(u32),
    /// A layout code this build does not know.
    Layout(u32),
    /// A network for another game than the one asked for: (the file's,
    /// the one asked for).
    Game(Layout, Layout),
    /// A shape or scale other than this build's: (field, in the file, here).
    Shape(&'static str, u32, u32),
    /// The description is longer than [`MAX_DESCRIPTION`] or not UTF-8.
    Description,
    /// The file ends early: (its length, the length its header calls for).
    Truncated(usize, usize),
    /// Bytes after the checksum: (its length, the expected length).
    TrailingBytes(usize, usize),
    /// The checksum does not match: (stored, computed).
    Checksum(u32, u32),
    /// The file could not be read.
    Io(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => {
                write!(f, "not a thaiboard network (no THAINNUE header)")
            }
            NetworkError::Version(v) => write!(
                f,
                "network format version {v}, but this build reads versions 1 to {VERSION}"
            ),
            NetworkError::Base(code) => write!(
                f,
                "the network adds its output to base {code}, which this build does not know \
                 (0 nothing, 1 the classical sum)"
            ),
            NetworkError::Layout(code) => write!(
                f,
                "the network's input layout {code} is unknown to this build (0 Makruk, 1 Mak-hot)"
            ),
            NetworkError::Game(file, wanted) => write!(
                f,
                "the network is for {}, not {}",
                file.name(),
                wanted.name()
            ),
            NetworkError::Shape(what, file, here) => write!(
                f,
                "the network's {what} is {file}, but this build's is {here}"
            ),
            NetworkError::Description => write!(
                f,
                "the network's description is over {MAX_DESCRIPTION} bytes or not UTF-8"
            ),
            NetworkError::Truncated(len, want) => write!(
                f,
                "the network file is cut short: {len} bytes where its header calls for {want}"
            ),
            NetworkError::TrailingBytes(len, want) => write!(
                f,
                "the network file has {} bytes after its checksum ({len} bytes, {want} expected)",
                len - want
            ),
            NetworkError::Checksum(stored, computed) => write!(
                f,
                "the network file is damaged: checksum {stored:08x} stored, {computed:08x} computed"
            ),
            NetworkError::Io(e) => write!(f, "cannot read the network file: {e}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A quantised network: the feature transformer (int16 weights and biases
/// into the layout's hidden units per perspective) and one output neuron
/// per material bucket over both perspectives' clipped units.
#[derive(Clone, PartialEq)]
pub struct Network {
    /// The board it reads, which fixes the shape: `inputs`, `hidden` and
    /// `buckets` below are its [`Layout::inputs`], [`Layout::hidden`] and
    /// [`Layout::buckets`].
    pub layout: Layout,
    /// `inputs` rows of `hidden` weights.
    pub feature_weights: Vec<i16>,
    /// `hidden` biases.
    pub feature_biases: Vec<i16>,
    /// `buckets` rows of `2 * hidden` weights: the side to move's units
    /// first, then the other side's.
    pub output_weights: Vec<i16>,
    /// `buckets` biases, in units of `QA * QB`.
    pub output_biases: Vec<i32>,
    /// What the output is added to.
    pub base: Base,
    /// How the network was made (training data, command, epochs).
    pub description: String,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:?})", self.description)
    }
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn u32(&mut self) -> u32 {
        let (head, rest) = self.0.split_at(4);
        self.0 = rest;
        u32::from_le_bytes(head.try_into().expect("4 bytes"))
    }
    fn i16s(&mut self, n: usize) -> Vec<i16> {
        let (head, rest) = self.0.split_at(2 * n);
        self.0 = rest;
        head.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect()
    }
    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| self.u32() as i32).collect()
    }
}

impl Network {
    /// A Makruk network whose every weight and bias is zero (it scores
    /// every position 0); training and tests start from its shape.
    pub fn zeroed() -> Network {
        Network::zeroed_for(Layout::Makruk)
    }

    /// A network of `layout` whose every weight and bias is zero.
    pub fn zeroed_for(layout: Layout) -> Network {
        let (i, h, b) = (layout.inputs(), layout.hidden(), layout.buckets());
        Network {
            layout,
            feature_weights: vec![0; i * h],
            feature_biases: vec![0; h],
            output_weights: vec![0; b * 2 * h],
            output_biases: vec![0; b],
            base: Base::Zero,
            description: String::new(),
        }
    }

    /// Refuses a network of another layout than `wanted`.
    pub fn check_layout(&self, wanted: Layout) -> Result<(), NetworkError> {
        if self.layout == wanted {
            Ok(())
        } else {
            Err(NetworkError::Game(self.layout, wanted))
        }
    }

    /// The weights of feature `f`: one int16 per hidden unit.
    #[inline]
    pub fn feature_row(&self, f: usize) -> &[i16] {
        let h = self.layout.hidden();
        &self.feature_weights[f * h..(f + 1) * h]
    }

    /// The score in centipawns, from the side to move's view, of the
    /// accumulators `us` (the side to move's) and `them`, in material
    /// bucket `bucket`.
    #[inline]
    pub fn output(&self, kernel: Kernel, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.layout.hidden();
        let w = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let max = QA as i16;
        let sum = simd::clipped_dot(kernel, us, &w[..h], max)
            .wrapping_add(simd::clipped_dot(kernel, them, &w[h..], max))
            .wrapping_add(self.output_biases[bucket]);
        (i64::from(sum) * i64::from(OUTPUT_SCALE) / i64::from(QA * QB)) as i32
    }

    /// Reads a network from the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        if bytes.len() < HEADER_BYTES_V1 {
            return Err(NetworkError::Truncated(bytes.len(), HEADER_BYTES_V1));
        }
        let mut r = Reader(&bytes[MAGIC.len()..]);
        let version = r.u32();
        let header = match version {
            1 => HEADER_BYTES_V1,
            2 => HEADER_BYTES_V2,
            VERSION => HEADER_BYTES,
            _ => return Err(NetworkError::Version(version)),
        };
        if bytes.len() < header {
            return Err(NetworkError::Truncated(bytes.len(), header));
        }
        let shape: [u32; 6] = std::array::from_fn(|_| r.u32());
        let base = if version == 1 {
            Base::Zero
        } else {
            let code = r.u32();
            Base::from_code(code).ok_or(NetworkError::Base(code))?
        };
        let layout = if version < 3 {
            Layout::Makruk
        } else {
            let code = r.u32();
            Layout::from_code(code).ok_or(NetworkError::Layout(code))?
        };
        let here = [
            ("input count", layout.inputs() as u32),
            ("hidden unit count", layout.hidden() as u32),
            ("output bucket count", layout.buckets() as u32),
            ("QA scale", QA as u32),
            ("QB scale", QB as u32),
            ("output scale", OUTPUT_SCALE as u32),
        ];
        for (file, (what, here)) in shape.into_iter().zip(here) {
            if file != here {
                return Err(NetworkError::Shape(what, file, here));
            }
        }
        let described = r.u32() as usize;
        if described > MAX_DESCRIPTION {
            return Err(NetworkError::Description);
        }
        let want = header + described + layout.payload_bytes() + 4;
        if bytes.len() < want {
            return Err(NetworkError::Truncated(bytes.len(), want));
        }
        if bytes.len() > want {
            return Err(NetworkError::TrailingBytes(bytes.len(), want));
        }
        let stored = u32::from_le_bytes(bytes[want - 4..].try_into().expect("4 bytes"));
        let computed = crc32fast::hash(&bytes[..want - 4]);
        if stored != computed {
            return Err(NetworkError::Checksum(stored, computed));
        }
        let description = std::str::from_utf8(&bytes[header..header + described])
            .map_err(|_| NetworkError::Description)?
            .to_string();
        let mut r = Reader(&bytes[header + described..]);
        let (i, h, b) = (layout.inputs(), layout.hidden(), layout.buckets());
        Ok(Network {
            layout,
            feature_weights: r.i16s(i * h),
            feature_biases: r.i16s(h),
            output_weights: r.i16s(b * 2 * h),
            output_biases: r.i32s(b),
            base,
            description,
        })
    }

    /// The network as the bytes of a file (see the module's format).
    pub fn to_bytes(&self) -> Vec<u8> {
        let l = self.layout;
        let mut out =
            Vec::with_capacity(HEADER_BYTES + self.description.len() + l.payload_bytes() + 4);
        out.extend_from_slice(MAGIC);
        for n in [
            VERSION,
            l.inputs() as u32,
            l.hidden() as u32,
            l.buckets() as u32,
            QA as u32,
            QB as u32,
            OUTPUT_SCALE as u32,
            self.base.code(),
            l.code(),
            self.description.len() as u32,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(self.description.as_bytes());
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_biases)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path)
            .map_err(|e| NetworkError::Io(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Network {
        let mut net = Network::zeroed();
        for (i, w) in net.feature_weights.iter_mut().enumerate() {
            *w = (i % 251) as i16 - 125;
        }
        net.output_biases[3] = -77_000;
        net.description = "test net".into();
        net
    }

    #[test]
    fn a_network_survives_writing_and_reading() {
        let mut net = sample();
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net.clone()));
        net.base = Base::Classical;
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    /// Where the base's code sits (versions 2 and 3); the layout's follows.
    const BASE_AT: usize = 8 + 4 + 6 * 4;

    /// `bytes` of the current version rewritten as `version` (1 or 2):
    /// without the layout, and for version 1 without the base.
    fn older(bytes: &[u8], version: u32) -> Vec<u8> {
        let from = if version == 1 { BASE_AT } else { BASE_AT + 4 };
        let mut old = bytes[..from].to_vec();
        old[8..12].copy_from_slice(&version.to_le_bytes());
        old.extend_from_slice(&bytes[BASE_AT + 8..bytes.len() - 4]);
        let crc = crc32fast::hash(&old);
        old.extend_from_slice(&crc.to_le_bytes());
        old
    }

    #[test]
    fn older_networks_are_makruk_and_version_1_adds_to_nothing() {
        let mut net = sample();
        assert_eq!(
            Network::from_bytes(&older(&net.to_bytes(), 1)),
            Ok(net.clone())
        );
        net.base = Base::Classical;
        assert_eq!(Network::from_bytes(&older(&net.to_bytes(), 2)), Ok(net));
    }

    #[test]
    fn a_mak_hot_network_survives_writing_and_reading() {
        let mut net = Network::zeroed_for(Layout::Makhos);
        for (i, w) in net.feature_weights.iter_mut().enumerate() {
            *w = (i % 97) as i16 - 48;
        }
        net.output_biases[1] = 1234;
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
        assert!(bytes.len() < Network::zeroed().to_bytes().len() / 20);
        assert_eq!(net.check_layout(Layout::Makhos), Ok(()));
        let err = net.check_layout(Layout::Makruk).unwrap_err();
        assert_eq!(err.to_string(), "the network is for makhos, not makruk");
        // A Makruk header on a Mak-hot body: the shape says which.
        let mut wrong = bytes.clone();
        wrong[BASE_AT + 4] = 0;
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetworkError::Shape("input count", 128, 3072))
        ));
        wrong[BASE_AT + 4] = 9;
        let err = Network::from_bytes(&wrong).unwrap_err();
        assert_eq!(err, NetworkError::Layout(9));
        assert!(err.to_string().contains("layout 9"), "{err}");
    }

    #[test]
    fn an_unknown_base_is_refused() {
        let mut bytes = sample().to_bytes();
        bytes[BASE_AT] = 5;
        let err = Network::from_bytes(&bytes).unwrap_err();
        assert_eq!(err, NetworkError::Base(5));
        assert!(err.to_string().contains("base 5"), "{err}");
    }

    #[test]
    fn a_cut_short_network_is_refused() {
        let bytes = sample().to_bytes();
        for len in [0, 5, 20, HEADER_BYTES + 3, bytes.len() / 2, bytes.len() - 1] {
            let err = Network::from_bytes(&bytes[..len]).unwrap_err();
            assert!(
                matches!(err, NetworkError::Truncated(..) | NetworkError::NotANetwork),
                "{len} bytes: {err}"
            );
        }
        let msg = Network::from_bytes(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .to_string();
        assert!(msg.contains("cut short"), "{msg}");
    }

    #[test]
    fn a_damaged_network_is_refused() {
        let bytes = sample().to_bytes();
        // One flipped bit anywhere in the weights is caught by the checksum.
        for at in [HEADER_BYTES + 8, bytes.len() / 2, bytes.len() - 5] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let err = Network::from_bytes(&bad).unwrap_err();
            assert!(
                matches!(err, NetworkError::Checksum(..)),
                "byte {at}: {err}"
            );
            assert!(err.to_string().contains("damaged"));
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetworkError::TrailingBytes(..))
        ));
        let mut other_version = bytes.clone();
        other_version[8] = 9;
        assert_eq!(
            Network::from_bytes(&other_version),
            Err(NetworkError::Version(9))
        );
        let mut other_shape = bytes.clone();
        other_shape[16] ^= 1;
        assert!(matches!(
            Network::from_bytes(&other_shape),
            Err(NetworkError::Shape("hidden unit count", ..))
        ));
        assert_eq!(
            Network::from_bytes(b"PK\x03\x04 a zip file"),
            Err(NetworkError::NotANetwork)
        );
    }
}
