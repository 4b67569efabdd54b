//! The rule book lives in the repository (`RULES.md`, cited by the rules
//! crates' doc comments). Whether it still equals the copy where rule
//! changes arrive (`../shared/RULES.md`) is a step of `.ci/run`
//! (`.ci/shared_copies.sh`), which runs only where that folder exists.

#[test]
fn the_rule_book_covers_both_games() {
    let ours = include_str!("../../../RULES.md");
    assert!(ours.contains("## 1. Makruk") && ours.contains("## 2. Mak-hot"));
}
