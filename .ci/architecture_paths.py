#!/usr/bin/env python3
"""Fails when ARCHITECTURE.md names a file or folder that does not exist.

Two kinds of names are checked:
- in prose, a `code span` that looks like a path (it has a slash or a file
  ending, no spaces or `::`), read from the repository's root; a span that
  starts with `/` (a URL path) or `../` (outside the repository) is
  skipped;
- in a fenced block whose first line is a folder (`crates/server/src/`), a
  tree: each line's leading names (up to the first run of two spaces),
  separated by ", ", are read inside the folder of the nearest shallower
  line that names a folder (a name ending in `/`). Words that are not
  names (no slash, no file ending) end a line's names.

Usage: python3 .ci/architecture_paths.py [FILE]
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ENDINGS = (".rs", ".ts", ".md", ".toml", ".sh", ".py", ".mjs", ".json", ".sql", ".txt", ".epd", ".pgn")


def looks_like_path(token):
    if " " in token or "::" in token or "(" in token or "{" in token:
        return False
    # A URL path (`/api/ws`) or a place outside the repository (`../x`).
    if token.startswith("/") or token.startswith("../"):
        return False
    return "/" in token or token.endswith(ENDINGS)


def tree_names(line):
    """The names a tree line starts with: 'a.rs, b.rs   text' -> ['a.rs', 'b.rs']."""
    head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
    names = []
    for part in head.split(","):
        words = part.split()
        if not words:
            break
        name = words[0].rstrip(":")
        if not looks_like_path(name):
            break
        names.append(name)
        if len(words) > 1:
            break
    return names


def check(path):
    text = open(path, encoding="utf-8").read()
    missing = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append((i + 1, lines[i]))
                i += 1
            if block and block[0][1].strip().endswith("/") and looks_like_path(block[0][1].strip()):
                base = block[0][1].strip()
                if not os.path.isdir(os.path.join(ROOT, base)):
                    missing.append((block[0][0], base))
                stack = [(-1, base)]  # (indent, folder)
                for number, row in block[1:]:
                    if not row.strip():
                        continue
                    indent = len(row) - len(row.lstrip())
                    while len(stack) > 1 and stack[-1][0] >= indent:
                        stack.pop()
                    folder = stack[-1][1]
                    names = tree_names(row)
                    for name in names:
                        full = os.path.join(folder, name)
                        if not os.path.exists(os.path.join(ROOT, full)):
                            missing.append((number, full))
                    if len(names) == 1 and names[0].endswith("/"):
                        stack.append((indent, os.path.join(folder, names[0])))
            i += 1
            continue
        for token in re.findall(r"`([^`]+)`", line):
            if looks_like_path(token) and not os.path.exists(os.path.join(ROOT, token)):
                missing.append((i + 1, token))
        i += 1
    return missing


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "ARCHITECTURE.md")
    missing = check(path)
    for number, name in missing:
        print(f"{os.path.relpath(path, ROOT)}:{number}: names {name}, which does not exist", file=sys.stderr)
    if missing:
        sys.exit(1)
    print(f"architecture paths: every file and folder {os.path.relpath(path, ROOT)} names exists")


if __name__ == "__main__":
    main()
