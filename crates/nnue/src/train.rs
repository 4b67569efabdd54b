//! The trainer: Adam on mini-batches, the loss the squared distance
//! between the network's win expectation and a target blending the search
//! score's with the game's result, a validation split by game, and
//! checkpoints after each epoch from which training resumes exactly.

use crate::data::Sample;
use crate::model::{Model, Rng, Shape};
use engine::eval::nnue::{Base, Layout, OUTPUT_SCALE};
use std::path::Path;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub lr: f32,
    /// The step size is multiplied by `lr_gamma` every `lr_drop_every`
    /// epochs.
    pub lr_drop_every: u32,
    /// See `lr_drop_every`.
    pub lr_gamma: f32,
    /// Epochs to reach (a resumed run continues up to this many).
    pub epochs: u32,
    /// The share of the target taken from the search score (the rest from
    /// the game's result): 1.0 fits the scores only.
    pub lambda: f32,
    /// Centipawns per unit of the logistic win expectation: a score `s`
    /// expects `1 / (1 + exp(-s / wdl_scale))`.
    pub wdl_scale: f32,
    /// Percent of the games held out for validation.
    pub val_percent: u32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Decoupled weight decay (AdamW): each step every feature and
    /// factoriser weight shrinks by `lr * weight_decay` of itself. With
    /// few games the network otherwise memorises them (the training loss
    /// falls while the held-out loss rises); 0 turns it off.
    pub weight_decay: f32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            batch: 16_384,
            lr: 1e-3,
            lr_drop_every: 10,
            lr_gamma: 0.3,
            epochs: 30,
            lambda: 0.7,
            wdl_scale: 400.0,
            val_percent: 5,
            seed: 1,
            weight_decay: 0.0,
        }
    }
}

impl TrainConfig {
    /// The step size during epoch `epoch` (0-based).
    pub fn lr_at(&self, epoch: u32) -> f32 {
        self.lr
            * self
                .lr_gamma
                .powi((epoch / self.lr_drop_every.max(1)) as i32)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a record: `lambda` of the search score's expectation and
/// the rest of the game's result, from the side to move's view.
pub fn target<R: Sample>(r: &R, cfg: &TrainConfig) -> f32 {
    cfg.lambda * sigmoid(f32::from(r.score()) / cfg.wdl_scale)
        + (1.0 - cfg.lambda) * r.result_for_mover()
}

/// Splits records into training and validation sets by game (the shard's
/// and the game's numbers hashed), so the positions of one game fall on
/// one side.
pub fn split<R: Sample>(records: Vec<(u64, R)>, val_percent: u32) -> (Vec<R>, Vec<R>) {
    let mut train = Vec::new();
    let mut val = Vec::new();
    for (shard, r) in records {
        let mut h = Rng(shard << 32 ^ u64::from(r.game()));
        if (h.next_u64() % 100) < u64::from(val_percent) {
            val.push(r);
        } else {
            train.push(r);
        }
    }
    (train, val)
}

/// The model with Adam's moments and where training stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The model.
    pub model: Model,
    /// Adam's first moments.
    pub m: Vec<f32>,
    /// Adam's second moments.
    pub v: Vec<f32>,
    /// Steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: u32,
    /// The best validation loss so far.
    pub best_val: f32,
}

/// The first bytes of a checkpoint file.
const CHECKPOINT_MAGIC: &[u8; 8] = b"THNNCKPT";
/// The checkpoint format version written (version 2, without the base,
/// is still read, as [`Base::Zero`]; versions 2 and 3, without the
/// layout, as Makruk's).
const CHECKPOINT_VERSION: u32 = 4;
/// Bytes before the parameters: magic, version, parameter count, epoch,
/// step, best validation loss, base, layout.
const CHECKPOINT_HEADER: usize = 40;

impl Checkpoint {
    /// A fresh start of a Makruk network from random weights, the output
    /// added to `base`.
    pub fn new(seed: u64, base: Base) -> Checkpoint {
        Checkpoint::new_for(seed, base, Layout::Makruk)
    }

    /// A fresh start of a network of `layout` from random weights, the
    /// output added to `base`.
    pub fn new_for(seed: u64, base: Base, layout: Layout) -> Checkpoint {
        let model = Model {
            base,
            ..Model::new_for(seed, layout)
        };
        let params = model.shape.params;
        Checkpoint {
            model,
            m: vec![0.0; params],
            v: vec![0.0; params],
            step: 0,
            epoch: 0,
            best_val: f32::INFINITY,
        }
    }

