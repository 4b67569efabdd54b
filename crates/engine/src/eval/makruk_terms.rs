//! The layout of the Makruk evaluation terms: every term is a feature with
//! a middlegame and an endgame weight (see [`super::makruk`]). This module
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
/// Number of features.
pub const COUNT: usize = TEMPO + 1;

/// The game phase of a full board; 0 is a bare ending.
pub const PHASE_MAX: i32 = 50;

/// The name of feature `i`, e.g. `psqt.ma.f3` or `mob.ruea[7]`.
pub fn name(i: usize) -> String {
    const ROLES: [&str; 6] = ["bia", "met", "khon", "ma", "ruea", "khun"];
    let ranges: [(usize, &str); 18] = [
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
        THREAT_BY_BIA | HANGING => format!("{label}.{}", ROLES[k]),
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
    }
}
