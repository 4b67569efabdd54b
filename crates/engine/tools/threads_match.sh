#!/bin/sh
# Issue 40 item 3, threads: our engine with 2 search threads against itself
# with 1, at 5+0.05, 200 games from data/openings/makruk.epd in a fixed
# random order, one game at a time. The two-thread side takes both cores
# of a 2-core machine on its turn, so run it on a quiet machine. Resumable:
# run it again with the same PGN and it plays only the games the file lacks.
# usage: threads_match.sh THAIBOARD PGN
set -eu
usage="usage: threads_match.sh THAIBOARD PGN"
tb=${1:?$usage}
pgn=${2:?$usage}
root=$(cd "$(dirname "$0")/../../.." && pwd)
exec "$tb" match --engine name=threads2 "cmd=$tb uci" option.Threads=2 \
  --engine name=threads1 "cmd=$tb uci" option.Threads=1 \
  --tc 5+0.05 --openings "$root/data/openings/makruk.epd" --random-order --seed 13 \
  --games 200 --concurrency 1 --pgn "$pgn" --resume
