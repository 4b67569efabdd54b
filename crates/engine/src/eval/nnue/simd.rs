//! The int16 kernels of the network: accumulator updates and the output
//! layer's clipped dot product. Each has a portable scalar form, which is
//! the definition, and an AVX2 form chosen at run time when the processor
//! has it. Both wrap on overflow the same way (int16 lanes in the
//! accumulator, int32 in the dot product), so they give identical results
//! for every input; the tests compare them on random data.

use std::sync::atomic::{AtomicU8, Ordering};

/// Which kernels the network runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable Rust (what the compiler vectorises for the base target).
    Scalar,
    /// x86-64 AVX2 intrinsics (16 int16 lanes).
    Avx2,
}

/// 0: not yet chosen; else 1 + the kernel's number.
static KERNEL: AtomicU8 = AtomicU8::new(0);

fn detect() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return Kernel::Avx2;
    }
    Kernel::Scalar
}

/// The kernel in use: the fastest this processor runs, unless
/// [`use_kernel`] chose another.
#[inline]
pub fn kernel() -> Kernel {
    match KERNEL.load(Ordering::Relaxed) {
        1 => Kernel::Scalar,
        2 => Kernel::Avx2,
        _ => {
            let k = detect();
            KERNEL.store(if k == Kernel::Scalar { 1 } else { 2 }, Ordering::Relaxed);
            k
        }
    }
}

/// Chooses the kernels for the whole process (benchmarks compare them);
/// AVX2 only where the processor has it. Returns the kernel now in use.
pub fn use_kernel(k: Kernel) -> Kernel {
    let k = if k == Kernel::Avx2 { detect() } else { k };
    KERNEL.store(if k == Kernel::Scalar { 1 } else { 2 }, Ordering::Relaxed);
    k
}

/// `dst = src + sum(adds) - sum(subs)`, lane by lane (wrapping). All
/// slices have the length of `dst`.
#[inline]
pub fn update(k: Kernel, dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if k == Kernel::Avx2 {
        // SAFETY: Avx2 is only ever chosen when the processor has AVX2.
        unsafe { avx2::update(dst, src, adds, subs) };
        return;
    }
    let _ = k;
    update_scalar(dst, src, adds, subs);
}

fn update_scalar(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
    dst.copy_from_slice(src);
    for a in adds {
        for (d, &w) in dst.iter_mut().zip(a.iter()) {
            *d = d.wrapping_add(w);
        }
    }
    for s in subs {
        for (d, &w) in dst.iter_mut().zip(s.iter()) {
            *d = d.wrapping_sub(w);
        }
    }
}

/// `sum(clamp(acc[i], 0, max) * w[i])` in wrapping int32 (the clipped
/// ReLU and the output layer). `acc` and `w` have the same length, a
/// multiple of 16.
#[inline]
pub fn clipped_dot(k: Kernel, acc: &[i16], w: &[i16], max: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if k == Kernel::Avx2 {
        // SAFETY: Avx2 is only ever chosen when the processor has AVX2.
        return unsafe { avx2::clipped_dot(acc, w, max) };
    }
    let _ = k;
    clipped_dot_scalar(acc, w, max)
}

fn clipped_dot_scalar(acc: &[i16], w: &[i16], max: i16) -> i32 {
    acc.iter().zip(w).fold(0i32, |sum, (&a, &w)| {
        sum.wrapping_add(i32::from(a.clamp(0, max)) * i32::from(w))
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// Lanes of int16 in a 256-bit register.
    const LANES: usize = 16;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update(dst: &mut [i16], src: &[i16], adds: &[&[i16]], subs: &[&[i16]]) {
        let n = dst.len();
        assert!(n % LANES == 0 && src.len() == n);
        assert!(adds.iter().chain(subs).all(|s| s.len() == n));
        let mut i = 0;
        while i < n {
            // SAFETY: i + LANES <= n for every slice (checked above);
            // unaligned loads and stores.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
                for a in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(a.as_ptr().add(i).cast()));
                }
                for s in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
            }
            i += LANES;
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn clipped_dot(acc: &[i16], w: &[i16], max: i16) -> i32 {
        let n = acc.len();
        assert!(n % LANES == 0 && w.len() == n);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(max);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < n {
            // SAFETY: i + LANES <= n for both slices (checked above).
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                let b = _mm256_loadu_si256(w.as_ptr().add(i).cast());
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, b));
            }
            i += LANES;
        }
        let mut lanes = [0i32; 8];
        // SAFETY: an 8 x i32 buffer is 256 bits.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small reproducible generator of test data.
    fn noise(seed: &mut u64) -> i16 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed as i16
    }

    #[test]
    fn simd_kernels_equal_the_scalar_ones() {
        if detect() == Kernel::Scalar {
            eprintln!("no AVX2 here: only the scalar kernels run");
            return;
        }
        let mut seed = 0x1234_5678_9abc_def1u64;
        for round in 0..200 {
            let n = 16 * (1 + round % 32);
            let mut v = |n: usize| (0..n).map(|_| noise(&mut seed)).collect::<Vec<i16>>();
            let (src, a1, a2, s1, s2) = (v(n), v(n), v(n), v(n), v(n));
            let adds: Vec<&[i16]> = [&a1[..], &a2[..]][..round % 3].to_vec();
            let subs: Vec<&[i16]> = [&s1[..], &s2[..]][..(round / 3) % 3].to_vec();
            let mut scalar = vec![0; n];
            let mut simd = vec![0; n];
            update(Kernel::Scalar, &mut scalar, &src, &adds, &subs);
            update(Kernel::Avx2, &mut simd, &src, &adds, &subs);
            assert_eq!(scalar, simd, "update, round {round}");
            // Full-range int16 values overflow int32 sums: both wrap alike.
            let max = [255, 127, i16::MAX][round % 3];
            assert_eq!(
                clipped_dot(Kernel::Scalar, &src, &a1, max),
                clipped_dot(Kernel::Avx2, &src, &a1, max),
                "clipped_dot, round {round}"
            );
        }
    }

    #[test]
    fn the_scalar_kernels_compute_their_definition() {
        let mut dst = [0i16; 16];
        let src = [1i16; 16];
        let add = [i16::MAX; 16];
        let sub = [2i16; 16];
        update(Kernel::Scalar, &mut dst, &src, &[&add], &[&sub]);
        assert_eq!(dst[0], 1i16.wrapping_add(i16::MAX).wrapping_sub(2));
        let acc = [-5i16, 3, 300, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let w = [7i16, 2, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(clipped_dot(Kernel::Scalar, &acc, &w, 255), 6 + 255 - 10);
    }
}
