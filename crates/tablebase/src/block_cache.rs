//! Decompressed table blocks kept for reuse: a probe that lands in a block read before
//! costs a lookup instead of a zstd decompression (33–41 µs for a 32 KiB block).
//!
//! One [`BlockCache`] is shared by every [`crate::TableFile`] opened with
//! [`crate::TableFile::open`] ([`BlockCache::shared`]), so the memory it holds is bounded
//! for the whole process however many tables are open (the engine's search threads and
//! the server probe the same files). The cache itself is `quick_cache`'s concurrent
//! cache, weighed in bytes: [`SHARDS`] shards, each behind its own lock and holding an
//! equal part of the budget, so threads probing different blocks rarely wait for each
//! other; within a shard, blocks read often stay and blocks read once go first.
//!
//! Only blocks whose checksum matched are ever stored (the table file checks the CRC
//! before it hands a block over), so a cached block is as good as a fresh read, and a
//! damaged block is refused at every probe that needs it: errors are not cached.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use quick_cache::sync::Cache;
use quick_cache::{OptionsBuilder, Weighter};

/// Bytes of decompressed blocks the process-wide cache ([`BlockCache::shared`]) may hold:
/// 1024 blocks of one-byte entries, 512 of two-byte ones. The engine's searches work in a
/// few tables at a time, and a 4-piece Makruk table holds up to about 300 blocks.
pub const DEFAULT_CACHE_BYTES: usize = 32 << 20;

/// Shards of a cache: a power of two, more than the threads that usually probe at once.
pub const SHARDS: usize = 16;

/// The size of a block of one-byte entries (32 Ki entries), for the cache's estimate of
/// how many blocks it holds.
const TYPICAL_BLOCK_BYTES: usize = 32 << 10;

/// Identifies one open table file within the process (see [`next_file_id`]).
pub type FileId = u64;

/// A fresh [`FileId`] for a table file being opened: two open files never share one, so
/// the cache never hands one file's block to another (even at the same path, reopened).
pub fn next_file_id() -> FileId {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A cached block: one file's block number.
type Key = (FileId, u32);

/// A block weighs its bytes.
#[derive(Clone, Copy)]
struct Bytes;

impl Weighter<Key, Arc<[u8]>> for Bytes {
    fn weight(&self, _key: &Key, block: &Arc<[u8]>) -> u64 {
        block.len() as u64
    }
}

/// A bounded, thread-safe cache of decompressed blocks keyed by (file, block number).
pub struct BlockCache {
    /// `None` for a cache of no bytes: every read decompresses.
    blocks: Option<Cache<Key, Arc<[u8]>, Bytes>>,
    capacity: usize,
}

impl std::fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockCache")
            .field("capacity", &self.capacity())
            .field("bytes", &self.bytes())
            .finish()
    }
}

impl BlockCache {
    /// A cache holding at most `capacity` bytes of blocks (split evenly between its
    /// shards; a block larger than a shard's part is never kept). A capacity of 0 keeps
    /// nothing: every probe decompresses.
    pub fn new(capacity: usize) -> BlockCache {
        let shard_budget = capacity / SHARDS;
        let blocks = (shard_budget > 0)
            .then(|| {
                let options = OptionsBuilder::new()
                    .shards(SHARDS)
                    // The estimate only sizes the cache's own tables.
                    .estimated_items_capacity((capacity / TYPICAL_BLOCK_BYTES).max(SHARDS))
                    .weight_capacity((shard_budget * SHARDS) as u64)
                    .build()
                    .ok()?;
                Some(Cache::with_options(
                    options,
                    Bytes,
                    Default::default(),
                    Default::default(),
                ))
            })
            .flatten();
        BlockCache {
            blocks,
            capacity: shard_budget * SHARDS,
        }
    }

    /// The cache every table file opened with [`crate::TableFile::open`] shares, of
    /// [`DEFAULT_CACHE_BYTES`].
    pub fn shared() -> Arc<BlockCache> {
        static SHARED: OnceLock<Arc<BlockCache>> = OnceLock::new();
        Arc::clone(SHARED.get_or_init(|| Arc::new(BlockCache::new(DEFAULT_CACHE_BYTES))))
    }

    /// The most bytes of blocks the cache holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Bytes of blocks held now.
    pub fn bytes(&self) -> usize {
        self.blocks.as_ref().map_or(0, |c| c.weight() as usize)
    }

    /// Blocks held now.
    pub fn len(&self) -> usize {
        self.blocks.as_ref().map_or(0, Cache::len)
    }

    /// Whether no block is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `read(bytes)` of block `block` of `file` if the cache holds it (`None` if not).
    pub fn with<T>(&self, file: FileId, block: u32, read: impl FnOnce(&[u8]) -> T) -> Option<T> {
        let data = self.blocks.as_ref()?.get(&(file, block))?;
        Some(read(&data))
    }

    /// Keeps block `block` of `file` (already checked), evicting other blocks to stay
    /// within the budget.
    pub fn insert(&self, file: FileId, block: u32, data: Box<[u8]>) {
        if let Some(blocks) = &self.blocks {
            blocks.insert((file, block), Arc::from(data));
        }
    }

    /// Drops every block of `file` (the file is being closed).
    pub fn forget(&self, file: FileId) {
        if let Some(blocks) = &self.blocks {
            blocks.retain(|&(f, _), _| f != file);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_comes_back_as_stored_and_the_budget_holds() {
        let block = 1000;
        let cache = BlockCache::new(SHARDS * 3 * block);
        let file = next_file_id();
        for b in 0..200u32 {
            cache.insert(file, b, vec![b as u8; block].into_boxed_slice());
            assert!(cache.bytes() <= cache.capacity());
            assert_eq!(
                cache.with(file, b, |d| (d.len(), d[0])),
                Some((block, b as u8))
            );
        }
        assert!(cache.len() <= SHARDS * 3);
        assert!(cache.len() >= SHARDS, "{}", cache.len());
        // Another file's block of the same number is not this one.
        assert_eq!(cache.with(next_file_id(), 199, |d| d[0]), None);
        cache.forget(file);
        assert!(cache.is_empty());
        assert_eq!(cache.bytes(), 0);
    }

    #[test]
    fn a_block_read_again_and_again_stays_while_others_come_and_go() {
        let block = 1000;
        let cache = BlockCache::new(SHARDS * 4 * block);
        let file = next_file_id();
        cache.insert(file, 0, vec![7; block].into_boxed_slice());
        for b in 1..2000u32 {
            assert_eq!(cache.with(file, 0, |d| d[0]), Some(7), "after {b} others");
            cache.insert(file, b, vec![b as u8; block].into_boxed_slice());
        }
        assert!(cache.bytes() <= cache.capacity());
    }

    #[test]
    fn a_cache_of_no_bytes_keeps_nothing() {
        let cache = BlockCache::new(0);
        cache.insert(next_file_id(), 0, vec![1; 10].into_boxed_slice());
        assert!(cache.is_empty());
        assert_eq!(cache.capacity(), 0);
    }
}
