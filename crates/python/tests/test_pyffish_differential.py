"""Differential test: random games of Makruk and Ouk Chatrang, every call of
``thaiboard.pyffish`` compared with pyffish (Fairy-Stockfish) at every ply.

pyffish costs about 3 ms a call whatever it does (it rebuilds its attack
tables on every call), so two kinds of game are played:

- ``THAIBOARD_DIFF_GAMES`` games per variant (default 10; the issue's run is
  1000) of at most ``THAIBOARD_DIFF_PLIES`` plies (default 150): at every
  ply the legal moves and the FEN after the chosen move (promoted bias
  marked) are compared, and one more function in turn (check, every
  notation, material, game ends with the whole move list, the counting
  fields under ``count_started``, SFEN, validation, capture).
- ``THAIBOARD_DIFF_FULL_GAMES`` games per variant (default 1) played to
  their end (at most 600 plies, so counts run out): every function at
  every ply.

Seed: ``THAIBOARD_DIFF_SEED``. A summary line with the number of calls
compared is printed (``pytest -s`` shows it).
"""

import os
import random
import sys

import pytest

import thaiboard.pyffish as ours

sf = pytest.importorskip("pyffish")

GAMES = int(os.environ.get("THAIBOARD_DIFF_GAMES", "10"))
PLIES = int(os.environ.get("THAIBOARD_DIFF_PLIES", "150"))
FULL_GAMES = int(os.environ.get("THAIBOARD_DIFF_FULL_GAMES", "1"))
SEED = int(os.environ.get("THAIBOARD_DIFF_SEED", "20261128"))
NOTATIONS = (sf.NOTATION_DEFAULT, sf.NOTATION_SAN, sf.NOTATION_LAN, sf.NOTATION_THAI_SAN, sf.NOTATION_THAI_LAN)


class Compare:
    """Calls a function of both modules and records any difference."""

    def __init__(self):
        self.calls = 0
        self.mismatches = []

    def __call__(self, name, *args, key=None):
        expected = getattr(sf, name)(*args)
        got = getattr(ours, name)(*args)
        self.calls += 1
        if key is not None:
            expected, got = key(expected), key(got)
        if expected != got:
            self.mismatches.append((name, args, expected, got))
            print(f"MISMATCH {name}{args!r}: pyffish {expected!r}, thaiboard {got!r}", file=sys.stderr, flush=True)
        return expected


def game_ply(fen):
    fields = fen.split()
    return 2 * (int(fields[5]) - 1) + (fields[1] == "b")


def ends(variant, start, moves):
    """Whether a rule ends the game here (our module decides; it is cheap)."""
    return ours.is_optional_game_end(variant, start, moves)[0] or all(
        ours.has_insufficient_material(variant, start, moves))


def end_value(r):
    # pyffish returns an unset value when the game does not end.
    return r if r[0] else r[0]


def play_sampled(variant, rng, cmp):
    start = sf.start_fen(variant)
    fen, moves, count_started = start, [], 0
    for ply in range(PLIES):
        legal = cmp("legal_moves", variant, fen, [], key=sorted)
        if not legal:
            cmp("game_result", variant, fen, [])
            break
        move = rng.choice(legal)
        if count_started <= 0 and rng.random() < 0.05:
            count_started = game_ply(fen) + 1 - rng.randint(0, 20)
        extras = [
            lambda: cmp("gives_check", variant, fen, []),
            lambda: cmp("has_insufficient_material", variant, fen, []),
            lambda: cmp("is_optional_game_end", variant, start, moves, key=end_value),
            lambda: cmp("get_fen", variant, fen, [], False, False, True, -1),
            lambda: cmp("get_fen", variant, fen, [], False, False, True, max(count_started, 1)),
            lambda: cmp("is_optional_game_end", variant, fen, [], False, max(count_started, 1), key=end_value),
            lambda: cmp("get_fen", variant, fen, [], False, True, False),
            lambda: cmp("validate_fen", fen, variant),
            lambda: cmp("is_capture", variant, fen, [], move),
            lambda: cmp("game_result", variant, fen, []),
            lambda: cmp("is_immediate_game_end", variant, fen, [], key=end_value),
        ] + [lambda n=n: cmp("get_san", variant, fen, move, False, n) for n in NOTATIONS]
        extras[ply % len(extras)]()
        fen = cmp("get_fen", variant, fen, [move], False, False, True)
        moves.append(move)
        if ends(variant, start, moves):
            cmp("is_optional_game_end", variant, start, moves, key=end_value)
            break
    cmp("get_san_moves", variant, start, moves, False, NOTATIONS[len(moves) % len(NOTATIONS)])
    return len(moves)


