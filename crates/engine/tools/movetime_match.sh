#!/bin/sh
# Issue 40 item 4, short fixed times: our engine against a native
# Fairy-Stockfish (build_native_fsf.sh) at `go movetime 100`, 200 games from
# data/openings/makruk.epd in a fixed random order, one game at a time, on a
# quiet machine. Resumable: run it again with the same PGN and it plays only
# the games the file lacks.
# usage: movetime_match.sh THAIBOARD FAIRY_STOCKFISH PGN
set -eu
usage="usage: movetime_match.sh THAIBOARD FAIRY_STOCKFISH PGN"
tb=${1:?$usage}
fsf=${2:?$usage}
pgn=${3:?$usage}
root=$(cd "$(dirname "$0")/../../.." && pwd)
exec "$tb" match --engine name=thaiboard "cmd=$tb uci" --engine name=fsf "cmd=$fsf" \
  --movetime 100 --openings "$root/data/openings/makruk.epd" --random-order --seed 11 \
  --games 200 --concurrency 1 --pgn "$pgn" --resume
