//! One test (at least) per rule sentence of RULES.md section 2 (Mak-hot).

use makhos::{Color, EndReason, Game, Outcome, Position, Role, Rules, Square};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

/// Sorted legal moves in algebraic notation.
fn moves(text: &str, rules: Rules) -> Vec<String> {
    let mut v: Vec<String> = pos(text)
        .legal_moves(rules)
        .iter()
        .map(|m| m.to_algebraic())
        .collect();
    v.sort();
    v
}

/// Same legal moves under both rule sets.
fn moves_both(text: &str) -> Vec<String> {
    let a = moves(text, Rules::Default);
    assert_eq!(
        a,
        moves(text, Rules::NoReverse),
        "rule sets differ on {text}"
    );
    a
}

fn play(p: &Position, text: &str) -> Position {
    let m = p
        .parse_move(Rules::Default, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    p.played(&m)
}

// ---- Board and start -------------------------------------------------------------------

#[test]
fn board_is_the_dark_squares_with_a1_dark() {
    assert_eq!(Square::all().count(), 32);
    assert!(Square::parse("a1").is_ok());
    assert!(Square::parse("h8").is_ok());
    assert!(Square::parse("a2").is_err());
    assert!(Square::parse("h1").is_err());
    // Single corner (a1) on each player's left: White's a1 and Black's h8 are both dark.
    assert_eq!(sq("a1").rank(), 0);
    assert_eq!(sq("h8").file(), 7);
}

#[test]
fn start_position_has_eight_men_each_on_the_rulebook_squares() {
    let start = Position::start();
    let text = "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Bb8,d8,f8,h8,a7,c7,e7,g7";
    assert_eq!(pos(text), start);
    for s in ["a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2"] {
        let p = start.piece_at(sq(s)).unwrap();
        assert_eq!((p.color, p.role), (Color::White, Role::Man), "{s}");
    }
    for s in ["b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7"] {
        let p = start.piece_at(sq(s)).unwrap();
        assert_eq!((p.color, p.role), (Color::Black, Role::Man), "{s}");
    }
    assert_eq!(start.occupied().count(), 16);
}

#[test]
fn white_moves_first_and_players_alternate() {
    let mut g = Game::new(Rules::Default);
    assert_eq!(g.position().turn(), Color::White);
    assert_eq!(Position::default().turn(), Color::White);
    g.play_text("b2-c3").unwrap();
    assert_eq!(g.position().turn(), Color::Black);
    g.play_text("g7-h6").unwrap();
    assert_eq!(g.position().turn(), Color::White);
    // Each turn is exactly one move: a Black move is refused on White's turn.
    assert!(g.clone().play_text("h6-g5").is_err());
}

// ---- Moves --------------------------------------------------------------------------------

#[test]
fn man_moves_one_square_diagonally_forward_to_an_empty_square() {
    assert_eq!(moves_both("W:Wc3:Bh8"), ["c3-b4", "c3-d4"]);
    assert_eq!(moves_both("B:Wa1:Bd6"), ["d6-c5", "d6-e5"]);
    // Never backwards, never onto an occupied square.
    assert_eq!(moves_both("W:Wc3,d4:Bb2,h8"), ["c3-b4", "d4-c5", "d4-e5"]);
    assert_eq!(moves_both("W:Wa3:Bb4,c5"), Vec::<String>::new());
}

#[test]
fn man_reaching_the_far_rank_becomes_a_king() {
    let p = play(&pos("W:Wc7:Bh2"), "c7-b8");
    assert_eq!(p.piece_at(sq("b8")).unwrap().role, Role::King);
    let p = play(&pos("B:Wg3:Bd2"), "d2-c1");
    assert_eq!(p.piece_at(sq("c1")).unwrap().role, Role::King);
    assert_eq!(p.to_string(), "W:Wg3:BKc1");
    // A man short of the far rank stays a man.
    let p = play(&pos("W:Wc5:Bh2"), "c5-d6");
    assert_eq!(p.piece_at(sq("d6")).unwrap().role, Role::Man);
}

#[test]
fn promotion_during_a_capture_ends_the_move() {
    // b6xd8 promotes; as a king on d8 it could take e7 (landing f6), but the move ends.
    assert_eq!(moves_both("W:Wb6:Bc7,e7"), ["b6xd8"]);
    let p = play(&pos("W:Wb6:Bc7,e7"), "b6xd8");
    assert_eq!(p.to_string(), "B:WKd8:Be7");
    // The same for Black: g3xe1 promotes and stops although d2 could then be taken.
    assert_eq!(moves_both("B:Wf2,d2:Bg3"), ["g3xe1"]);
}

#[test]
fn king_moves_any_number_of_empty_squares_along_a_diagonal() {
    assert_eq!(
        moves_both("W:WKd4:Bh8"),
        [
            "d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2",
            "d4-f6", "d4-g1", "d4-g7"
        ]
    );
    // Own pieces block; a king cannot pass or land on them.
    assert_eq!(moves_both("W:WKa1,c3:Bh8"), ["a1-b2", "c3-b4", "c3-d4"]);
}

// ---- Captures -----------------------------------------------------------------------------

#[test]
fn capturing_is_compulsory() {
    // g3 could move, but c3 must capture.
    assert_eq!(moves_both("W:Wc3,g3:Bd4"), ["c3xe5"]);
    let g = Game::from_position(pos("W:Wc3,g3:Bd4"), Rules::Default);
    let mut g2 = g.clone();
    assert!(g2.play_text("g3-h4").is_err());
    // A king's capture is compulsory too.
    assert_eq!(moves_both("W:WKa1,g3:Bd4"), ["a1xe5"]);
}

#[test]
fn man_captures_diagonally_forward_only() {
    // Black men behind c3 (b2, d2) cannot be taken backwards.
    assert_eq!(moves_both("W:Wc3:Bb2,d2,h8"), ["c3-b4", "c3-d4"]);
    assert_eq!(moves_both("B:Wd6,f6,a1:Be5"), ["e5-d4", "e5-f4"]);
}

#[test]
fn man_jumps_an_adjacent_enemy_to_the_empty_square_just_beyond() {
    assert_eq!(moves_both("W:Wc3:Bd4"), ["c3xe5"]);
    // Not adjacent: no capture.
    assert_eq!(moves_both("W:Wc3:Be5"), ["c3-b4", "c3-d4"]);
    // Square beyond occupied: no capture.
    assert_eq!(moves_both("W:Wc3:Bd4,e5"), ["c3-b4"]);
    // Beyond the edge: no capture.
    assert_eq!(moves_both("W:Wg3:Bh4"), ["g3-f4"]);
}

#[test]
fn king_captures_at_a_distance_and_must_land_just_beyond() {
    // a1 takes d4 from afar and lands on e5, not f6, g7 or h8.
    assert_eq!(moves_both("W:WKa1:Bd4"), ["a1xe5"]);
    assert_eq!(play(&pos("W:WKa1:Bd4"), "a1xe5").to_string(), "B:WKe5:B");
}

#[test]
fn king_jumps_only_the_first_piece_met_and_only_an_enemy_with_room_beyond() {
    // Two enemies in a row: no capture.
    assert_eq!(moves_both("W:WKa1:Bd4,e5"), ["a1-b2", "a1-c3"]);
    // Own piece first: no capture of e5 through c3.
    assert_eq!(moves_both("W:WKa1,c3:Be5"), ["a1-b2", "c3-b4", "c3-d4"]);
    // Enemy on the edge: no room beyond.
    assert_eq!(
        moves_both("W:WKa1:Bh8"),
        ["a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7"]
    );
}

#[test]
fn capture_continues_until_no_jump_is_left() {
    // The man may not stop after one or two jumps.
    assert_eq!(moves_both("W:Wa1:Bb2,d4,f6"), ["a1xc3xe5xg7"]);
    // A king too.
    assert_eq!(moves_both("W:WKa1:Bc3,e5"), ["a1xd4xf6"]);
}

#[test]
fn capturing_piece_may_change_direction_between_jumps() {
    assert_eq!(moves_both("W:Wc1:Bd2,d4"), ["c1xe3xc5"]);
    assert_eq!(moves_both("W:WKa1:Bb2,b4"), ["a1xc3xa5"]);
}

#[test]
fn king_continues_in_same_or_perpendicular_direction_under_both_rule_sets() {
    // Same direction (b2 then d4 on one line) and perpendicular (b2 then b4).
    assert_eq!(moves_both("W:WKa1:Bb2,d4"), ["a1xc3xe5"]);
    assert_eq!(moves_both("W:WKa1:Bb2,b4"), ["a1xc3xa5"]);
}

#[test]
fn king_180_degree_turn_allowed_by_default_not_under_no_reverse() {
    let text = "W:WKd4:Bf6,b2";
    // Default: after taking f6 (landing g7) the king turns straight back, crosses the
    // emptied f6 and its own start square d4, and takes b2: d4xg7xa1; likewise the other way.
    assert_eq!(moves(text, Rules::Default), ["d4xa1xg7", "d4xg7xa1"]);
    // no-reverse: the sequences end after one jump.
    assert_eq!(moves(text, Rules::NoReverse), ["d4xa1", "d4xg7"]);
    // The turn is forced (compulsory continuation) when allowed: by default the one-jump
    // sequence is no move, and "d4xg7" (start and end only) names d4xa1xg7.
    assert!(
        pos(text)
            .legal_moves(Rules::Default)
            .iter()
            .all(|m| m.capture_count() == 2)
    );
    assert_eq!(
        pos(text)
            .parse_move(Rules::Default, "d4xg7")
            .unwrap()
            .to_algebraic(),
        "d4xa1xg7"
    );
    assert!(pos(text).parse_move(Rules::NoReverse, "d4xg7xa1").is_err());
}

#[test]
fn captured_pieces_leave_at_once_so_later_jumps_cross_their_squares() {
    // d4xg7xa1 above crosses f6 (taken on the first jump) on its second jump.
    let p = pos("W:WKd4:Bf6,b2");
    let m = p.parse_move(Rules::Default, "d4xg7xa1").unwrap();
    assert_eq!(m.captured().count(), 2);
    assert_eq!(p.played(&m).to_string(), "B:WKa1:B");
}

#[test]
fn later_jump_may_land_on_a_captured_square() {
    // The fifth jump lands on e7, where the first captured piece stood.
    let p = pos("W:WKf8:Bb6,c5,c3,f6,f4,e7");
    let m = p.parse_move(Rules::Default, "f8xd6xb4xd2xg5xe7").unwrap();
    assert!(m.captured().contains(sq("e7")));
    assert_eq!(m.to(), sq("e7"));
    assert_eq!(m.capture_count(), 5);
    assert!(p.legal_moves(Rules::Default).contains(&m));
}

#[test]
fn kings_start_square_counts_as_empty_and_a_king_may_revisit_squares() {
    // The king goes round the diamond and lands back on its own start square c1.
    let p = pos("W:WKc1:Bb2,d2,b4,d4");
    let legal = p.legal_moves(Rules::Default);
    assert_eq!(legal.len(), 1);
    let m = legal[0];
    assert_eq!((m.from(), m.to()), (sq("c1"), sq("c1")));
    assert_eq!(m.capture_count(), 4);
    assert_eq!(p.played(&m).to_string(), "B:WKc1:B");
    assert_eq!(p.legal_moves(Rules::NoReverse), legal);
}

#[test]
fn two_sequences_with_same_start_end_and_captured_set_are_one_move() {
    // Clockwise and anticlockwise round the diamond: same start c1, end c1, captured set.
    let p = pos("W:WKc1:Bb2,d2,b4,d4");
    assert_eq!(p.legal_moves(Rules::Default).len(), 1);
    let a = p.parse_move(Rules::Default, "c1xa3xc5xe3xc1").unwrap();
    let b = p.parse_move(Rules::Default, "c1xe3xc5xa3xc1").unwrap();
    assert_eq!(a, b);
    assert_eq!(makhos::perft(&p, Rules::Default, 1), 1);
}

#[test]
fn no_piece_jumps_its_own_pieces() {
    assert_eq!(moves_both("W:Wc3,d4:Bh8"), ["c3-b4", "d4-c5", "d4-e5"]);
    assert_eq!(moves_both("W:WKa1,c3:Bf6"), ["a1-b2", "c3-b4", "c3-d4"]);
}

#[test]
fn no_piece_is_jumped_twice() {
    // After a1xd4 the king may turn back (default rules) but c3 is gone: the move ends.
    assert_eq!(moves("W:WKa1:Bc3", Rules::Default), ["a1xd4"]);
    // A man's jumps only go forward; a king passing the taken square again takes nothing.
    let p = pos("W:WKa1:Bc3");
    assert_eq!(p.legal_moves(Rules::Default)[0].capture_count(), 1);
}

#[test]
fn no_majority_rule_any_completed_sequence_may_be_chosen() {
    // a1 can take two (b2, d4), e3 only one: all are legal.
    assert_eq!(
        moves_both("W:Wa1,e3:Bb2,d4,f4"),
        ["a1xc3xe5", "e3xc5", "e3xg5"]
    );
    // A king may choose the shorter of its own sequences too.
    assert_eq!(moves_both("W:WKd4:Bc5,e5,g7"), ["d4xb6", "d4xf6xh8"]);
}

// ---- End of the game ------------------------------------------------------------------

#[test]
fn a_player_without_pieces_loses() {
    let g = Game::from_position(pos("B:Wc3:B"), Rules::Default);
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: EndReason::NoMoves
        })
    );
    assert_eq!(g.state_name(), "win_white");
    let g = Game::from_position(pos("W:W:Bc3"), Rules::Default);
    assert_eq!(g.state_name(), "win_black");
}