def play_full(variant, rng, cmp):
    start = sf.start_fen(variant)
    moves = []
    count_started = 0
    for _ in range(600):
        fen = cmp("get_fen", variant, start, moves)
        legal = cmp("legal_moves", variant, start, moves, key=sorted)
        # Every form of the FEN writer, with pychess's declared counts.
        cmp("get_fen", variant, start, moves, False, False, True)
        cmp("get_fen", variant, start, moves, False, True, False)
        cmp("get_fen", variant, start, moves, False, False, True, -1)
        if count_started <= 0 and rng.random() < 0.05:
            count_started = game_ply(fen) + 1 - rng.randint(0, 20)
        if count_started > 0:
            cmp("get_fen", variant, start, moves, False, False, True, count_started)
            cmp("is_optional_game_end", variant, start, moves, False, count_started, key=end_value)
        marked = cmp("get_fen", variant, fen, [], False, False, True)
        cmp("gives_check", variant, marked, [])
        cmp("gives_check", variant, start, moves)
        cmp("game_result", variant, marked, [])
        cmp("has_insufficient_material", variant, marked, [])
        cmp("is_immediate_game_end", variant, marked, [], key=end_value)
        cmp("is_immediate_game_end", variant, start, moves, key=end_value)
        cmp("is_optional_game_end", variant, start, moves, key=end_value)
        cmp("is_optional_game_end", variant, marked, [], key=end_value)
        cmp("validate_fen", fen, variant)
        if not legal:
            break
        move = rng.choice(legal)
        for notation in NOTATIONS:
            cmp("get_san", variant, marked, move, False, notation)
        cmp("is_capture", variant, marked, [], move)
        moves.append(move)
        if ends(variant, start, moves):
            cmp("get_fen", variant, start, moves)
            cmp("is_optional_game_end", variant, start, moves, key=end_value)
            break
    for notation in NOTATIONS:
        cmp("get_san_moves", variant, start, moves, False, notation)
    return len(moves)


@pytest.mark.parametrize("variant", ["makruk", "cambodian"])
def test_random_games_equal_pyffish(variant):
    rng = random.Random(f"{SEED}-{variant}")
    cmp = Compare()
    plies = 0
    for game in range(1, GAMES + 1):
        plies += play_sampled(variant, rng, cmp)
        if game % 50 == 0:
            # Progress for long runs (pytest -s shows it).
            print(f"{variant}: {game} games, {plies} plies, {cmp.calls} calls, {len(cmp.mismatches)} mismatches",
                  file=sys.stderr, flush=True)
    full = sum(play_full(variant, rng, cmp) for _ in range(FULL_GAMES))
    print(f"\n{variant}: {GAMES} sampled games ({plies} plies) and {FULL_GAMES} full games ({full} plies), "
          f"{cmp.calls} calls compared, {len(cmp.mismatches)} mismatches")
    assert not cmp.mismatches, "\n".join(map(repr, cmp.mismatches[:20]))


def safe_for_pyffish(fen):
    """pyffish's validator writes past its board (and may crash) when a rank
    is wider than 8 squares; such texts are left out."""
    board = fen.split(" ")[0]
    for rank in board.split("/"):
        width = sum(int(c) if c.isdigit() else c != "~" for c in rank)
        if width > 8 or any(a.isdigit() and b.isdigit() for a, b in zip(rank, rank[1:])):
            return False
    return True


def mutations(rng, fen):
    """FEN texts near ``fen``: characters changed, dropped, doubled, fields cut."""
    alphabet = "PNRMSKpnrmskBQbqx0123456789/~*-+ wb"
    for _ in range(3000):
        chars = list(fen)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.5:
                chars[i] = rng.choice(alphabet)
            elif op < 0.75:
                del chars[i]
            else:
                chars.insert(i, rng.choice(alphabet))
        text = "".join(chars)
        if safe_for_pyffish(text):
            yield text
    for n in range(1, 8):
        yield " ".join(fen.split()[:n])


@pytest.mark.parametrize("variant", ["makruk", "cambodian"])
def test_validate_fen_equals_pyffish_on_mutated_fens(variant):
    rng = random.Random(f"{SEED}-validate-{variant}")
    bases = [sf.start_fen(variant), "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 128 97 1", "3k4/2m5/5M~2/4M3/3KS3/8/8/8 w - 128 0 33"]
    differ = [
        (fen, ours.validate_fen(fen, variant), sf.validate_fen(fen, variant))
        for base in bases
        for fen in mutations(rng, base)
        if ours.validate_fen(fen, variant) != sf.validate_fen(fen, variant)
    ]
    assert not differ, differ[:20]


def sparse_fens(rng, count):
    """Random positions of two khuns and one to three other pieces (mets,
    khons, mas, rueas, bias), as endgames reach: the material test's cases."""
    done = 0
    while done < count:
        squares = rng.sample(range(64), rng.randint(3, 5))
        board = ["."] * 64
        board[squares[0]], board[squares[1]] = "K", "k"
        for sq in squares[2:]:
            board[sq] = rng.choice("MSNRPmsnrpMm")
        ranks = []
        for r in range(7, -1, -1):
            text, empty = "", 0
            for c in board[8 * r:8 * r + 8]:
                if c == ".":
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + c
                empty = 0
            ranks.append(text + (str(empty) if empty else ""))
        fen = "/".join(ranks) + " " + rng.choice("wb") + " - - 0 1"
        try:
            ours.legal_moves("makruk", fen, [])
        except ValueError:
            continue  # an impossible position (a bia out of place, a khun in check)
        done += 1
        yield fen


@pytest.mark.parametrize("variant", ["makruk", "cambodian"])
def test_insufficient_material_equals_pyffish_on_endgames(variant):
    rng = random.Random(f"{SEED}-material-{variant}")
    differ = [
        (fen, ours.has_insufficient_material(variant, fen, []), sf.has_insufficient_material(variant, fen, []))
        for fen in sparse_fens(rng, 300)
        if ours.has_insufficient_material(variant, fen, []) != sf.has_insufficient_material(variant, fen, [])
    ]
    assert not differ, differ[:20]
