#!/bin/sh
# The strength measure of issue 15: our engine against a native
# Fairy-Stockfish (build_native_fsf.sh) at 10+0.1, 200 games from
# data/openings/makruk.epd in a fixed random order, one game at a time.
# Run it on a quiet machine (no build or other match beside it). It is
# resumable: run it again with the same PGN and it plays only the games
# the file lacks (a game cut off by a stop is played again).
# Words after the PGN are UCI options of our engine, NAME=VALUE (e.g.
# TablebasePath=/path/to/tables); a word without `=` is a network file
# (EvalFile), see engine_options.sh.
# usage: official_match.sh THAIBOARD FAIRY_STOCKFISH PGN [NETWORK] [NAME=VALUE...]
set -eu
usage="usage: official_match.sh THAIBOARD FAIRY_STOCKFISH PGN [NETWORK] [NAME=VALUE...]"
tb=${1:?$usage}
fsf=${2:?$usage}
pgn=${3:?$usage}
shift 3
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/crates/engine/tools/engine_options.sh"
exec "$tb" match --engine name=thaiboard "cmd=$tb uci" "$@" --engine name=fsf "cmd=$fsf" \
  --tc 10+0.1 --openings "$root/data/openings/makruk.epd" --random-order --seed 11 \
  --games 200 --concurrency 1 --pgn "$pgn" --resume