#[test]
fn a_player_whose_pieces_are_all_blocked_loses() {
    let g = Game::from_position(pos("W:Wa1:Bb2,c3"), Rules::Default);
    assert!(g.legal_moves().is_empty());
    assert_eq!(g.state_name(), "win_black");
    // And a move into such a blockade wins the game.
    let mut g = Game::from_position(pos("B:Wa1:Bb2,d4"), Rules::Default);
    g.play_text("d4-c3").unwrap();
    assert_eq!(g.state_name(), "win_black");
    assert!(g.play_text("a1-b2").is_err());
}

#[test]
fn draw_by_agreement_and_resignation_are_recorded_by_the_caller() {
    let mut g = Game::new(Rules::Default);
    g.agree_draw().unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::Agreement
        })
    );
    assert_eq!(g.state_name(), "draw_agreement");
    assert_eq!(g.outcome().unwrap().result(), "1/2-1/2");
    let mut g = Game::new(Rules::Default);
    g.resign(Color::White).unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: EndReason::Resignation
        })
    );
    assert_eq!(g.outcome().unwrap().result(), "0-1");
    assert!(g.play_text("b2-c3").is_err());
}

#[test]
fn one_king_each_and_nothing_else_is_a_draw() {
    let g = Game::from_position(pos("W:WKc3:BKf8"), Rules::Default);
    assert_eq!(g.state_name(), "draw_kings");
    // Reached by a capture.
    let mut g = Game::from_position(pos("W:WKa1:BKh8,d4"), Rules::Default);
    g.play_text("a1xe5").unwrap();
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::Kings
        })
    );
    // Not with a man, nor with two kings against one.
    assert_eq!(
        Game::from_position(pos("W:WKc3:Bf6"), Rules::Default).state_name(),
        "ongoing"
    );
    assert_eq!(
        Game::from_position(pos("W:WKc3,Ka1:BKf8"), Rules::Default).state_name(),
        "ongoing"
    );
}

