//! `thaiboard loadtest`: a small run against its own in-process server, and bad options.

#![cfg(feature = "server")]

use crate::common::run;

/// The number after `label` in the report.
fn figure(report: &str, label: &str) -> f64 {
    let rest = &report[report
        .find(label)
        .unwrap_or_else(|| panic!("no {label} in {report}"))
        + label.len()..];
    let number: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number after {label} in {report}"))
}

#[test]
fn loadtest_plays_games_on_its_own_server() {
    let out = run(&[
        "loadtest",
        "--games",
        "4",
        "--games-per-pair",
        "2",
        "--plies",
        "6",
        "--think-ms",
        "5",
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(figure(&report, "games:"), 4.0, "{report}");
    assert_eq!(figure(&report, "moves:"), 24.0, "{report}");
    assert_eq!(figure(&report, "errors:"), 0.0, "{report}");
    assert!(figure(&report, "p99") > 0.0, "{report}");
    // The in-process server's CPU use is measured (it did some work).
    assert!(
        report.contains("server ") && !report.contains("server ?"),
        "{report}"
    );
}

#[test]
fn loadtest_refuses_bad_options() {
    let out = run(&["loadtest", "--variant", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
    let out = run(&["loadtest", "--games-per-pair", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["loadtest", "--bot-share", "1.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bot-share must be between 0 and 1"));
    let out = run(&["loadtest", "--server-pid", "1"]);
    assert_eq!(out.status.code(), Some(2), "--server-pid needs --url");
    let out = run(&["loadtest", "--url", "http://127.0.0.1:1", "--games", "2"]);
    // Nothing listens there: every setup fails, reported as errors (exit 1), not a panic.
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(figure(&report, "errors:") >= 1.0, "{report}");
}
