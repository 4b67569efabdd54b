//! The layout of the Makruk evaluation terms: every term is a feature with
//! a middlegame and an endgame weight (see [`super`]). This module
//! only names the features and gives their indices, so the evaluation, the
//! trace used by the tuner and the generated weight tables agree.

/// Index of the first material feature (bia, met, khon, ma, ruea, khun,
/// promoted bia).
pub const MATERIAL: usize = 0;
/// Index of the first piece-square feature: 6 roles × 64 squares, from the
/// owner's side (Black's squares turned 180 degrees).
pub const PSQT: usize = MATERIAL + 7;
/// Met mobility by number of safe squares (0 to 4).
pub const MOB_MET: usize = PSQT + 6 * 64;
/// Khon mobility by number of safe squares (0 to 5).
pub const MOB_KHON: usize = MOB_MET + 5;
/// Ma mobility by number of safe squares (0 to 8).
pub const MOB_MA: usize = MOB_KHON + 6;
/// Ruea mobility by number of safe squares (0 to 14).
pub const MOB_RUEA: usize = MOB_MA + 9;
/// Doubled bia (per bia behind another own bia on its file).
pub const BIA_DOUBLED: usize = MOB_RUEA + 15;
/// Isolated bia (no own bia on the neighbouring files).
pub const BIA_ISOLATED: usize = BIA_DOUBLED + 1;
/// Bia with an own bia beside it on the same rank.
pub const BIA_PHALANX: usize = BIA_ISOLATED + 1;
/// Bia defended by an own bia.
pub const BIA_PROTECTED: usize = BIA_PHALANX + 1;
/// Passed bia by relative rank (0 to 7; only 2 to 5 occur).
pub const BIA_PASSED: usize = BIA_PROTECTED + 1;
/// Ruea on a file without bias.
pub const RUEA_OPEN: usize = BIA_PASSED + 8;
/// Ruea on a file without own bias.
pub const RUEA_HALF_OPEN: usize = RUEA_OPEN + 1;
/// Pressure on the enemy khun: by the number (0 to 7, capped) of own met,
/// khon, ma and ruea attacking a square of its zone.
pub const KHUN_ATTACKERS: usize = RUEA_HALF_OPEN + 1;
/// Khun shelter: by the number (0 to 3) of own bias on the three squares
/// in front of it, one or two ranks ahead.
pub const KHUN_SHELTER: usize = KHUN_ATTACKERS + 8;
/// A piece (met, khon, ma, ruea) attacked by an enemy bia, by role.
pub const THREAT_BY_BIA: usize = KHUN_SHELTER + 4;
/// A piece (bia, met, khon, ma, ruea) attacked and not defended, by role.
pub const HANGING: usize = THREAT_BY_BIA + 6;
/// The side to move.
pub const TEMPO: usize = HANGING + 6;
/// A safe check is available, by role (met, khon, ma, ruea): from a square
/// not defended by anything but the khun (and then covered by another own
/// piece), see `attacks.rs`.
pub const SAFE_CHECK: usize = TEMPO + 1;
/// A piece attacked by an enemy met, khon or ma, by role (bia only when
/// undefended).
pub const THREAT_BY_MINOR: usize = SAFE_CHECK + 4;
/// A piece attacked by an enemy ruea, by role (bia only when undefended).
pub const THREAT_BY_RUEA: usize = THREAT_BY_MINOR + 5;
/// A ma on the 4th to 6th rank, defended by a bia, out of enemy bias' reach.
pub const MA_OUTPOST: usize = THREAT_BY_RUEA + 5;
/// A khon on such an outpost.
pub const KHON_OUTPOST: usize = MA_OUTPOST + 1;
/// Steps from the own khun to the promotion squares of passed bias.
pub const PASSED_OWN_KHUN: usize = KHON_OUTPOST + 1;
/// Steps from the enemy khun to the promotion squares of passed bias.
pub const PASSED_THEIR_KHUN: usize = PASSED_OWN_KHUN + 1;
/// Bias with an enemy piece right in front of them.
pub const BIA_BLOCKED: usize = PASSED_THEIR_KHUN + 1;
/// A bia defended by an own bia, by relative rank (0 to 7).
pub const BIA_PROTECTED_RANK: usize = BIA_BLOCKED + 1;
/// A bia with an own bia beside it, by relative rank (0 to 7).
pub const BIA_PHALANX_RANK: usize = BIA_PROTECTED_RANK + 8;
/// Material balance: the number of own pieces of a role (met, khon, ma,
/// ruea) times the number of own bias.
pub const IMBALANCE_OWN_BIAS: usize = BIA_PHALANX_RANK + 8;
/// The number of own pieces of a role (met, khon, ma, ruea) times the
/// number of enemy bias.
pub const IMBALANCE_THEIR_BIAS: usize = IMBALANCE_OWN_BIAS + 4;
/// Space: safe squares of the own half's centre files (c to f, ranks 2 to
/// 4 from the own side) not attacked by enemy bias, times the number of
/// own pieces other than bias and khun.
pub const SPACE: usize = IMBALANCE_THEIR_BIAS + 4;
/// Steps (king distance) from the enemy khun, summed over the own pieces of
/// a role (met, khon, ma, ruea).
pub const TROPISM: usize = SPACE + 1;
/// Number of features.
pub const COUNT: usize = TROPISM + 4;

