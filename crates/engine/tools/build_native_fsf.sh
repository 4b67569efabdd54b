#!/bin/sh
# Builds a native Fairy-Stockfish (classical evaluation, no network) from
# the pyffish source package on PyPI, for labelling Makruk positions with
# its search scores (label_with_fsf.py) and for matches (`thaiboard match`).
# usage: build_native_fsf.sh OUT_DIR
set -eu
out=${1:?usage: build_native_fsf.sh OUT_DIR}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pip download pyffish --no-binary :all: --no-deps -d "$work" >/dev/null
tar xzf "$work"/pyffish-*.tar.gz -C "$work"
cd "$work"/pyffish-*/src
g++ -O3 -std=c++17 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -msse4.2 -mpopcnt -DNNUE_EMBEDDING_OFF -pthread \
  $(ls *.cpp nnue/*.cpp nnue/features/*.cpp syzygy/*.cpp 2>/dev/null | grep -v -e pyffish.cpp -e ffishjs.cpp) \
  -o "$out/fairy-stockfish"
echo "$out/fairy-stockfish"
