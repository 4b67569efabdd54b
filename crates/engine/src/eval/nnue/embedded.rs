//! The network shipped inside the binary (`crates/engine/nets/makruk.nnue`,
//! made by the recipe in the README), read once on first use.

use super::network::{Network, NetworkError};
use std::sync::OnceLock;

/// The bytes of the shipped network file.
static BYTES: &[u8] = include_bytes!("../../../nets/makruk.nnue");

/// The shipped network. It is checked by the tests, so an error here means
/// a damaged build; the engine then says so and plays the classical
/// evaluation.
pub fn embedded() -> Result<&'static Network, NetworkError> {
    static NET: OnceLock<Result<Network, NetworkError>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(BYTES))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_network_reads_and_says_how_it_was_made() {
        let net = embedded().expect("the shipped network reads");
        assert!(!net.description.is_empty());
        assert!(std::ptr::eq(net, embedded().unwrap()), "read once");
    }
}
