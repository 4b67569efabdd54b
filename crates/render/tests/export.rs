//! Exports decoded back: the GIF's frames, composed as a viewer composes
//! them, are exactly the pictures of the game's positions (in the palette),
//! and the PNG is exactly the picture.

use render::{
    Palette, Renderer, Scene, Timing, encode_gif, encode_png, makhos_scenes, makruk_scenes,
};
use resvg::tiny_skia::Pixmap;

/// Decodes a GIF into its composed frames (palette indices) and delays.
fn decode(gif_bytes: &[u8]) -> (usize, Vec<Vec<u8>>, Vec<u16>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif_bytes).unwrap();
    let width = usize::from(decoder.width());
    assert_eq!(decoder.width(), decoder.height());
    let mut canvas = vec![0u8; width * width];
    let (mut frames, mut delays) = (Vec::new(), Vec::new());
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        for y in 0..usize::from(frame.height) {
            for x in 0..usize::from(frame.width) {
                canvas[(usize::from(frame.top) + y) * width + usize::from(frame.left) + x] =
                    frame.buffer[y * usize::from(frame.width) + x];
            }
        }
        frames.push(canvas.clone());
        delays.push(frame.delay);
    }
    (width, frames, delays)
}

fn check_round_trip(renderer: &Renderer, scenes: &[Scene]) {
    let timing = Timing {
        frame_ms: 500,
        final_ms: 2000,
    };
    let bytes = encode_gif(renderer, scenes, timing).unwrap();
    let (width, frames, delays) = decode(&bytes);
    assert_eq!(width as u32, renderer.size());
    assert_eq!(frames.len(), scenes.len());
    let mut palette = Palette::ours();
    for (i, (frame, scene)) in frames.iter().zip(scenes).enumerate() {
        let want = palette.index_pixmap(&renderer.draw(scene));
        let diff: Vec<usize> = (0..want.len()).filter(|&k| frame[k] != want[k]).collect();
        assert!(
            diff.is_empty(),
            "frame {i}: {} pixels differ from its position's picture, first at {:?}: {} vs {}",
            diff.len(),
            diff.first().map(|k| (k % width, k / width)),
            diff.first().map_or(0, |&k| frame[k]),
            diff.first().map_or(0, |&k| want[k]),
        );
    }
    assert!(delays[..delays.len() - 1].iter().all(|&d| d == 50));
    assert_eq!(*delays.last().unwrap(), 200);
}

#[test]
fn makruk_game_gif_round_trips() {
    let mut game = makruk::Game::new(makruk::Variant::Makruk);
    for m in ["e3e4", "d6d5", "e4d5", "c8d7", "b1d2", "d7d6", "a1b1"] {
        game.play_uci(m).unwrap();
    }
    let renderer = Renderer::new(24);
    check_round_trip(&renderer, &makruk_scenes(&game, false));
    check_round_trip(&renderer, &makruk_scenes(&game, true));
}

#[test]
fn makhos_game_gif_round_trips() {
    let mut game = makhos::Game::new(makhos::Rules::Default);
    for _ in 0..12 {
        let Some(mv) = game.legal_moves().first().cloned() else {
            break;
        };
        game.play(&mv).unwrap();
    }
    check_round_trip(&Renderer::new(20), &makhos_scenes(&game, false));
}

#[test]
fn a_repeated_position_still_gets_its_frame() {
    let scene = Scene::makruk(&makruk::Position::new(makruk::Variant::Makruk));
    check_round_trip(&Renderer::new(16), &[scene.clone(), scene.clone(), scene]);
}

#[test]
fn palette_colours_stay_close_to_the_picture() {
    // Quantisation error: every pixel of a busy picture within a small distance.
    let mut game = makruk::Game::new(makruk::Variant::Makruk);
    game.play_uci("e3e4").unwrap();
    let renderer = Renderer::new(48);
    let picture = renderer.draw(&makruk_scenes(&game, false)[1]);
    let mut palette = Palette::ours();
    let mut worst = 0;
    for p in picture.pixels() {
        let c = [p.red(), p.green(), p.blue()];
        let index = palette.index_of(c);
        let q = palette.color(index);
        let d: i32 = (0..3)
            .map(|k| (i32::from(c[k]) - i32::from(q[k])).abs())
            .max()
            .unwrap();
        worst = worst.max(d);
    }
    assert!(worst <= 40, "worst channel error {worst}");
}

#[test]
fn png_round_trips() {
    let renderer = Renderer::new(30);
    let scene = Scene::makhos(&makhos::Position::start()).with_flipped(true);
    let bytes = encode_png(&renderer, &scene);
    let decoded = Pixmap::decode_png(&bytes).unwrap();
    assert_eq!(decoded, renderer.draw(&scene));
}
