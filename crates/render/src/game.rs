//! Scenes of whole games: the start position, then the position after each
//! move with that move's squares highlighted.

use crate::scene::{Scene, makhos_cell, makruk_cell};

/// One scene per position of a Makruk or Ouk Chatrang game.
pub fn makruk_scenes(game: &makruk::Game, flipped: bool) -> Vec<Scene> {
    let mut pos = game.start().clone();
    let mut scenes = vec![Scene::makruk(&pos).with_flipped(flipped)];
    for &m in game.moves() {
        pos.play_unchecked(m);
        scenes.push(
            Scene::makruk(&pos)
                .with_flipped(flipped)
                .with_highlight([makruk_cell(m.from()), makruk_cell(m.to())]),
        );
    }
    scenes
}

/// One scene per position of a Mak-hot game; a capture highlights its
/// start, every landing square and its end.
pub fn makhos_scenes(game: &makhos::Game, flipped: bool) -> Vec<Scene> {
    let mut scenes = vec![Scene::makhos(game.start()).with_flipped(flipped)];
    for (pos, mv) in game.positions().iter().skip(1).zip(game.moves()) {
        scenes.push(
            Scene::makhos(pos)
                .with_flipped(flipped)
                .with_highlight(std::iter::once(mv.from()).chain(mv.path()).map(makhos_cell)),
        );
    }
    scenes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makruk_scenes_follow_the_moves() {
        let mut game = makruk::Game::new(makruk::Variant::Makruk);
        for m in ["e3e4", "d6d5", "e4d5"] {
            game.play_uci(m).unwrap();
        }
        let scenes = makruk_scenes(&game, false);
        assert_eq!(scenes.len(), 4);
        assert!(scenes[0].highlight.is_empty());
        let e4 = makruk_cell("e4".parse().unwrap());
        let d5 = makruk_cell("d5".parse().unwrap());
        assert_eq!(scenes[3].highlight, vec![e4, d5]);
        assert!(scenes[3].squares[e4.index()].is_none());
        assert!(matches!(
            scenes[3].squares[d5.index()],
            Some(crate::Sprite::Makruk { white: true, .. })
        ));
        // 32 pieces, then 31 after the capture.
        assert_eq!(scenes[2].squares.iter().flatten().count(), 32);
        assert_eq!(scenes[3].squares.iter().flatten().count(), 31);
    }

    #[test]
    fn makhos_capture_highlights_its_path() {
        let start: makhos::Position = "W:Wc3:Bd4,f6,h8".parse().unwrap();
        let mut game = makhos::Game::from_position(start, makhos::Rules::Default);
        let mv = game.play_text("c3xe5xg7").unwrap();
        let scenes = makhos_scenes(&game, true);
        assert_eq!(scenes.len(), 2);
        assert!(scenes[1].flipped);
        assert_eq!(scenes[1].highlight.len(), 1 + mv.path().len());
        assert_eq!(scenes[1].highlight[0], makhos_cell(mv.from()));
        assert_eq!(scenes[1].squares.iter().flatten().count(), 2);
    }
}