    /// The checkpoint as bytes: magic, version, parameter count, epoch,
    /// step, best validation loss, the base's code, the layout's code,
    /// the parameters and both moments (f32 little-endian), then a CRC-32
    /// of all before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let params = self.model.shape.params;
        let mut out = Vec::with_capacity(CHECKPOINT_HEADER + 12 * params + 4);
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&CHECKPOINT_VERSION.to_le_bytes());
        out.extend_from_slice(&(params as u32).to_le_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&self.best_val.to_le_bytes());
        out.extend_from_slice(&self.model.base.code().to_le_bytes());
        out.extend_from_slice(&self.model.shape.layout.code().to_le_bytes());
        for x in self.model.params.iter().chain(&self.m).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// A checkpoint from its bytes; a damaged or foreign file is refused.
    pub fn from_bytes(b: &[u8]) -> Result<Checkpoint, String> {
        if b.len() < 12 || &b[..8] != CHECKPOINT_MAGIC {
            return Err("not a training checkpoint (no THNNCKPT header)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        let header = match version {
            2 => CHECKPOINT_HEADER - 8,
            3 => CHECKPOINT_HEADER - 4,
            CHECKPOINT_VERSION => CHECKPOINT_HEADER,
            _ => {
                return Err(format!(
                    "checkpoint version {version}, this build reads 2 to {CHECKPOINT_VERSION}"
                ));
            }
        };
        if b.len() < header {
            return Err(format!(
                "checkpoint of {} bytes, cut short in its header",
                b.len()
            ));
        }
        let layout = if version < 4 {
            Layout::Makruk
        } else {
            let code = u32_at(36);
            Layout::from_code(code)
                .ok_or_else(|| format!("the checkpoint's layout {code} is unknown to this build"))?
        };
        let shape = Shape::of(layout);
        let params = shape.params;
        let want = header + 12 * params + 4;
        if b.len() != want {
            return Err(format!(
                "checkpoint of {} bytes, {want} expected (cut short or another shape)",
                b.len()
            ));
        }
        if u32_at(12) as usize != params {
            return Err(format!(
                "checkpoint of {} parameters, this build's {} network has {params}",
                u32_at(12),
                layout.name()
            ));
        }
        let stored = u32_at(want - 4);
        if crc32fast::hash(&b[..want - 4]) != stored {
            return Err("the checkpoint is damaged (checksum mismatch)".into());
        }
        let base = if version == 2 {
            Base::Zero
        } else {
            let code = u32_at(32);
            Base::from_code(code)
                .ok_or_else(|| format!("the checkpoint's base {code} is unknown to this build"))?
        };
        let floats: Vec<f32> = b[header..want - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        Ok(Checkpoint {
            model: Model {
                shape,
                params: floats[..params].to_vec(),
                base,
            },
            m: floats[params..2 * params].to_vec(),
            v: floats[2 * params..].to_vec(),
            epoch: u32_at(16),
            step: u64::from_le_bytes(b[20..28].try_into().expect("8 bytes")),
            best_val: f32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
        })
    }

    /// Reads a checkpoint file.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the checkpoint whole or not at all (a temporary file renamed).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The network inputs of records, decoded once per pass.
struct Inputs {
    us: Vec<u16>,
    them: Vec<u16>,
}

/// The mean loss of `model` over `records`.
pub fn loss<R: Sample>(model: &Model, records: &[R], cfg: &TrainConfig) -> f32 {
    let mut io = Inputs {
        us: Vec::with_capacity(32),
        them: Vec::with_capacity(32),
    };
    let mut sum = 0.0f64;
    for r in records {
        let bucket = r.inputs(&mut io.us, &mut io.them);
        let y = model.forward(&io.us, &io.them, bucket).y;
        let base = r.base_score(model.base) as f32;
        let p = sigmoid((y * OUTPUT_SCALE as f32 + base) / cfg.wdl_scale);
        sum += f64::from((p - target(r, cfg)).powi(2));
    }
    (sum / records.len().max(1) as f64) as f32
}

/// Adam's constants.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// One Adam step over a batch of records with their bases' scores;
/// returns the batch's mean loss.
fn step<R: Sample>(
    ck: &mut Checkpoint,
    batch: &[(&R, f32)],
    cfg: &TrainConfig,
    lr: f32,
    grad: &mut [f32],
) -> f32 {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let mut io = Inputs {
        us: Vec::with_capacity(32),
        them: Vec::with_capacity(32),
    };
    let scale = OUTPUT_SCALE as f32 / cfg.wdl_scale;
    let mut total = 0.0f32;
    for &(r, base) in batch {
        let bucket = r.inputs(&mut io.us, &mut io.them);
        let f = ck.model.forward(&io.us, &io.them, bucket);
        let p = sigmoid(f.y * scale + base / cfg.wdl_scale);
        let diff = p - target(r, cfg);
        total += diff * diff;
        let dy = 2.0 * diff * p * (1.0 - p) * scale / batch.len() as f32;
        ck.model.backward(&io.us, &io.them, &f, dy, grad);
    }
    ck.step += 1;
    let t = ck.step as i32;
    let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
    for (((w, g), m), v) in ck
        .model
        .params
        .iter_mut()
        .zip(grad.iter())
        .zip(ck.m.iter_mut())
        .zip(ck.v.iter_mut())
    {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
    }
    if cfg.weight_decay > 0.0 {
        let keep = 1.0 - lr * cfg.weight_decay;
        for range in ck.model.feature_ranges() {
            ck.model.params[range].iter_mut().for_each(|w| *w *= keep);
        }
    }
    ck.model.clip();
    total / batch.len() as f32
}

/// What one epoch did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch (1-based: epochs completed).
    pub epoch: u32,
    /// The step size used.
    pub lr: f32,
    /// The mean training loss over the epoch's batches.
    pub train_loss: f32,
    /// The validation loss after the epoch.
    pub val_loss: f32,
    /// Positions trained on per second.
    pub positions_per_second: f64,
}

/// Trains `ck` on `train` until `cfg.epochs` epochs are complete,
/// measuring `val` after each, and calls `on_epoch` with the checkpoint
/// after every epoch (to save it): stopping between epochs and resuming
/// from the saved checkpoint gives the same weights as not stopping.
pub fn train<R: Sample>(
    ck: &mut Checkpoint,
    train: &[R],
    val: &[R],
    cfg: &TrainConfig,
    mut on_epoch: impl FnMut(&Checkpoint, &EpochReport) -> Result<(), String>,
) -> Result<(), String> {
    if train.is_empty() {
        return Err("no training positions".into());
    }
    if ck.model.shape.layout != R::LAYOUT {
        return Err(format!(
            "a {} network cannot learn from {} positions",
            ck.model.shape.layout.name(),
            R::LAYOUT.name()
        ));
    }
    let mut grad = vec![0.0f32; ck.model.shape.params];
    let bases: Vec<f32> = train
        .iter()
        .map(|r| r.base_score(ck.model.base) as f32)
        .collect();
    let mut order: Vec<usize> = (0..train.len()).collect();
    while ck.epoch < cfg.epochs {
        let start = std::time::Instant::now();
        let lr = cfg.lr_at(ck.epoch);
        // The shuffle depends only on the seed and the epoch.
        let mut rng = Rng(cfg.seed ^ u64::from(ck.epoch).wrapping_mul(0xA076_1D64_78BD_642F));
        order.sort_unstable();
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut sum = 0.0f64;
        let mut batches = 0;
        for chunk in order.chunks(cfg.batch.max(1)) {
            let batch: Vec<(&R, f32)> = chunk.iter().map(|&i| (&train[i], bases[i])).collect();
            sum += f64::from(step(ck, &batch, cfg, lr, &mut grad));
            batches += 1;
        }
        ck.epoch += 1;
        let val_loss = if val.is_empty() {
            f32::NAN
        } else {
            loss(&ck.model, val, cfg)
        };
        if val_loss < ck.best_val {
            ck.best_val = val_loss;
        }
        let report = EpochReport {
            epoch: ck.epoch,
            lr,
            train_loss: (sum / f64::from(batches.max(1))) as f32,
            val_loss,
            positions_per_second: train.len() as f64 / start.elapsed().as_secs_f64().max(1e-9),
        };
        on_epoch(ck, &report)?;
    }
    Ok(())
}
