"""thaiboard.records: PGN/PDN read and written, with located errors."""

import os

import pytest

from thaiboard import records

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "vectors", "makruk")


def test_reads_playok_and_schemingmind_records():
    for name, count in (("playok.pgn", 18), ("schemingmind.pgn", 1)):
        with open(os.path.join(VECTORS, name), encoding="utf-8") as f:
            games = records.read(f.read())
        assert len(games) == count
        for game in games:
            assert game.variant == "makruk"
            assert len(game.moves) == len(game.engine_moves) > 10
            # Written out and read back: the same moves and result.
            again = records.read_one(game.to_text())
            assert again.engine_moves == game.engine_moves and again.result == game.result


def test_write_and_read_makruk():
    text = records.write("makruk", ["e3e4", "Ne7", "Md2"], tags={"White": "A", "Black": "B"}, result="1/2-1/2")
    assert '[Variant "makruk"]' in text and '[White "A"]' in text
    assert "1. e4 Ne7 2. Md2 1/2-1/2" in text
    game = records.read_one(text)
    assert game.moves == ["e4", "Ne7", "Md2"] and game.engine_moves == ["e3e4", "g8e7", "e1d2"]
    assert dict(game.tags)["White"] == "A" and game.tag("Black") == "B" and game.result == "1/2-1/2"
    assert "2. Qd2" in records.write("makruk", ["e3e4", "Ne7", "Md2"], letters="schemingmind")


def test_write_and_read_makhos_pdn():
    text = records.write("makhos", ["b2-c3", "a7-b6"], rules="no-reverse", result="*")
    assert '[GameType "makhos"]' in text and '[Rules "no-reverse"]' in text
    game = records.read_one(text)
    assert game.variant == "makhos" and game.rules == "no-reverse"
    assert game.moves == ["b2-c3", "a7-b6"]
    assert "b2-c3" in game.to_text(squares="algebraic")


def test_cambodian_from_a_fen():
    fen = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"
    game = records.record("cambodian", ["e3e4", "d6d5"], fen=fen)
    assert game.variant == "cambodian" and game.moves == ["e4", "d5"]
    assert records.read_one(game.to_text()).end_fen == game.end_fen


def test_broken_record_says_where():
    text = '[Variant "makruk"]\n\n1. e4 e5 2. Ke2 Kxz9 *\n'
    with pytest.raises(records.RecordError) as info:
        records.read(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.game, err.line) == (1, 3) and err.column > 1
    assert "line 3" in str(err)


def test_reading_goes_on_after_a_broken_game():
    text = '[Variant "makruk"]\n\n1. e4 Qz9 *\n\n[Variant "makruk"]\n\n1. e4 *\n'
    first, second = records.read_games(text)
    assert isinstance(first, records.RecordError) and first.game == 1
    assert isinstance(second, records.Record) and second.moves == ["e4"]


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: records.write("chess", []), "chess"),
        (lambda: records.write("makruk", ["e3e5"]), "move 1 'e3e5'"),
        (lambda: records.write("makruk", [], fen="not a fen"), "invalid position"),
        (lambda: records.write("makruk", [], result="2-0"), "unknown result"),
        (lambda: records.write("makruk", [], letters="x"), "unknown letters"),
    ],
)
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()