#[test]
fn threefold_repetition_with_the_same_side_to_move_is_a_draw() {
    let mut g = Game::from_position(pos("W:WKa1,Kc1:BKb8,Kf8"), Rules::Default);
    let cycle = ["c1-d2", "f8-e7", "d2-c1", "e7-f8"];
    for m in cycle {
        g.play_text(m).unwrap();
        assert_eq!(g.state_name(), "ongoing");
    }
    assert_eq!(g.repetition_count(), 2);
    for (i, m) in cycle.iter().enumerate() {
        g.play_text(m).unwrap();
        let expect = if i == 3 { "draw_repetition" } else { "ongoing" };
        assert_eq!(g.state_name(), expect, "after {m}");
    }
    assert_eq!(g.repetition_count(), 3);
    assert!(g.play_text("c1-d2").is_err());
    // Same pieces, other side to move: a different position.
    let p = pos("W:WKa1,Kc1:BKb8,Kf8");
    assert_ne!(p.zobrist(), p.with_turn(Color::Black).zobrist());
    assert_ne!(p, p.with_turn(Color::Black));
}

#[test]
fn thirty_two_plies_without_capture_or_man_move_is_a_draw() {
    // Kings wander to new positions (no repetition, no capture) for 32 plies.
    let mut g = Game::from_position(pos("W:WKa1,Kc1:BKh8,Kf8"), Rules::Default);
    let mut seen = std::collections::HashSet::new();
    seen.insert(*g.position());
    for ply in 1..=32u32 {
        let pos_before = *g.position();
        let choice = pos_before
            .legal_moves(Rules::Default)
            .into_iter()
            .find(|m| {
                let next = pos_before.played(m);
                !m.is_capture()
                    && !next.has_capture()
                    && !seen.contains(&next)
                    && !next.legal_moves(Rules::Default).is_empty()
            })
            .expect("a fresh quiet king move");
        g.play(&choice).unwrap();
        seen.insert(*g.position());
        assert_eq!(g.no_progress_plies(), ply);
        let expect = if ply == 32 {
            "draw_no_progress"
        } else {
            "ongoing"
        };
        assert_eq!(g.state_name(), expect, "ply {ply}");
    }
}

