#!/usr/bin/env python3
"""Speed of thaiboard.pyffish against pyffish, same machine, same run:
``legal_moves`` and ``get_fen`` at every ply of one game, called as pychess
calls them (the position's FEN and no moves) and with the start FEN and the
moves so far.

Usage: python bench_pyffish.py [--plies N] [--repeat R] [--variant makruk]
Prints microseconds per call for each module and the ratio pyffish / thaiboard
(above 1: thaiboard is faster).
"""

import argparse
import random
import time

import pyffish

import thaiboard.pyffish as ours


def game(variant, plies, seed):
    rng = random.Random(seed)
    start = pyffish.start_fen(variant)
    moves, fens = [], [start]
    for _ in range(plies):
        legal = sorted(pyffish.legal_moves(variant, start, moves))
        if not legal:
            break
        moves.append(rng.choice(legal))
        fens.append(pyffish.get_fen(variant, start, moves, False, False, True))
    return start, moves, fens


def per_call(fn, calls, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for args in calls:
            fn(*args)
        best = min(best, time.perf_counter() - t)
    return best / len(calls) * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--plies", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start, moves, fens = game(args.variant, args.plies, args.seed)
    v = args.variant
    cases = {
        "legal_moves(fen, [])": ("legal_moves", [(v, f, []) for f in fens]),
        "get_fen(fen, [])": ("get_fen", [(v, f, []) for f in fens]),
        "legal_moves(start, moves)": ("legal_moves", [(v, start, moves[:i]) for i in range(len(fens))]),
        "get_fen(start, moves)": ("get_fen", [(v, start, moves[:i]) for i in range(len(fens))]),
    }
    print(f"{v}: one game of {len(moves)} plies, {args.repeat} runs (best kept)")
    print(f"{'call':28} {'pyffish us':>12} {'thaiboard us':>13} {'ratio':>9}")
    for label, (name, calls) in cases.items():
        theirs = per_call(getattr(pyffish, name), calls, args.repeat)
        mine = per_call(getattr(ours, name), calls, args.repeat)
        print(f"{label:28} {theirs:12.1f} {mine:13.2f} {theirs / mine:9.1f}")


if __name__ == "__main__":
    main()
