#!/usr/bin/env python3
"""The first searches of a fresh `thaiboard uci` process (issue 40, item 4).

usage: first_searches.py THAIBOARD RUNS GO [MODE]

Each run starts the engine, sends `uci`, `ucinewgame` and `isready`, then
three times `position ...` and GO (e.g. "go movetime 100" or "go depth 1"),
and reports per search (medians over the runs): the time from `go` to
`bestmove`, the depth, the time and the nodes of the last `info` line.
MODE `game` (default) searches three positions of one line two plies
apart, as in a game (the table carries over); `new` sends `ucinewgame` and
`isready` between searches of the same position (each search starts from
an empty table, so only what a process does once can tell the first apart).
"""
import statistics
import subprocess
import sys
import time

LINE = ["e3e4", "e6e5", "b1d2", "b8d7", "g1e2", "g8e7"]


def run(binary, go, mode):
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    send("uci")
    until("uciok")
    send("ucinewgame")
    send("isready")
    until("readyok")
    out = []
    for i in range(3):
        moves = LINE[: 2 * i] if mode == "game" else LINE[:2]
        send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        start = time.perf_counter()
        send(go)
        lines = until("bestmove")
        wall = (time.perf_counter() - start) * 1000
        info = [l for l in lines if l.startswith("info depth")][-1].split()
        field = lambda name: int(info[info.index(name) + 1])  # noqa: E731
        out.append((wall, field("depth"), field("time"), field("nodes")))
        if mode == "new":
            send("ucinewgame")
            send("isready")
            until("readyok")
    send("quit")
    p.wait()
    return out


def main():
    binary, runs, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else "game"
    results = [run(binary, go, mode) for _ in range(runs)]
    med = lambda xs: statistics.median(xs)  # noqa: E731
    for i in range(3):
        col = [r[i] for r in results]
        print(
            f"search {i + 1}: go->bestmove {med([c[0] for c in col]):.1f} ms, depth {med([c[1] for c in col])}, "
            f"last info time {med([c[2] for c in col])} ms, nodes {med([c[3] for c in col]):.0f} "
            f"(min {min(c[3] for c in col)}, max {max(c[3] for c in col)})"
        )


if __name__ == "__main__":
    main()