#[test]
fn a_capture_or_a_man_move_resets_the_no_progress_count() {
    let mut g = Game::from_position_with_count(pos("W:WKa1,c3:BKh8,Kf8,e5"), Rules::Default, 30);
    assert_eq!(g.no_progress_plies(), 30);
    g.play_text("a1-b2").unwrap();
    assert_eq!(g.no_progress_plies(), 31);
    assert_eq!(g.state_name(), "ongoing");
    // A man move resets the count.
    g.play_text("e5-d4").unwrap();
    assert_eq!(g.no_progress_plies(), 0);
    // So does a capture.
    let mut g = Game::from_position_with_count(pos("W:WKa1,h2:BKh8,d4"), Rules::Default, 31);
    g.play_text("a1xe5").unwrap();
    assert_eq!(g.no_progress_plies(), 0);
    // And a king move at 31 reaches the limit.
    let mut g = Game::from_position_with_count(pos("W:WKa1,h2:BKh8,f8"), Rules::Default, 31);
    g.play_text("a1-b2").unwrap();
    assert_eq!(g.state_name(), "draw_no_progress");
}

// ---- Undo keeps history consistent ---------------------------------------------------------

#[test]
fn undo_restores_the_previous_position_and_key() {
    let mut g = Game::new(Rules::Default);
    let before = (*g.position(), g.hash());
    g.play_text("b2-c3").unwrap();
    assert_eq!(g.undo().unwrap().to_algebraic(), "b2-c3");
    assert_eq!((*g.position(), g.hash()), before);
    assert!(g.undo().is_none());
}
