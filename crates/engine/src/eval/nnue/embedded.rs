//! The networks shipped inside the binary (`crates/engine/nets/makruk.nnue`
//! and `makhos.nnue`, made by the recipes in the README), each read once
//! on first use.

use super::network::{Layout, Network, NetworkError};
use std::sync::OnceLock;

/// The bytes of the shipped Makruk network file.
static MAKRUK: &[u8] = include_bytes!("../../../nets/makruk.nnue");
/// The bytes of the shipped Mak-hot network file.
static MAKHOS: &[u8] = include_bytes!("../../../nets/makhos.nnue");

/// The shipped network of `layout`'s game. The tests check both, so an
/// error here means a damaged build; the engine then says so and plays
/// the classical evaluation.
pub fn embedded(layout: Layout) -> Result<&'static Network, NetworkError> {
    static NETS: [OnceLock<Result<Network, NetworkError>>; 2] = [OnceLock::new(), OnceLock::new()];
    let bytes = match layout {
        Layout::Makruk => MAKRUK,
        Layout::Makhos => MAKHOS,
    };
    NETS[layout.index()]
        .get_or_init(|| {
            let net = Network::from_bytes(bytes)?;
            net.check_layout(layout)?;
            Ok(net)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Whether the engine plays `layout`'s game with its shipped network
/// unless told otherwise. A shipped network is switched on only once it
/// beats the classical evaluation at equal time (the README's SPRTs at
/// 5+0.05): Mak-hot's by +158 Elo; Makruk's (hybrid 3) by +145 +/- 32,
/// an SPRT with elo0 0, elo1 10 that accepted H1 after 210 games. Each
/// Makruk network shipped since beat the one before in the same kind of
/// SPRT: hybrid 4 by +39 +/- 19 (H1 after 271 games), hybrid 5 by
/// +20 +/- 14 (H1 after 450 games), hybrid 6 (hybrid 5 trained on with
/// 6.7 million positions of its own games) by +21 +/- 15 (H1 after 399
/// games).
pub const fn on_by_default(layout: Layout) -> bool {
    match layout {
        Layout::Makruk | Layout::Makhos => true,
    }
}

/// The shipped network of `layout` when the engine plays with it by
/// default ([`on_by_default`]; `None` also for a damaged build).
pub fn default_network(layout: Layout) -> Option<&'static Network> {
    if on_by_default(layout) {
        embedded(layout).ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_networks_read_and_say_how_they_were_made() {
        for layout in Layout::ALL {
            let net = embedded(layout).expect("the shipped network reads");
            assert_eq!(net.layout, layout);
            assert!(!net.description.is_empty());
            assert!(std::ptr::eq(net, embedded(layout).unwrap()), "read once");
        }
    }

    #[test]
    fn makruk_is_played_by_default_as_its_switch_says() {
        use crate::{Game, MakrukGame};
        let pos = makruk::Position::from_fen(
            makruk::Variant::Makruk,
            "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1",
        )
        .unwrap();
        let by_default = crate::with_makruk_played_by_default!(pos.clone(), |g| g.evaluate());
        let classical = MakrukGame::new(pos.clone()).evaluate();
        let shipped = MakrukGame::new(pos)
            .with_network(embedded(Layout::Makruk).unwrap())
            .evaluate();
        assert_ne!(classical, shipped, "the network adds its correction");
        let expected = if on_by_default(Layout::Makruk) {
            shipped
        } else {
            classical
        };
        assert_eq!(by_default, expected);
    }
}
