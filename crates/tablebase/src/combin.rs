//! Ranking sets of squares: the combinatorial number system.
//!
//! A set of `k` distinct slots `p0 < p1 < ... < p(k-1)` chosen among `n` has the rank
//! `C(p0, 1) + C(p1, 2) + ... + C(p(k-1), k)`, a number in `0..C(n, k)`; unranking
//! inverts it greedily. Tables index each side's pieces of one kind this way.

/// Largest `n` that tables rank over (squares on a board of 64).
const MAX_N: usize = 64;
/// Largest `k` (pieces of one kind on one side).
const MAX_K: usize = 8;

/// Binomial coefficients `C(n, k)` for `n < MAX_N + 1`, `k <= MAX_K`.
static BINOMIAL: [[u64; MAX_K + 1]; MAX_N + 1] = {
    let mut t = [[0u64; MAX_K + 1]; MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_K {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`; zero when `k > n`.
pub fn binomial(n: usize, k: usize) -> u64 {
    if n > MAX_N || k > MAX_K {
        return 0;
    }
    BINOMIAL[n][k]
}

/// The rank of the set of slots in the bits of `set` (slots `0..64`).
pub fn rank(set: u64) -> u64 {
    let mut r = 0;
    let mut bits = set;
    let mut i = 1;
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        r += binomial(p, i);
        bits &= bits - 1;
        i += 1;
    }
    r
}

/// The set of `k` slots among `n` with this rank (`rank < C(n, k)`).
pub fn unrank(mut rank: u64, k: usize, n: usize) -> u64 {
    let mut set = 0u64;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut p = top - 1;
        while binomial(p, i) > rank {
            p -= 1;
        }
        rank -= binomial(p, i);
        set |= 1u64 << p;
        top = p;
    }
    set
}

/// Spreads the low bits of `slots` onto the set bits of `mask`: slot `i` becomes the
/// `i`-th set bit of `mask` (the inverse of [`compress`]).
pub fn expand(slots: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        if slots >> i & 1 != 0 {
            out |= bit;
        }
        m &= m - 1;
        i += 1;
    }
    out
}

/// Packs the bits of `set` that lie in `mask` down to slots: the `i`-th set bit of `mask`
/// becomes slot `i`. `set` must lie within `mask`.
pub fn compress(set: u64, mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bits = set;
    while bits != 0 {
        let bit = bits & bits.wrapping_neg();
        out |= 1u64 << (mask & (bit - 1)).count_ones();
        bits &= bits - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        for k in 0..=3 {
            let n = 10;
            for r in 0..binomial(n, k) {
                let set = unrank(r, k, n);
                assert_eq!(set.count_ones() as usize, k);
                assert!(set < 1 << n);
                assert_eq!(rank(set), r);
            }
        }
    }

    #[test]
    fn compress_and_expand_are_inverse() {
        let mask = 0b1011_0110u64;
        let set = 0b1001_0010u64;
        let slots = compress(set, mask);
        assert_eq!(slots, 0b1_0101);
        assert_eq!(expand(slots, mask), set);
    }
}
