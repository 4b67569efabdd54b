#!/usr/bin/env bash
# Writes web/test/moves.tsv, the legal moves of a few positions as the rules
# crates list them, for the notation round trip of web/test/unit.mjs.
#   bash web/test/make-moves.sh target/debug/thaiboard
set -euo pipefail
B=${1:?usage: make-moves.sh PATH_TO_THAIBOARD}
cd "$(dirname "$0")"
{
  echo "# Legal moves of a few positions, made by web/test/make-moves.sh (\`thaiboard moves\`):"
  echo "# variant, position number, engine form, the server's move text."
  n=0
  # Start; bia captures that promote, Kxc6 beside bxc6=M, knights/khons/rueas to disambiguate;
  # the same for Black; rueas giving check; a mate.
  for f in "" "7k/3K4/2p5/1P2P3/R4M2/2S1SN2/8/RN6 w - - 0 1" "rn6/8/2s1sn2/r4m2/1p2p3/2P5/3k4/7K b - - 0 1" \
    "r3k2r/8/8/4N3/8/8/8/R3K2R w - - 0 1" "7k/8/6K1/8/8/8/8/R7 w - - 0 1"; do
    n=$((n + 1))
    if [ -z "$f" ]; then "$B" moves; else "$B" moves --fen "$f"; fi | awk -v n=$n '{print "makruk\t"n"\t"$1"\t"$2}'
  done
  n=$((n + 1))
  "$B" moves --variant cambodian | awk -v n=$n '{print "cambodian\t"n"\t"$1"\t"$2}'
  # Mak-hot: the start; men's and a king's multi-captures.
  for f in "" "W:Wc3,Ke1:Bd4,f6,d6,b6,f2"; do
    n=$((n + 1))
    if [ -z "$f" ]; then "$B" moves --variant makhos; else "$B" moves --variant makhos --fen "$f"; fi |
      awk -v n=$n '{u=$1; gsub(/[-x]/,"",u); print "makhos\t"n"\t"u"\t"$1}'
  done
} > moves.tsv
