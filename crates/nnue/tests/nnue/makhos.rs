//! The Mak-hot network's pipeline: generation resumes, the trainer fits a
//! known target, the engine's int16 inference stays within a stated
//! tolerance of the float network and gives the same answer with every
//! kernel, and shards or checkpoints of the other game are refused.

use engine::eval::nnue::{Base, Layout, Network, makhos as net, simd};
use engine::{Game, MakhosGame};
use makhos::{Color, Position};
use nnue::data::{Record, Sample, read_shard, shard_path};
use nnue::makhos_data::MakhosRecord;
use nnue::model::Rng;
use nnue::selfplay::{GenConfig, generate_makhos};
use nnue::train::{Checkpoint, TrainConfig, loss, train};

/// Positions of random Mak-hot games from the start (every ply).
fn random_positions(games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut rng = Rng(seed);
        let mut g = MakhosGame::new(Position::start(), makhos::Rules::Default, 0);
        for _ in 0..120 {
            out.push(g.pos);
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g = g.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
    out
}

/// Material from the side to move's view (a man 100, a king 300): the
/// synthetic target.
fn material(pos: &Position) -> i32 {
    let side = |c: Color| 100 * pos.men(c).count() as i32 + 300 * pos.kings(c).count() as i32;
    side(pos.turn()) - side(pos.turn().other())
}

/// The stated tolerance of quantisation: the engine's int16 score against
/// the float network's, in centi-men, over held-out positions.
const QUANT_MEAN: f32 = 2.0;
/// See [`QUANT_MEAN`].
const QUANT_MAX: f32 = 10.0;

#[test]
fn the_trainer_fits_mak_hot_material_and_the_engine_reads_the_network() {
    let data: Vec<MakhosRecord> = random_positions(800)
        .iter()
        .map(|p| MakhosRecord::new(p, material(p), 1, 0))
        .collect();
    let (fit, check) = data.split_at(data.len() * 4 / 5);
    let cfg = TrainConfig {
        batch: 128,
        lr: 3e-3,
        lr_drop_every: 100,
        epochs: 6,
        lambda: 1.0,
        ..TrainConfig::default()
    };
    let mut ck = Checkpoint::new_for(3, Base::Zero, Layout::Makhos);
    let before = loss(&ck.model, check, &cfg);
    train(&mut ck, fit, check, &cfg, |_, _| Ok(())).unwrap();
    let after = loss(&ck.model, check, &cfg);
    assert!(after < before / 10.0, "validation loss {before} -> {after}");

    let bytes = ck.model.quantize("synthetic Mak-hot").to_bytes();
    let network = Network::from_bytes(&bytes).unwrap();
    assert_eq!(network.layout, Layout::Makhos);
    let (mut us, mut them) = (Vec::new(), Vec::new());
    let (mut sum, mut max, mut err, mut spread) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for r in check {
        let bucket = r.inputs(&mut us, &mut them);
        let float = ck.model.centipawns(&us, &them, bucket);
        let int = net::evaluate(&network, &r.pos);
        // Every kernel gives the same integer.
        for kernel in [simd::Kernel::Scalar, simd::Kernel::Avx2] {
            assert_eq!(net::evaluate_with(&network, &r.pos, kernel), int);
        }
        let d = (float - int as f32).abs();
        sum += d;
        max = max.max(d);
        if r.score.abs() <= 500 {
            err += (float - f32::from(r.score)).abs();
            spread += f32::from(r.score).abs();
        }
    }
    let mean = sum / check.len() as f32;
    eprintln!("quantisation: mean {mean}, max {max}; error {err} against spread {spread}");
    assert!(
        mean <= QUANT_MEAN && max <= QUANT_MAX,
        "mean {mean}, max {max}"
    );
    assert!(err < 0.3 * spread, "error {err}, spread {spread}");

    // The search plays with it: a game's evaluation is the network's.
    let net: &'static Network = Box::leak(Box::new(network));
    let g = MakhosGame::new(check[0].pos, makhos::Rules::Default, 0).with_network(net);
    assert_eq!(g.evaluate(), net::evaluate(net, &check[0].pos));
}

#[test]
fn mak_hot_generation_resumes_and_its_shards_are_its_own() {
    let base = std::env::temp_dir().join(format!("thaiboard-makhos-gen-{}", std::process::id()));
    let (a, b) = (base.join("a"), base.join("b"));
    let cfg = |shards| GenConfig {
        nodes: 300,
        random_plies: 6,
        max_plies: 300,
        games_per_shard: 3,
        shards,
        seed: 7,
        network: None,
    };
    generate_makhos(&a, &cfg(2), |_| {}).unwrap();
    generate_makhos(&b, &cfg(1), |_| {}).unwrap();
    let mut written = Vec::new();
    generate_makhos(&b, &cfg(2), |s| written.push(s.shard)).unwrap();
    assert_eq!(written, vec![1]);
    for n in 0..2 {
        let x: Vec<MakhosRecord> = read_shard(&shard_path(&a, n)).unwrap();
        let y: Vec<MakhosRecord> = read_shard(&shard_path(&b, n)).unwrap();
        assert_eq!(x, y, "shard {n}");
        assert!(x.iter().any(|r| r.pos.turn() == Color::Black));
        assert!(x.iter().any(|r| r.game == 2));
        assert!(x.iter().any(|r| r.score != 0));
        // Quiet positions only: no capture pending.
        assert!(x.iter().all(|r| !r.pos.has_capture()));
    }
    // A Makruk reader refuses a Mak-hot shard, saying what it expected.
    let err = read_shard::<Record>(&shard_path(&a, 0)).unwrap_err();
    assert!(err.contains("not a makruk training shard"), "{err}");
    // A Makruk network is refused for Mak-hot games.
    let makruk: &'static Network = Box::leak(Box::new(Network::zeroed()));
    let err = generate_makhos(
        &a,
        &GenConfig {
            network: Some(makruk),
            ..cfg(3)
        },
        |_| {},
    )
    .unwrap_err();
    assert_eq!(err, "the network is for makruk, not makhos");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn checkpoints_keep_their_game() {
    let ck = Checkpoint::new_for(2, Base::Zero, Layout::Makhos);
    let back = Checkpoint::from_bytes(&ck.to_bytes()).unwrap();
    assert_eq!(back, ck);
    assert_eq!(back.model.shape.layout, Layout::Makhos);
    // A Makruk checkpoint does not learn from Mak-hot positions.
    let records = vec![MakhosRecord::new(&Position::start(), 0, 1, 0)];
    let mut makruk = Checkpoint::new(2, Base::Zero);
    let err = train(
        &mut makruk,
        &records,
        &[],
        &TrainConfig::default(),
        |_, _| Ok(()),
    )
    .unwrap_err();
    assert_eq!(err, "a makruk network cannot learn from makhos positions");
}
