#!/usr/bin/env bash
# Extra server checks for .ci/run: the server's integration tests against
# PostgreSQL, a berserk bot over the Bot API, and the browser end-to-end
# test in headless Chromium.
# Installs Debian's postgresql, chromium and a Thai font when missing (needs root).
# Run from the repository root: bash crates/server/ci/server-extra.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."

need=()
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
# nginx in front of the server (tests/server/proxy.rs).
[ -x /usr/sbin/nginx ] || need+=(nginx-light)
# A Thai font, for legible screenshots of the Thai interface.
[ -d /usr/share/fonts/opentype/tlwg ] || need+=(fonts-tlwg-loma-otf)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# PostgreSQL: start the default cluster, create a role and a fresh test database.
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 1; done
su postgres -c "psql -q -tc \"SELECT 1 FROM pg_roles WHERE rolname = 'thaiboard'\" | grep -q 1 || psql -q -c \"CREATE USER thaiboard PASSWORD 'thaiboard'\""
su postgres -c "dropdb --if-exists thaiboard_test && createdb -O thaiboard thaiboard_test"
THAIBOARD_TEST_DATABASE_URL=postgres://thaiboard:thaiboard@127.0.0.1/thaiboard_test \
  cargo test -p thaiboard-server
# The load tool through a graceful restart on PostgreSQL, whose slower
# commits once left a write running past the stop.
THAIBOARD_TEST_DATABASE_URL=postgres://thaiboard:thaiboard@127.0.0.1/thaiboard_test \
  cargo test -p thaiboard-loadtest --test loadtest operator::the_players_ride_through

# The web board: type check and unit checks (string tables, Thai notation),
# then the browser end-to-end test (screenshots in web/e2e/artifacts/).
# The build runs npm ci in web/ first.
cargo build -p thaiboard

# The Bot API with a real client: a berserk bot (PyPI) plays a whole Makruk
# game with `thaiboard uci` as its engine against a human of the HTTP API.
if ! python3 -c 'import berserk' 2>/dev/null; then
  pip install --quiet --disable-pip-version-check berserk
fi
python3 crates/server/ci/bot_game.py "${CARGO_TARGET_DIR:-target}/debug/thaiboard"
(cd web && npx tsc --noEmit && node test/unit.mjs)
THAIBOARD_BIN="${CARGO_TARGET_DIR:-target}/debug/thaiboard" node web/e2e/run.mjs
