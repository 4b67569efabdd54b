#!/usr/bin/env bash
# A graceful restart of a real `thaiboard serve` under `thaiboard loadtest --url`:
# SIGTERM after START_S seconds, the same command again on the same address and
# database; the load tool's report must show reconnects, 0 errors, 0 lost.
#   bash crates/loadtest/tools/restart.sh [BIN] [START_S] [DIR]
set -u
BIN=${1:-target/release/thaiboard}
START_S=${2:-15}
D=${3:-$(mktemp -d)}; mkdir -p "$D"
serve() { "$BIN" serve --bind 127.0.0.1:8092 --exempt-loopback --database "sqlite://$D/lt.db" >> $D/serve.out 2>&1 & P=$!; }
serve; P1=$P; sleep 2
"$BIN" loadtest --url http://127.0.0.1:8092 --games 200 --plies 40 --think-ms 1000 > $D/report.txt 2>&1 &
L=$!
sleep $START_S
T0=$(date +%s.%N); kill -TERM $P1; wait $P1; echo "first server exit $? after $(python3 -c "import time; print(round(time.time() - $T0, 2))") s" >> $D/ops.txt
serve; P2=$P
wait $L; echo "loadtest exit $?" >> $D/ops.txt
kill -TERM $P2; wait $P2; echo "second server exit $?" >> $D/ops.txt
cat $D/report.txt $D/ops.txt
