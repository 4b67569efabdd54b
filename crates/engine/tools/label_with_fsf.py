#!/usr/bin/env python3
"""Label Makruk positions with Fairy-Stockfish search scores, for
`thaiboard tune fit` (distillation of a stronger engine's judgement into our
evaluation features).

usage: label_with_fsf.py ENGINE INPUT OUTPUT NODES [START STEP]
ENGINE: a UCI Fairy-Stockfish (build_native_fsf.sh builds one).
INPUT lines: "<anything> <fen>" (e.g. `thaiboard tune gen` output); every
STEP-th line from START is searched to NODES nodes. OUTPUT lines (appended):
"<centipawns from White's view> <fen>"; mate scores and repeated positions
are left out.
"""
import subprocess, sys

engine, inp, out, nodes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
start = int(sys.argv[5]) if len(sys.argv) > 5 else 0
step = int(sys.argv[6]) if len(sys.argv) > 6 else 1
p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait(prefix):
    while True:
        line = p.stdout.readline()
        if not line: raise SystemExit("engine died")
        if line.startswith(prefix): return line
send("uci"); wait("uciok")
send("setoption name UCI_Variant value makruk"); send("setoption name Hash value 64"); send("setoption name Use NNUE value false")
send("isready"); wait("readyok")
seen = set()
with open(inp) as f, open(out, "a") as o:
    for i, line in enumerate(f):
        if i < start or (i - start) % step: continue
        parts = line.split(None, 1)
        if len(parts) != 2: continue
        fen = parts[1].strip()
        key = " ".join(fen.split()[:2])
        if key in seen: continue
        seen.add(key)
        send("position fen " + fen)
        send(f"go nodes {nodes}")
        score = None
        while True:
            l = p.stdout.readline()
            if not l: raise SystemExit("engine died")
            if l.startswith("info") and " score " in l:
                t = l.split()
                k = t.index("score")
                score = (t[k+1], int(t[k+2]))
            if l.startswith("bestmove"): break
        if score is None or score[0] != "cp": continue
        cp = score[1] if fen.split()[1] == "w" else -score[1]
        o.write(f"{cp} {fen}\n")
        if i % 1000 == 0: o.flush()
send("quit")
