//! Mak-hot rules (work in progress).
