"""thaiboard.makhos against the project's Mak-hot vectors (vectors/makhos)."""

import json
import os

import pytest

from thaiboard import makhos

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "vectors", "makhos")


def perft(position, rules, depth):
    if depth == 0:
        return 1
    moves = makhos.legal_moves(position, [], rules)
    if depth == 1:
        return len(moves)
    return sum(perft(makhos.get_position(position, [m.engine], rules), rules, depth - 1) for m in moves)


def vector_lines(name):
    with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def test_moves_vectors():
    rows = [json.loads(line) for line in vector_lines("moves.jsonl")]
    assert len(rows) > 100
    for row in rows:
        got = sorted(m.algebraic for m in makhos.legal_moves(row["position"], [], row["rules"]))
        assert got == sorted(row["moves"]), row["position"]


def test_perft_vectors():
    checked = 0
    for line in vector_lines("perft.txt")[:40]:
        fields = [f.strip() for f in line.split(";")]
        position, rules = fields[0], fields[1]
        for field in fields[2:5]:
            depth, nodes = field.split()
            assert perft(position, rules, int(depth[1:])) == int(nodes), (position, rules, depth)
            checked += 1
    assert checked >= 100


def test_start_and_captures():
    assert makhos.START == "W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8"
    assert makhos.get_position(None, ["b2-c3"]) == "B:Wa1,c1,e1,g1,d2,f2,h2,c3:Ba7,c7,e7,g7,b8,d8,f8,h8"
    (m,) = makhos.legal_moves("B:Wa1,d2,h2,d4:BKh4,c5,h6,e7,b8,d8,f8,h8", [], "default")
    assert (m.from_square, m.path, m.captured, m.is_capture) == ("c5", ["e3", "c1"], ["d4", "d2"], True)
    assert (str(m), m.numeric, m.engine) == ("c5xe3xc1", m.numeric, "c5e3c1")
    assert makhos.move_text("B:Wa1,d2,h2,d4:BKh4,c5,h6,e7,b8,d8,f8,h8", "c5xe3xc1", "algebraic_short") in ("c5xc1", "c5xe3xc1")


def test_game_and_draw_rules():
    game = makhos.Game()
    assert game.turn == "white" and game.outcome is None
    game.play("b2-c3")
    assert game.moves == ["b2-c3"] and game.turn == "black"
    assert game.undo().algebraic == "b2-c3"
    # One king each: a draw at once.
    assert makhos.game_result("W:WKa1:BKh8") == ("1/2-1/2", "kings")
    shuffle = ["c1-d2", "f8-e7", "d2-c1", "e7-f8"]
    assert makhos.game_result("W:WKa1,Kc1:BKf8,Kh8", shuffle) is None
    assert makhos.game_result("W:WKa1,Kc1:BKf8,Kh8", shuffle * 2) == ("1/2-1/2", "repetition")
    # The no-progress count, started before the position.
    assert makhos.game_result("W:WKa1,Kc1:BKf8,Kh8", ["c1-d2"], "default", 31) == ("1/2-1/2", "no_progress")
    # A flying king's capture is compulsory.
    assert [m.algebraic for m in makhos.legal_moves("B:Wc1,Kb2:Bf8,Kh8")] == ["h8xa1"]
    assert makhos.Game(rules="no-reverse").rules == "no-reverse"


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: makhos.legal_moves("W:Wz9:Ba7"), "invalid Mak-hot position"),
        (lambda: makhos.legal_moves(None, [], "sideways"), "unknown Mak-hot rules"),
        (lambda: makhos.get_position(None, ["b2-b3"]), "move 1 'b2-b3'"),
        (lambda: makhos.Game().play("a1-a8"), "move 'a1-a8'"),
        (lambda: makhos.move_text(None, "b2-c3", "roman"), "unknown style"),
    ],
)
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
