//! The rule book lives in the repository (`RULES.md`, cited by the rules
//! crates' doc comments) and must stay identical to the shared copy beside
//! it (`../shared/RULES.md`), which is where rule changes arrive.

#[test]
fn the_rule_book_in_the_repository_equals_the_shared_copy() {
    let ours = include_str!("../../../RULES.md");
    let shared_path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/RULES.md");
    let shared = std::fs::read_to_string(shared_path).unwrap_or_else(|e| {
        panic!("cannot read {shared_path}: {e} (shared/ must sit beside the repository)")
    });
    assert!(
        ours == shared,
        "RULES.md differs from {shared_path}: copy the shared rule book into the repository"
    );
    // It is the rule book: both games' sections are there.
    assert!(ours.contains("## 1. Makruk") && ours.contains("## 2. Mak-hot"));
}
