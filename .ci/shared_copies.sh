#!/usr/bin/env bash
# The rule book and the test vectors are kept in the repository; rule changes
# and new vectors arrive in a `shared/` folder beside it on the project's own
# machines. Where that folder exists, the copies must be equal; a clone that
# stands alone has nothing to compare and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
if [ ! -d "$shared" ]; then
  echo "shared copies: no ../shared beside the repository; skipped (nothing to compare)"
  exit 0
fi
status=0
if ! cmp -s RULES.md "$shared/RULES.md"; then
  echo "shared copies: RULES.md differs from $shared/RULES.md: copy the shared rule book into the repository" >&2
  status=1
fi
if [ -d "$shared/vectors" ] && ! diff -r -q vectors "$shared/vectors" >&2; then
  echo "shared copies: vectors/ differs from $shared/vectors (above): copy the shared vectors into the repository" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "shared copies: RULES.md and vectors/ equal $shared"
exit "$status"
