#!/usr/bin/env bash
# The documentation: builds the mdBook in docs/ and checks its links, and
# checks that no file names an absolute path of a development machine.
# On a fresh machine it first installs mdbook (a pinned version, built
# without its live-reload server and file watcher).
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.4.52
if ! command -v mdbook >/dev/null 2>&1 || [ "$(mdbook --version)" != "mdbook v$MDBOOK_VERSION" ]; then
  cargo install mdbook --locked --version "$MDBOOK_VERSION" \
    --no-default-features --features search
fi

mdbook build docs

# Internal links of the built book and of the Markdown files at the root.
python3 .ci/check_links.py docs/book README.md CONTRIBUTING.md ARCHITECTURE.md RULES.md CHANGELOG.md

# No absolute paths of a development machine in any tracked file.
if git grep -n -E '/(work|tmp)/[a-z]' -- . ':!Cargo.lock'; then
  echo "error: the lines above name an absolute path of a development machine" >&2
  exit 1
fi
echo "docs: ok"
