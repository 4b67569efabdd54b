//! The table file format (`.thtb`), our own.
//!
//! A table file holds one entry per position of one material signature, in the order of
//! that table's index, cut into blocks of [`BLOCK_ENTRIES`] entries that are compressed
//! one by one with zstd, so that a probe decompresses one block only. An entry is one
//! byte, or two (a little-endian `u16`) in a file of format version 2 that says so: a
//! table whose distances do not fit a byte (what an entry means is the metric's
//! business, see the variant's module). The file is memory-mapped for probing (after
//! the design of the Syzygy tables: normalise, index, find the block, decompress the
//! block).
//!
//! Layout, all integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `THAITB\r\n` |
//! | 8 | 2 | format version: 1 ([`VERSION_ONE_BYTE`]) or 2 ([`VERSION`]) |
//! | 10 | 1 | variant ([`Variant::code`]) |
//! | 11 | 1 | rule option (Mak-hot: 0 `default`, 1 `no-reverse`; Makruk: 0) |
//! | 12 | 16 | material signature, zero-padded (its meaning belongs to the variant) |
//! | 28 | 4 | metric code (what an entry means, and for Makruk the index layout; defined by the variant's module, see below) |
//! | 32 | 8 | number of entries (positions) |
//! | 40 | 4 | entries per block |
//! | 44 | 4 | number of blocks `n` |
//! | 48 | 4 | CRC-32 of the uncompressed entries |
//! | 52 | 1 | version 1: zero; version 2: bytes per entry, 1 or 2 ([`Header::entry_bytes`]) |
//! | 53 | 7 | reserved, zero |
//! | 60 | 4 | CRC-32 of bytes 0..60 |
//! | 64 | 16·n | block index: per block the offset of its compressed bytes (u64), their length (u32) and their CRC-32 |
//! | 64+16·n | ... | the compressed blocks, back to back, to the end of the file |
//!
//! Makruk and Ouk Chatrang metric codes (`makruk::tables`): 3 distance to the end of the
//! phase, one byte, full index (every square for every piece, `64ⁿ · 2` entries); 4 the
//! same in two-byte entries; 5 and 6 the same over the folded index of the five-piece
//! tables (`makruk::index`: one entry per class of symmetric positions, the white khun in
//! the triangle a1–d1–d4, `10 · 64⁴ · 2` entries). The index is thus named by the metric
//! code, and the entry count must be the one its layout gives; no format version was
//! needed (a program that knows only codes 3 and 4 leaves a folded file alone). Mak-hot
//! uses its own codes (`makhos`).
//!
//! A file of one-byte entries is always written as version 1, byte for byte as before
//! version 2 existed (so older programs still read it); version 2 is written only for
//! two-byte entries, which an older program refuses by their version number instead of
//! misreading them. A version-1 file reads as one byte per entry.
//!
//! Every block's CRC is checked when the block is decompressed, so a corrupted file is
//! refused at the probe that touches it (only checked blocks are kept in the
//! [`crate::block_cache`], so a damaged block is refused at every probe that needs it); opening a file checks the header, its CRC and
//! that the index fits the file, so a truncated file is refused at once; [`TableFile::verify`]
//! decompresses everything and checks the whole-table CRC.

use crate::block_cache::{BlockCache, FileId, next_file_id};
pub use crate::variant::Variant;
use core::fmt;
use memmap2::Mmap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"THAITB\r\n";
/// The newest format version, written for tables of two-byte entries (it carries the
/// entry width at byte 52).
pub const VERSION: u16 = 2;
/// The first format version: one byte per entry. Still written for one-byte tables and
/// read as ever.
pub const VERSION_ONE_BYTE: u16 = 1;
/// The widest entry a file holds, in bytes.
pub const MAX_ENTRY_BYTES: u8 = 2;
/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 64;
/// Size of one block-index entry in bytes.
pub const INDEX_ENTRY_LEN: usize = 16;
/// Positions (entries) per block: small enough that a probe decompresses quickly.
pub const BLOCK_ENTRIES: u32 = 32 * 1024;
/// Length of the material-signature field.
pub const SIGNATURE_LEN: usize = 16;

