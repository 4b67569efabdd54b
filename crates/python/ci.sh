#!/usr/bin/env bash
# The Python package's CI: builds the thaiboard wheel with maturin (from
# PyPI, into a build environment of its own), installs the wheel into a
# fresh virtual environment with pytest and pyffish (the oracle), and runs
# the Python tests from outside the source tree, so that the installed
# wheel is what is tested. The differential test's size comes from
# THAIBOARD_DIFF_GAMES / THAIBOARD_DIFF_FULL_GAMES (defaults in the test).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
py="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/thaiboard-python-ci.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# python3 -m venv needs Debian's python3-venv where Python is Debian's.
if ! "$py" -m venv "$work/probe" >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf "$work/probe"

"$py" -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2'
(cd "$here" && nice "$work/build/bin/maturin" build --quiet --profile wheel -o "$work/dist")

"$py" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/dist/thaiboard-*.whl pytest pyffish

cd "$work"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$here/tests"
