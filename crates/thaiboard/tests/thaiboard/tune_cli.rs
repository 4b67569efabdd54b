//! `thaiboard tune` end to end: gen, run, match on a tiny Mak-hot set, and
//! clear errors for bad input.

use crate::common::run;

#[test]
fn tune_gen_run_match() {
    let dir = std::env::temp_dir().join(format!("thaiboard-tune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.txt");
    let weights = dir.join("w.txt");
    let (data_s, weights_s) = (data.to_str().unwrap(), weights.to_str().unwrap());
    let play = [
        "--nodes",
        "200",
        "--max-plies",
        "200",
        "--random-plies",
        "4",
    ];

    let mut args = vec![
        "tune", "gen", "--game", "makhos", "--games", "3", "--out", data_s,
    ];
    args.extend(play);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("games 3 positions "), "{stdout}");
    let lines = std::fs::read_to_string(&data).unwrap();
    assert!(lines.lines().count() > 10);

    let out = run(&[
        "tune", "run", "--game", "makhos", "--passes", "2", "--out", weights_s, data_s,
    ]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("pub const DEFAULT: MakhosWeights = MakhosWeights {"));
    assert!(String::from_utf8(out.stderr).unwrap().contains("K "));

    let mut args = vec![
        "tune", "match", "--game", "makhos", "--pairs", "1", weights_s,
    ];
    args.extend(play);
    let out = run(&args);
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("games 2 ")
    );

    // A Makruk dataset line where a Mak-hot one is expected: exit 2, line named.
    std::fs::write(
        &data,
        "1 W:Wa1:Bh8\n0.5 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n",
    )
    .unwrap();
    let out = run(&["tune", "run", "--game", "makhos", data_s]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("line 2"));
    let out = run(&["tune", "run", "--game", "makruk", "/nonexistent/d.txt"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_fit_writes_a_weights_module() {
    let dir = std::env::temp_dir().join(format!("thaiboard-tune-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("scored.txt");
    let out_rs = dir.join("makruk_weights.rs");
    // Twenty scored positions: the start position at +30 and a ruea-up
    // position for each side at +-600.
    let mut text = String::new();
    for _ in 0..4 {
        text += "30 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n";
        text += "600 rnsmksn1/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1\n";
        text += "-600 rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN1 b - - 0 1\n";
        text += "25 rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1\n";
        text += "-20 rnsmksnr/8/ppp1pppp/3p4/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 2\n";
    }
    std::fs::write(&data, text).unwrap();
    let out = run(&[
        "tune",
        "fit",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "20",
        "--out",
        out_rs.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let log = String::from_utf8(out.stderr).unwrap();
    assert!(
        log.contains("18 positions to fit, 2 held out, 0 skipped"),
        "{log}"
    );
    assert!(log.contains("end: error "), "{log}");
    let src = std::fs::read_to_string(&out_rs).unwrap();
    assert!(src.contains("pub const MG: [i16; COUNT] = ["), "{src}");
    assert!(src.contains("pub const EG: [i16; COUNT] = ["), "{src}");

    // A broken line is named; a missing file is named.
    std::fs::write(&data, "12 rnsmksnr/8/8\n").unwrap();
    let out = run(&["tune", "fit", "--data", data.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8(out.stderr).unwrap().contains("line 1: "));
    let out = run(&["tune", "fit", "--data", "/nonexistent/scored.txt"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("/nonexistent/scored.txt")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
