//! `thaiboard tune spsa` end to end: a run over real games moves its
//! parameter toward the side that wins, is continued by running it again,
//! and refuses bad input with the reason.

use crate::common::{arg, scratch, thaiboard};

const OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/openings/makruk.epd"
);

/// The current value of `name` in `tune spsa --show`'s output.
fn shown(stdout: &str, name: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no {name} in {stdout}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

#[test]
fn a_run_climbs_toward_the_stronger_side_and_continues_where_it_stopped() {
    let dir = scratch("spsa");
    let params = dir.join("params.csv");
    // Skill Level as the parameter: the early perturbation (more than
    // c_end) plays full strength against level 0, so whichever way the
    // sign points, the stronger engine wins and the value climbs. A pair
    // can still come out even (two draws, or a game each: the weaker side's
    // moves are random), so each run plays six pairs, and the value must
    // climb in each.
    std::fs::write(&params, "Skill Level,int,10,0,20,10,0.002\n").unwrap();
    let out = dir.join("run");
    let play = |steps: &str| {
        thaiboard(&[
            "tune",
            "spsa",
            "--out",
            arg(&out),
            "--params",
            arg(&params),
            "--pairs",
            "40",
            "--batch",
            "1",
            "--steps",
            steps,
            "--nodes",
            "300",
            "--maxmoves",
            "80",
            "--openings",
            OPENINGS,
        ])
    };
    let (ok, stdout, stderr) = play("6");
    assert!(ok, "{stdout}{stderr}");
    assert!(stderr.contains("pairs 6/40"), "{stderr}");
    let after_six = shown(&stdout, "Skill Level");
    let (ok, stdout, stderr) = play("6");
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stderr.contains("pairs 12/40") && !stderr.contains("pairs 6/40"),
        "{stderr}"
    );
    let after_twelve = shown(&stdout, "Skill Level");
    // The log has a header and a line a step.
    let log = std::fs::read_to_string(out.join("steps.csv")).unwrap();
    assert!(
        after_six > 10.0 && after_twelve > after_six,
        "{after_six} {after_twelve}: {log}"
    );
    assert_eq!(log.lines().count(), 13, "{log}");
    assert!(
        log.starts_with("pairs,wins,losses,draws,Skill Level\n"),
        "{log}"
    );
    // --show prints the run without playing.
    let (ok, stdout, _) = thaiboard(&["tune", "spsa", "--out", arg(&out), "--show"]);
    assert!(ok);
    assert!(stdout.starts_with("pairs 12/40"), "{stdout}");
    let word = format!("option.Skill Level={}", after_twelve.round());
    assert!(stdout.contains(&word), "{word}: {stdout}");
}

#[test]
fn bad_input_is_refused_with_the_reason() {
    let dir = scratch("spsa-bad");
    let params = dir.join("params.csv");
    std::fs::write(
        &params,
        "RFPMargin,int,100,40,250,10,0.002\nLMPBase,int,3,0,12\n",
    )
    .unwrap();
    let out = dir.join("run");
    let (ok, _, stderr) = thaiboard(&[
        "tune",
        "spsa",
        "--out",
        arg(&out),
        "--params",
        arg(&params),
        "--nodes",
        "300",
        "--openings",
        OPENINGS,
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("line 2") && stderr.contains("7 fields"),
        "{stderr}"
    );
    assert!(!out.join("spsa.json").exists());
    // A folder without a run has nothing to show.
    let (ok, _, stderr) = thaiboard(&["tune", "spsa", "--out", arg(&out), "--show"]);
    assert!(!ok && stderr.contains("holds no run"), "{stderr}");
    // No limit.
    let (ok, _, stderr) = thaiboard(&["tune", "spsa", "--out", arg(&out), "--openings", OPENINGS]);
    assert!(!ok && stderr.contains("--tc or --nodes"), "{stderr}");
    // A stopped run continues only with its own parameters.
    std::fs::write(&params, "RFPMargin,int,100,40,250,10,0.002\n").unwrap();
    let run = |p: &std::path::Path| {
        thaiboard(&[
            "tune",
            "spsa",
            "--out",
            arg(&out),
            "--params",
            arg(p),
            "--nodes",
            "200",
            "--maxmoves",
            "40",
            "--batch",
            "1",
            "--steps",
            "1",
            "--openings",
            OPENINGS,
        ])
    };
    let (ok, stdout, stderr) = run(&params);
    assert!(ok, "{stdout}{stderr}");
    // ... and with the same games.
    let (ok, _, stderr) = thaiboard(&[
        "tune",
        "spsa",
        "--out",
        arg(&out),
        "--nodes",
        "300",
        "--maxmoves",
        "40",
        "--batch",
        "1",
        "--steps",
        "1",
        "--openings",
        OPENINGS,
    ]);
    assert!(!ok && stderr.contains("give the same options"), "{stderr}");
    assert!(
        stderr.contains("nodes 200") && stderr.contains("nodes 300"),
        "{stderr}"
    );
    std::fs::write(&params, "RFPMargin,int,100,40,260,10,0.002\n").unwrap();
    let (ok, _, stderr) = run(&params);
    assert!(
        !ok && stderr.contains("differ from the stopped run"),
        "{stderr}"
    );
    // The engine's own parameters, in the form --params reads.
    let (ok, stdout, _) = thaiboard(&["tune", "spsa", "--print-params"]);
    assert!(ok);
    assert!(
        stdout.lines().all(|l| l.split(',').count() == 7),
        "{stdout}"
    );
    assert!(
        stdout.contains("LMRDivisor,int,225,120,400,12,0.002"),
        "{stdout}"
    );
}
