#!/bin/sh
# Issue 40 item 2, Ouk Chatrang: our engine against a native
# Fairy-Stockfish (build_native_fsf.sh) with UCI_Variant cambodian, at
# 10+0.1, 200 games from data/openings/cambodian.epd (openings that keep the
# first-move rights of the king and queen) in a fixed random order, one game
# at a time. Run it on a quiet machine. Resumable: run it again with the
# same PGN and it plays only the games the file lacks. Words after the PGN
# are UCI options of our engine, NAME=VALUE (e.g. TablebasePath=DIR with the
# tables of `tb gen --variant cambodian`); a word without `=` is a network
# file, as EvalFile=FILE (e.g. one trained on Ouk games).
# usage: ouk_match.sh THAIBOARD FAIRY_STOCKFISH PGN [NETWORK] [NAME=VALUE...]
set -eu
usage="usage: ouk_match.sh THAIBOARD FAIRY_STOCKFISH PGN [NETWORK] [NAME=VALUE...]"
tb=${1:?$usage}
fsf=${2:?$usage}
pgn=${3:?$usage}
shift 3
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/crates/engine/tools/engine_options.sh"
exec "$tb" match --variant cambodian --engine name=thaiboard "cmd=$tb uci" "$@" \
  --engine name=fsf "cmd=$fsf" \
  --tc 10+0.1 --openings "$root/data/openings/cambodian.epd" --random-order --seed 17 \
  --games 200 --concurrency 1 --pgn "$pgn" --resume
