//! Decompressed table blocks kept for reuse: a probe that lands in a block read before
//! costs a lookup instead of a zstd decompression (33–41 µs for a 32 KiB block).
//!
//! One [`BlockCache`] is shared by every [`crate::TableFile`] opened with
//! [`crate::TableFile::open`] ([`BlockCache::shared`]), so the memory it holds is bounded
//! for the whole process however many tables are open (the engine's search threads and
//! the server probe the same files). It is split into [`SHARDS`] shards, each behind its
//! own lock and holding an equal part of the budget, so threads probing different blocks
//! rarely wait for each other; within a shard the least recently used block goes first.
//!
//! Only blocks whose checksum matched are ever stored (the table file checks the CRC
//! before it hands a block over), so a cached block is as good as a fresh read, and a
//! damaged block is refused at every probe that needs it: errors are not cached.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes of decompressed blocks the process-wide cache ([`BlockCache::shared`]) may hold:
/// 1024 blocks of one-byte entries, 512 of two-byte ones. The engine's searches work in a
/// few tables at a time, and a 4-piece Makruk table holds up to about 300 blocks.
pub const DEFAULT_CACHE_BYTES: usize = 32 << 20;

/// Shards of a cache: a power of two, more than the threads that usually probe at once.
pub const SHARDS: usize = 16;

/// Identifies one open table file within the process (see [`next_file_id`]).
pub type FileId = u64;

/// A fresh [`FileId`] for a table file being opened: two open files never share one, so
/// the cache never hands one file's block to another (even at the same path, reopened).
pub fn next_file_id() -> FileId {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// One cached block.
struct Slot {
    file: FileId,
    block: u32,
    data: Box<[u8]>,
    /// The shard's clock when the block was last read.
    used: u64,
}

/// One shard: a few blocks, searched linearly (a shard holds a few dozen at most).
#[derive(Default)]
struct Shard {
    slots: Vec<Slot>,
    bytes: usize,
    clock: u64,
}

/// A bounded, thread-safe cache of decompressed blocks keyed by (file, block number).
pub struct BlockCache {
    shards: Box<[Mutex<Shard>]>,
    /// Bytes each shard may hold.
    shard_budget: usize,
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
        BlockCache {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            shard_budget: capacity / SHARDS,
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
        self.shard_budget * SHARDS
    }

    /// Bytes of blocks held now.
    pub fn bytes(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().map_or(0, |s| s.bytes))
            .sum()
    }

    /// Blocks held now.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().map_or(0, |s| s.slots.len()))
            .sum()
    }

    /// Whether no block is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn shard(&self, file: FileId, block: u32) -> &Mutex<Shard> {
        // Fibonacci hashing of the pair: consecutive blocks of one file spread out.
        let h = (file.rotate_left(32) ^ u64::from(block)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(h >> 32) as usize % SHARDS]
    }

    /// `read(bytes)` of block `block` of `file` if the cache holds it (`None` if not).
    /// `read` runs under the shard's lock: keep it short.
    pub fn with<T>(&self, file: FileId, block: u32, read: impl FnOnce(&[u8]) -> T) -> Option<T> {
        // A poisoned lock (a panic while holding it) only means a lost cache entry.
        let mut shard = self.shard(file, block).lock().ok()?;
        shard.clock += 1;
        let now = shard.clock;
        let slot = shard
            .slots
            .iter_mut()
            .find(|s| s.file == file && s.block == block)?;
        slot.used = now;
        Some(read(&slot.data))
    }

    /// Keeps block `block` of `file` (already checked), evicting the least recently
    /// used blocks of its shard to stay within the budget.
    pub fn insert(&self, file: FileId, block: u32, data: Box<[u8]>) {
        if data.len() > self.shard_budget {
            return;
        }
        let Ok(mut shard) = self.shard(file, block).lock() else {
            return;
        };
        if shard
            .slots
            .iter()
            .any(|s| s.file == file && s.block == block)
        {
            // Another thread decompressed it meanwhile.
            return;
        }
        while shard.bytes + data.len() > self.shard_budget {
            let Some(oldest) = (0..shard.slots.len()).min_by_key(|&i| shard.slots[i].used) else {
                break;
            };
            let gone = shard.slots.swap_remove(oldest);
            shard.bytes -= gone.data.len();
        }
        shard.clock += 1;
        let used = shard.clock;
        shard.bytes += data.len();
        shard.slots.push(Slot {
            file,
            block,
            data,
            used,
        });
    }

    /// Drops every block of `file` (the file is being closed).
    pub fn forget(&self, file: FileId) {
        for shard in self.shards.iter() {
            if let Ok(mut shard) = shard.lock() {
                let before = shard.slots.len();
                shard.slots.retain(|s| s.file != file);
                if shard.slots.len() != before {
                    shard.bytes = shard.slots.iter().map(|s| s.data.len()).sum();
                }
            }
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
    fn the_least_recently_used_block_goes_first() {
        // One shard's worth of room for two blocks: keep reading block 0, and the
        // blocks evicted are the others.
        let cache = BlockCache::new(SHARDS * 2 * 10);
        let file = next_file_id();
        let same_shard: Vec<u32> = (0..10_000u32)
            .filter(|&b| std::ptr::eq(cache.shard(file, b), cache.shard(file, 0)))
            .take(5)
            .collect();
        for &b in &same_shard {
            cache.insert(file, b, vec![b as u8; 10].into_boxed_slice());
            assert!(cache.with(file, same_shard[0], |_| ()).is_some());
        }
        assert!(cache.with(file, same_shard[4], |_| ()).is_some());
        for &b in &same_shard[1..4] {
            assert!(cache.with(file, b, |_| ()).is_none(), "{b}");
        }
    }

    #[test]
    fn a_cache_of_no_bytes_keeps_nothing() {
        let cache = BlockCache::new(0);
        cache.insert(next_file_id(), 0, vec![1; 10].into_boxed_slice());
        assert!(cache.is_empty());
    }
}
