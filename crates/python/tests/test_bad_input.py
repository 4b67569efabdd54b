"""Garbage in: every entry point raises a Python exception, never aborts."""

import random

import pytest

from thaiboard import engine, makhos, pyffish, records

START = pyffish.start_fen("makruk")


def garbage(rng, base):
    chars = list(base)
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(chars) + 1)
        chars.insert(i, rng.choice("KkMm~/12389 -wbx\u0e08\u0e54\x00[]"))
        if chars and rng.random() < 0.5:
            del chars[rng.randrange(len(chars))]
    return "".join(chars)


def test_garbage_fens_and_moves_raise_value_errors_only():
    rng = random.Random(7)
    for _ in range(3000):
        fen = garbage(rng, START)
        move = garbage(rng, "e3e4")
        for call in (
            lambda: pyffish.legal_moves("makruk", fen, []),
            lambda: pyffish.get_fen("cambodian", fen, [move], False, rng.random() < 0.5, True, rng.randint(-5, 300)),
            lambda: pyffish.get_san("makruk", fen, move, False, rng.choice([0, 1, 2, 8, 9])),
            lambda: pyffish.is_optional_game_end("makruk", START, [move, move], False, rng.randint(-5, 300)),
            lambda: pyffish.validate_fen(fen, "makruk"),
            lambda: makhos.legal_moves(garbage(rng, makhos.START), [garbage(rng, "b2-c3")]),
            lambda: records.read(garbage(rng, '[Variant "makruk"]\n\n1. e4 e5 2. Ke2 *\n')),
        ):
            try:
                call()
            except ValueError:
                pass


def test_wrong_types_raise_type_errors():
    with pytest.raises(TypeError):
        pyffish.legal_moves("makruk", START, "e3e4")
    with pytest.raises(TypeError):
        pyffish.legal_moves("makruk", START, [1])
    with pytest.raises(TypeError):
        engine.search("makruk", depth="deep")