/// The game phase of a full board; 0 is a bare ending.
pub const PHASE_MAX: i32 = 50;

/// The name of feature `i`, e.g. `psqt.ma.f3` or `mob.ruea[7]`.
pub fn name(i: usize) -> String {
    const ROLES: [&str; 6] = ["bia", "met", "khon", "ma", "ruea", "khun"];
    let ranges: [(usize, &str); 32] = [
        (MATERIAL, "material"),
        (PSQT, "psqt"),
        (MOB_MET, "mob.met"),
        (MOB_KHON, "mob.khon"),
        (MOB_MA, "mob.ma"),
        (MOB_RUEA, "mob.ruea"),
        (BIA_DOUBLED, "bia.doubled"),
        (BIA_ISOLATED, "bia.isolated"),
        (BIA_PHALANX, "bia.phalanx"),
        (BIA_PROTECTED, "bia.protected"),
        (BIA_PASSED, "bia.passed"),
        (RUEA_OPEN, "ruea.open_file"),
        (RUEA_HALF_OPEN, "ruea.half_open_file"),
        (KHUN_ATTACKERS, "khun.attackers"),
        (KHUN_SHELTER, "khun.shelter"),
        (THREAT_BY_BIA, "threat.by_bia"),
        (HANGING, "hanging"),
        (TEMPO, "tempo"),
        (SAFE_CHECK, "safe_check"),
        (THREAT_BY_MINOR, "threat.by_minor"),
        (THREAT_BY_RUEA, "threat.by_ruea"),
        (MA_OUTPOST, "ma.outpost"),
        (KHON_OUTPOST, "khon.outpost"),
        (PASSED_OWN_KHUN, "bia.passed.own_khun_distance"),
        (PASSED_THEIR_KHUN, "bia.passed.their_khun_distance"),
        (BIA_BLOCKED, "bia.blocked"),
        (BIA_PROTECTED_RANK, "bia.protected_rank"),
        (BIA_PHALANX_RANK, "bia.phalanx_rank"),
        (IMBALANCE_OWN_BIAS, "imbalance.own_bias"),
        (IMBALANCE_THEIR_BIAS, "imbalance.their_bias"),
        (SPACE, "space"),
        (TROPISM, "tropism"),
    ];
    let (start, label) = ranges
        .iter()
        .rev()
        .find(|(start, _)| i >= *start)
        .copied()
        .unwrap_or((0, "material"));
    let k = i - start;
    match start {
        MATERIAL => format!("material.{}", ROLES.get(k).copied().unwrap_or("promoted")),
        PSQT => {
            let sq = k % 64;
            let file = (b'a' + (sq % 8) as u8) as char;
            format!("psqt.{}.{}{}", ROLES[k / 64], file, sq / 8 + 1)
        }
        THREAT_BY_BIA | HANGING | THREAT_BY_MINOR | THREAT_BY_RUEA => {
            format!("{label}.{}", ROLES[k])
        }
        SAFE_CHECK | IMBALANCE_OWN_BIAS | IMBALANCE_THEIR_BIAS | TROPISM => {
            format!("{label}.{}", ROLES[k + 1])
        }
        _ if i >= COUNT => format!("unknown[{i}]"),
        _ if matches!(
            start,
            BIA_DOUBLED
                | BIA_ISOLATED
                | BIA_PHALANX
                | BIA_PROTECTED
                | RUEA_OPEN
                | RUEA_HALF_OPEN
                | TEMPO
                | MA_OUTPOST
                | KHON_OUTPOST
                | PASSED_OWN_KHUN
                | PASSED_THEIR_KHUN
                | BIA_BLOCKED
                | SPACE
        ) =>
        {
            label.to_string()
        }
        _ => format!("{label}[{k}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_cover_every_feature() {
        let names: Vec<String> = (0..COUNT).map(name).collect();
        let unique: std::collections::HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), COUNT);
        assert_eq!(name(MATERIAL + 3), "material.ma");
        assert_eq!(name(MATERIAL + 6), "material.promoted");
        assert_eq!(name(PSQT + 64 * 3 + 21), "psqt.ma.f3");
        assert_eq!(name(MOB_RUEA + 7), "mob.ruea[7]");
        assert_eq!(name(HANGING + 4), "hanging.ruea");
        assert_eq!(name(TEMPO), "tempo");
        assert_eq!(name(SAFE_CHECK + 3), "safe_check.ruea");
        assert_eq!(name(THREAT_BY_MINOR + 4), "threat.by_minor.ruea");
        assert_eq!(name(BIA_BLOCKED), "bia.blocked");
        assert_eq!(name(BIA_BLOCKED), "bia.blocked");
        assert_eq!(name(IMBALANCE_THEIR_BIAS + 3), "imbalance.their_bias.ruea");
        assert_eq!(name(COUNT - 1), "tropism.ruea");
    }
}