/// What a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game.
    pub variant: Variant,
    /// The rule option (see the layout table).
    pub rules: u8,
    /// The material signature, zero-padded.
    pub signature: [u8; SIGNATURE_LEN],
    /// What the stored entries mean.
    pub metric: u32,
    /// Number of positions.
    pub entries: u64,
    /// Bytes per entry: 1, or 2 for a little-endian `u16` (format version 2).
    pub entry_bytes: u8,
}

/// Why a table file was refused.
#[derive(Debug)]
pub enum TableError {
    /// The file could not be read or written.
    Io {
        /// Which file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is not a table, or its header is damaged.
    BadHeader {
        /// Which file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file is shorter than its index says (cut short while copying or writing).
    Truncated {
        /// Which file.
        path: PathBuf,
        /// Bytes the index needs.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// A block or the whole table does not match its stored checksum.
    Corrupt {
        /// Which file.
        path: PathBuf,
        /// Where: a block number or "table".
        what: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TableError::BadHeader { path, reason } => {
                write!(f, "{}: not a valid table file: {reason}", path.display())
            }
            TableError::Truncated {
                path,
                expected,
                actual,
            } => write!(
                f,
                "{}: truncated: {actual} bytes, the index needs {expected}",
                path.display()
            ),
            TableError::Corrupt { path, what } => write!(
                f,
                "{}: corrupted: {what} does not match its checksum",
                path.display()
            ),
        }
    }
}

impl std::error::Error for TableError {}

fn io_error(path: &Path, error: std::io::Error) -> TableError {
    TableError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes a table: header, block index and compressed blocks. `entries` holds
/// `header.entries` entries of `header.entry_bytes` bytes each (two-byte entries
/// little-endian). The file appears under its final name only once complete (written to
/// `NAME.part`, then renamed), so an interrupted generation never leaves a file that
/// looks finished.
pub fn write_table(path: &Path, header: &Header, entries: &[u8]) -> Result<u64, TableError> {
    let width = header.entry_bytes;
    if !(1..=MAX_ENTRY_BYTES).contains(&width)
        || entries.len() as u64 != header.entries * u64::from(width)
    {
        return Err(io_error(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!(
                    "{} bytes do not make {} entries of {width} bytes",
                    entries.len(),
                    header.entries
                ),
            ),
        ));
    }
    let block_len = BLOCK_ENTRIES as usize * usize::from(width);
    let level = header.variant.zstd_level();
    let blocks: Vec<Vec<u8>> = entries
        .chunks(block_len)
        .map(|chunk| zstd::bulk::compress(chunk, level).map_err(|e| io_error(path, e)))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(HEADER_LEN + blocks.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(&MAGIC);
    let version = if width == 1 {
        VERSION_ONE_BYTE
    } else {
        VERSION
    };
    out.extend_from_slice(&version.to_le_bytes());
    out.push(header.variant.code());
    out.push(header.rules);
    out.extend_from_slice(&header.signature);
    out.extend_from_slice(&header.metric.to_le_bytes());
    out.extend_from_slice(&header.entries.to_le_bytes());
    out.extend_from_slice(&BLOCK_ENTRIES.to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(entries).to_le_bytes());
    // Version 1 keeps byte 52 zero, as it always was.
    out.push(if version == VERSION_ONE_BYTE {
        0
    } else {
        width
    });
    out.extend_from_slice(&[0u8; 7]);
    let header_crc = crc32fast::hash(&out);
    out.extend_from_slice(&header_crc.to_le_bytes());
    debug_assert_eq!(out.len(), HEADER_LEN);
    let mut offset = (HEADER_LEN + INDEX_ENTRY_LEN * blocks.len()) as u64;
    for block in &blocks {
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&(block.len() as u32).to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
        offset += block.len() as u64;
    }
    for block in &blocks {
        out.extend_from_slice(block);
    }
    let part = path.with_extension("thtb.part");
    let mut file = File::create(&part).map_err(|e| io_error(&part, e))?;
    file.write_all(&out).map_err(|e| io_error(&part, e))?;
    file.sync_all().map_err(|e| io_error(&part, e))?;
    std::fs::rename(&part, path).map_err(|e| io_error(path, e))?;
    Ok(out.len() as u64)
}

/// One block's place in the file.
#[derive(Copy, Clone, Debug)]
struct BlockEntry {
    offset: u64,
    len: u32,
    crc: u32,
}

/// An open, memory-mapped table file.
pub struct TableFile {
    path: PathBuf,
    map: Mmap,
    header: Header,
    block_entries: u32,
    table_crc: u32,
    blocks: Vec<BlockEntry>,
    /// Blocks decompressed before, shared with other files and threads (search, server):
    /// a probe into one of them decompresses nothing.
    cache: Arc<BlockCache>,
    /// This open file's name in `cache`.
    id: FileId,
}

impl Drop for TableFile {
    fn drop(&mut self) {
        self.cache.forget(self.id);
    }
}

impl fmt::Debug for TableFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TableFile")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl TableFile {
    /// Opens and maps a table, checking its header, header CRC and that the file holds
    /// every block its index names. Its decompressed blocks are kept in the process's
    /// shared cache ([`BlockCache::shared`]).
    pub fn open(path: &Path) -> Result<TableFile, TableError> {
        TableFile::open_with_cache(path, BlockCache::shared())
    }

    /// [`TableFile::open`], keeping decompressed blocks in `cache` (a cache of capacity
    /// 0 keeps none: every probe decompresses its block).
    pub fn open_with_cache(path: &Path, cache: Arc<BlockCache>) -> Result<TableFile, TableError> {
        let file = File::open(path).map_err(|e| io_error(path, e))?;
        // SAFETY: the table files are written once (under a temporary name, then
        // renamed) and never modified in place; a file changed underneath the map by
        // someone else is caught by the block checksums before its bytes are used.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
        let bad = |reason: &str| TableError::BadHeader {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        let b = &map[..];
        if b.len() < HEADER_LEN {
            if b.len() >= MAGIC.len() && b[..MAGIC.len()] == MAGIC {
                return Err(TableError::Truncated {
                    path: path.to_path_buf(),
                    expected: HEADER_LEN as u64,
                    actual: b.len() as u64,
                });
            }
            return Err(bad("shorter than a header"));
        }
        if b[..8] != MAGIC {
            return Err(bad("wrong magic bytes"));
        }
        if crc32fast::hash(&b[..60]) != le_u32(b, 60) {
            return Err(bad("header checksum mismatch"));
        }
        let version = le_u16(b, 8);
        let entry_bytes = match version {
            VERSION_ONE_BYTE if b[52] == 0 => 1,
            VERSION if (1..=MAX_ENTRY_BYTES).contains(&b[52]) => b[52],
            VERSION_ONE_BYTE | VERSION => {
                return Err(bad(&format!(
                    "format version {version} with an entry width byte of {}",
                    b[52]
                )));
            }
            _ => {
                return Err(bad(&format!(
                    "format version {version}, this program reads {VERSION_ONE_BYTE} and {VERSION}"
                )));
            }
        };
        let variant = Variant::from_code(b[10]).ok_or_else(|| bad("unknown variant"))?;
        let mut signature = [0u8; SIGNATURE_LEN];
        signature.copy_from_slice(&b[12..28]);
        let header = Header {
            variant,
            rules: b[11],
            signature,
            metric: le_u32(b, 28),
            entries: le_u64(b, 32),
            entry_bytes,
        };
        let block_entries = le_u32(b, 40);
        let block_count = le_u32(b, 44) as u64;
        if block_entries == 0 || header.entries.div_ceil(block_entries as u64) != block_count {
            return Err(bad("block count does not match the number of entries"));
        }
        let index_end = HEADER_LEN as u64 + INDEX_ENTRY_LEN as u64 * block_count;
        if (b.len() as u64) < index_end {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: index_end,
                actual: b.len() as u64,
            });
        }
        let mut blocks = Vec::with_capacity(block_count as usize);
        let mut expected = index_end;
        for i in 0..block_count as usize {
            let at = HEADER_LEN + INDEX_ENTRY_LEN * i;
            let entry = BlockEntry {
                offset: le_u64(b, at),
                len: le_u32(b, at + 8),
                crc: le_u32(b, at + 12),
            };
            if entry.offset != expected {
                return Err(bad("block index out of order"));
            }
            expected += entry.len as u64;
            blocks.push(entry);
        }
        if (b.len() as u64) != expected {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected,
                actual: b.len() as u64,
            });
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            table_crc: le_u32(b, 48),
            map,
            header,
            block_entries,
            blocks,
            cache,
            id: next_file_id(),
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Bytes of block `block` once decompressed.
    fn block_len(&self, block: usize) -> usize {
        let start = block as u64 * self.block_entries as u64;
        (self.header.entries - start).min(self.block_entries as u64) as usize
            * usize::from(self.header.entry_bytes)
    }

    fn decompress(&self, block: usize) -> Result<Vec<u8>, TableError> {
        let entry = self.blocks[block];
        let bytes = &self.map[entry.offset as usize..(entry.offset + entry.len as u64) as usize];
        let corrupt = || TableError::Corrupt {
            path: self.path.clone(),
            what: format!("block {block}"),
        };
        if crc32fast::hash(bytes) != entry.crc {
            return Err(corrupt());
        }
        let want = self.block_len(block);
        let data = zstd::bulk::decompress(bytes, want).map_err(|_| corrupt())?;
        if data.len() != want {
            return Err(corrupt());
        }
        Ok(data)
    }

    /// The byte stored for entry `index` of a table of one-byte entries, or `None` past
    /// the end; a table of two-byte entries is refused (read it with [`TableFile::entry`]).
    pub fn get(&self, index: u64) -> Result<Option<u8>, TableError> {
        if self.header.entry_bytes != 1 {
            return Err(TableError::BadHeader {
                path: self.path.clone(),
                reason: format!(
                    "entries of {} bytes read as one byte",
                    self.header.entry_bytes
                ),
            });
        }
        Ok(self.entry(index)?.map(|e| e as u8))
    }

    /// The entry `index` of either width (a one-byte entry widened), or `None` past the
    /// end.
    pub fn entry(&self, index: u64) -> Result<Option<u16>, TableError> {
        if index >= self.header.entries {
            return Ok(None);
        }
        let block = (index / self.block_entries as u64) as usize;
        let width = usize::from(self.header.entry_bytes);
        let at = (index % self.block_entries as u64) as usize * width;
        let read = |data: &[u8]| {
            if width == 2 {
                u16::from_le_bytes([data[at], data[at + 1]])
            } else {
                u16::from(data[at])
            }
        };
        if let Some(value) = self.cache.with(self.id, block as u32, read) {
            return Ok(Some(value));
        }
        // Checked before it is kept: the cache only ever holds blocks whose CRC matched.
        let data = self.decompress(block)?;
        let value = read(&data);
        self.cache
            .insert(self.id, block as u32, data.into_boxed_slice());
        Ok(Some(value))
    }

    /// Every entry's bytes, decompressed (generation reads back finished tables this
    /// way): `entries · entry_bytes` bytes, two-byte entries little-endian.
    pub fn read_all(&self) -> Result<Vec<u8>, TableError> {
        let mut all =
            Vec::with_capacity(self.header.entries as usize * usize::from(self.header.entry_bytes));
        for block in 0..self.blocks.len() {
            all.extend_from_slice(&self.decompress(block)?);
        }
        if crc32fast::hash(&all) != self.table_crc {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                what: "table".to_string(),
            });
        }
        Ok(all)
    }

    /// Checks every block and the whole-table checksum.
    pub fn verify(&self) -> Result<(), TableError> {
        self.read_all().map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Engines and the server probe from several threads.
    #[test]
    fn an_open_table_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<TableFile>();
    }

    #[test]
    fn a_table_round_trips_across_several_blocks() {
        let dir = std::env::temp_dir().join(format!("thaiboard-tb-{}-format", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.thtb");
        let entries: Vec<u8> = (0..BLOCK_ENTRIES as usize * 2 + 17)
            .map(|i| (i % 251) as u8)
            .collect();
        let header = Header {
            variant: Variant::Makruk,
            rules: 0,
            signature: [7; SIGNATURE_LEN],
            metric: 9,
            entries: entries.len() as u64,
            entry_bytes: 1,
        };
        write_table(&path, &header, &entries).unwrap();
        let table = TableFile::open(&path).unwrap();
        assert_eq!(table.header(), &header);
        for i in [0, 1, BLOCK_ENTRIES as u64, entries.len() as u64 - 1] {
            assert_eq!(table.get(i).unwrap(), Some(entries[i as usize]));
        }
        assert_eq!(table.get(entries.len() as u64).unwrap(), None);
        assert_eq!(table.read_all().unwrap(), entries);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A table of `blocks` full blocks and a short one, entries varying within blocks.
    fn several_blocks(dir: &Path, blocks: usize) -> (PathBuf, Vec<u8>) {
        let path = dir.join("blocks.thtb");
        let entries: Vec<u8> = (0..BLOCK_ENTRIES as usize * blocks + 99)
            .map(|i| ((i * 7 + i / 1000) % 253) as u8)
            .collect();
        let header = Header {
            variant: Variant::Makhos,
            rules: 0,
            signature: [1; SIGNATURE_LEN],
            metric: 2,
            entries: entries.len() as u64,
            entry_bytes: 1,
        };
        write_table(&path, &header, &entries).unwrap();
        (path, entries)
    }

    /// A cache with room for `blocks` one-byte blocks in each shard.
    fn cache_of(blocks: usize) -> Arc<BlockCache> {
        Arc::new(BlockCache::new(
            crate::block_cache::SHARDS * blocks * BLOCK_ENTRIES as usize,
        ))
    }

    #[test]
    fn reads_through_a_small_cache_equal_uncached_reads_and_stay_within_its_budget() {
        let dir = scratch("cache");
        let (path, entries) = several_blocks(&dir, 6);
        // Room for one block per shard: blocks are evicted as the reads wander.
        let cache = cache_of(1);
        let cached = TableFile::open_with_cache(&path, Arc::clone(&cache)).unwrap();
        let uncached = TableFile::open_with_cache(&path, Arc::new(BlockCache::new(0))).unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let i = seed % (entries.len() as u64 + 10);
            let want = entries.get(i as usize).copied();
            assert_eq!(cached.get(i).unwrap(), want, "{i}");
            assert_eq!(uncached.get(i).unwrap(), want, "{i}");
            assert!(cache.bytes() <= cache.capacity());
        }
        assert!(!cache.is_empty());
        // Closing the file frees its blocks.
        drop(cached);
        assert!(cache.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_corrupted_block_is_refused_even_when_other_blocks_are_cached() {
        let dir = scratch("cache-corrupt");
        let (path, entries) = several_blocks(&dir, 3);
        let mut bad = std::fs::read(&path).unwrap();
        let last = bad.len() - 3;
        bad[last] ^= 0x40;
        std::fs::write(&path, &bad).unwrap();
        let cache = cache_of(4);
        let table = TableFile::open_with_cache(&path, Arc::clone(&cache)).unwrap();
        for block in 0..3u64 {
            let i = block * BLOCK_ENTRIES as u64 + 5;
            assert_eq!(table.get(i).unwrap(), Some(entries[i as usize]));
        }
        assert_eq!(cache.len(), 3);
        // The damaged last block, every time it is asked for: the error is not cached,
        // and the damaged bytes never enter the cache.
        for _ in 0..3 {
            let err = table.get(entries.len() as u64 - 1).unwrap_err();
            assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
            assert!(err.to_string().contains("block 3"), "{err}");
        }
        assert_eq!(cache.len(), 3);
        assert_eq!(table.get(7).unwrap(), Some(entries[7]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("thaiboard-tb-{}-format-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn wide_header(entries: u64) -> Header {
        Header {
            variant: Variant::Cambodian,
            rules: 0,
            signature: [3; SIGNATURE_LEN],
            metric: 4,
            entries,
            entry_bytes: 2,
        }
    }

    /// Entries past a byte: 300 and 40000 read back as written, across blocks.
    fn wide_entries() -> Vec<u16> {
        (0..BLOCK_ENTRIES as usize * 2 + 17)
            .map(|i| match i % 7 {
                0 => 300,
                1 => 40_000,
                _ => (i % 65_521) as u16,
            })
            .collect()
    }

    #[test]
    fn a_table_of_two_byte_entries_round_trips_as_version_2() {
        let dir = scratch("wide");
        let path = dir.join("w.thtb");
        let entries = wide_entries();
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
        let header = wide_header(entries.len() as u64);
        write_table(&path, &header, &bytes).unwrap();
        let raw = std::fs::read(&path).unwrap();
        assert_eq!(le_u16(&raw, 8), VERSION);
        assert_eq!(raw[52], 2);
        let table = TableFile::open(&path).unwrap();
        assert_eq!(table.header(), &header);
        for i in [0, 1, 2, BLOCK_ENTRIES as u64 + 3, entries.len() as u64 - 1] {
            assert_eq!(table.entry(i).unwrap(), Some(entries[i as usize]), "{i}");
        }
        assert_eq!(table.entry(entries.len() as u64).unwrap(), None);
        assert_eq!(table.read_all().unwrap(), bytes);
        // Read as bytes, a table of two-byte entries is refused, not misread.
        assert!(matches!(table.get(0), Err(TableError::BadHeader { .. })));
        // The wrong number of bytes for the header's entries is not written.
        assert!(write_table(&dir.join("x.thtb"), &header, &bytes[1..]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A table of one-byte entries is the first format, byte for byte: version 1 and a
    /// zero at byte 52, as every table written before two-byte entries.
    #[test]
    fn a_table_of_one_byte_entries_is_still_written_as_version_1() {
        let dir = scratch("narrow");
        let path = dir.join("n.thtb");
        let header = Header {
            entry_bytes: 1,
            metric: 3,
            ..wide_header(1000)
        };
        let entries: Vec<u8> = (0..1000).map(|i| (i % 200) as u8).collect();
        write_table(&path, &header, &entries).unwrap();
        let raw = std::fs::read(&path).unwrap();
        assert_eq!(le_u16(&raw, 8), VERSION_ONE_BYTE);
        assert_eq!(&raw[52..60], &[0; 8]);
        let table = TableFile::open(&path).unwrap();
        assert_eq!(table.header().entry_bytes, 1);
        assert_eq!(table.get(999).unwrap(), Some(entries[999]));
        assert_eq!(table.entry(999).unwrap(), Some(u16::from(entries[999])));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_table_of_two_byte_entries_cut_short_or_damaged_is_refused() {
        let dir = scratch("wide-damaged");
        let path = dir.join("w.thtb");
        let entries = wide_entries();
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_le_bytes()).collect();
        write_table(&path, &wide_header(entries.len() as u64), &bytes).unwrap();
        let good = std::fs::read(&path).unwrap();

        // Cut short: refused on opening.
        let cut = dir.join("cut.thtb");
        std::fs::write(&cut, &good[..good.len() - 5]).unwrap();
        let err = TableFile::open(&cut).unwrap_err();
        assert!(matches!(err, TableError::Truncated { .. }), "{err}");
        assert!(err.to_string().contains("truncated"), "{err}");

        // A flipped byte in the last block: refused by the probe that reads it.
        let flipped = dir.join("flipped.thtb");
        let mut bad = good.clone();
        let last = bad.len() - 3;
        bad[last] ^= 0x40;
        std::fs::write(&flipped, &bad).unwrap();
        let table = TableFile::open(&flipped).unwrap();
        assert_eq!(table.entry(0).unwrap(), Some(entries[0]));
        let err = table.entry(entries.len() as u64 - 1).unwrap_err();
        assert!(matches!(err, TableError::Corrupt { .. }), "{err}");
        assert!(table.verify().is_err());

        // An entry width this program does not know, its header checksum made right: the
        // header is refused by name.
        let odd = dir.join("odd.thtb");
        let mut bad = good.clone();
        bad[52] = 3;
        let crc = crc32fast::hash(&bad[..60]);
        bad[60..64].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&odd, &bad).unwrap();
        let err = TableFile::open(&odd).unwrap_err();
        assert!(
            matches!(&err, TableError::BadHeader { reason, .. } if reason.contains("entry width")),
            "{err}"
        );
        // A damaged width byte without a new checksum fails the header checksum.
        let mut bad = good.clone();
        bad[52] = 1;
        std::fs::write(&odd, &bad).unwrap();
        assert!(matches!(
            TableFile::open(&odd),
            Err(TableError::BadHeader { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
