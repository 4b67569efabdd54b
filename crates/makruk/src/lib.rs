//! Makruk rules (work in progress).
