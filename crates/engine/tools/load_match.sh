#!/bin/sh
# Issue 40 item 5, time under load: our engine against a native
# Fairy-Stockfish (build_native_fsf.sh) at 1+0.01, 100 games, while a second
# match of the same engines runs beside it on the same cores. Every game lost
# on time is counted in the PGNs' Termination tags. The measured match is
# resumable (--resume); the one beside it only makes the load.
# usage: load_match.sh THAIBOARD FAIRY_STOCKFISH OUT_DIR
set -eu
usage="usage: load_match.sh THAIBOARD FAIRY_STOCKFISH OUT_DIR"
tb=${1:?$usage}
fsf=${2:?$usage}
out=${3:?$usage}
root=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out"
match() {
  "$tb" match --engine name=thaiboard "cmd=$tb uci" --engine name=fsf "cmd=$fsf" \
    --tc 1+0.01 --openings "$root/data/openings/makruk.epd" --random-order \
    --games 100 --concurrency 1 "$@"
}
match --seed 5 --pgn "$out/beside.pgn" > "$out/beside.log" 2>&1 &
beside=$!
trap 'kill $beside 2>/dev/null || true' EXIT
match --seed 7 --pgn "$out/load.pgn" --resume | tee "$out/load.log"
for f in "$out/load.pgn" "$out/beside.pgn"; do
  [ -f "$f" ] || continue
  printf '%s: %s games lost on time by thaiboard\n' "$f" "$(
    awk '/^\[Event /{w=0; b=0; r=""}
         /^\[White "thaiboard"\]/{w=1}
         /^\[Black "thaiboard"\]/{b=1}
         /^\[Result /{r=$2}
         /^\[Termination "time forfeit"\]/{if ((w && r=="\"0-1\"]") || (b && r=="\"1-0\"]")) n++}
         END {print n+0}' "$f")"
done
