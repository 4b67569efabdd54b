#!/usr/bin/env python3
"""Fails when the TypeScript modules of the web board import each other in a cycle.

Each `web/src/**/*.ts` file is a module; there is an edge A -> B when A names
B's file as a relative module specifier ('./x', '../x/y') in any of:

    import ... from './b'        import type ... from './b'
    export ... from './b'        export type { ... } from './b'
    import './b'                 import('./b')   (dynamic, or in a type)
    import x = require('./b')

Type-only imports count: they are erased from the bundle, but they still tie
the two files together in the source graph (neither can be read, moved or
tested without the other), which is what this check keeps acyclic. Package
imports ('chessgroundx/types') are not edges. Comments, strings, template
literals and regular expressions are skipped by a small scanner, so an
import written in a comment is not an edge. A relative specifier that names
no file is an error (exit 2): the check would otherwise miss an edge.

Prints every strongly connected group of modules (and a module importing
itself) with one concrete cycle through it, each step with its file and
line, and exits 1 if there is one.

    python3 .ci/ts_cycles.py [REPOSITORY]
"""
import os
import re
import sys
from collections import deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from module_cycles import cycles  # noqa: E402  (Tarjan's strongly connected groups)

# A `/` after one of these starts a regular expression, not a division.
REGEX_AFTER_WORDS = {"return", "typeof", "case", "in", "of", "void", "delete", "new",
                     "throw", "else", "do", "yield", "await", "instanceof"}
IDENT = re.compile(r"[A-Za-z_$][\w$]*")
NUMBER = re.compile(r"\d[\w.]*")


def tokens(text):
    """Identifiers, string literals and punctuation of TypeScript source, with
    their line numbers; comments, template literals and regular expressions are
    skipped. Yields (kind, value, line) with kind 'id', 'str' or 'punct'."""
    i, n, line = 0, len(text), 1
    prev = None  # the previous significant token, for the regex/division choice

    def skip_template(i):
        """From just after an opening backquote to just after its closing one."""
        nonlocal line
        while i < n:
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == "\n":
                line += 1
            if c == "`":
                return i + 1
            if c == "$" and text.startswith("${", i):
                # Code inside ${...}: skip to the matching brace (strings and
                # nested templates inside it are skipped too).
                depth, i = 1, i + 2
                while i < n and depth:
                    c = text[i]
                    if c == "\n":
                        line += 1
                    if c in "'\"":
                        j = i + 1
                        while j < n and text[j] != c and text[j] != "\n":
                            j += 2 if text[j] == "\\" else 1
                        i = j + 1
                        continue
                    if c == "`":
                        i = skip_template(i + 1)
                        continue
                    depth += c == "{"
                    depth -= c == "}"
                    i += 1
                continue
            i += 1
        return i

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
        elif c in "'\"":
            j, start = i + 1, line
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            prev = ("str", text[i + 1:j], start)
            yield prev
            i = j + 1
        elif c == "`":
            i = skip_template(i + 1)
            prev = ("str", None, line)  # a template is a value, never a specifier
        elif c == "/" and (prev is None or (prev[0] == "punct" and prev[1] not in ")]}")
                           or (prev[0] == "id" and prev[1] in REGEX_AFTER_WORDS)):
            # A regular expression literal: to its closing slash, past any class [...].
            j, in_class = i + 1, False
            while j < n and text[j] != "\n":
                d = text[j]
                if d == "\\":
                    j += 2
                    continue
                if d == "[":
                    in_class = True
                elif d == "]":
                    in_class = False
                elif d == "/" and not in_class:
                    break
                j += 1
            m = IDENT.match(text, j + 1)  # flags
            i = m.end() if m else j + 1
            prev = ("str", None, line)
        else:
            m = IDENT.match(text, i) or NUMBER.match(text, i)
            if m:
                prev = ("id", m.group(), line)
                i = m.end()
            else:
                prev = ("punct", c, line)
                i += 1
            yield prev


def specifiers(text):
    """The module specifiers a TypeScript file imports, with their lines."""
    toks = list(tokens(text))
    found = []
    for k, (kind, value, line) in enumerate(toks):
        if kind != "str" or value is None or k == 0:
            continue
        before = toks[k - 1]
        before2 = toks[k - 2] if k >= 2 else None
        before3 = toks[k - 3] if k >= 3 else None
        # `from 'x'`, but not `Array.from('x')` (a `(` comes between) nor `x.from 'x'`.
        if before[:2] == ("id", "from") and not (before2 and before2[:2] == ("punct", ".")):
            found.append((value, line))
        # `import 'x'` (for its side effects).
        elif before[:2] == ("id", "import") and not (before2 and before2[:2] == ("punct", ".")):
            found.append((value, line))
        # `import('x')`, `require('x')`.
        elif (before[:2] == ("punct", "(") and before2 and before2[0] == "id"
              and before2[1] in ("import", "require")
              and not (before3 and before3[:2] == ("punct", "."))):
            found.append((value, line))
    return found


def resolve(path, spec):
    """The file a relative specifier names, as TypeScript's bundler resolution finds it."""
    base = os.path.normpath(os.path.join(os.path.dirname(path), spec))
    stem = re.sub(r"\.(m|c)?js$", "", base)
    candidates = [base, stem + ".ts", stem + ".tsx", stem + ".d.ts",
                  os.path.join(base, "index.ts"), os.path.join(base, "index.tsx")]
    return next((c for c in candidates if os.path.isfile(c)), None)


def graph_of(src):
    """Edges between the .ts files under `src`, with the line of each import; unresolved specifiers."""
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs
                   if f.endswith(".ts") or f.endswith(".tsx"))
    mods = {os.path.relpath(f, src): f for f in files}
    graph, where, unresolved = {m: set() for m in mods}, {}, []
    for m, path in mods.items():
        for spec, line in specifiers(open(path, encoding="utf-8").read()):
            if not spec.startswith(("./", "../")) and spec not in (".", ".."):
                continue  # a package
            target = resolve(path, spec)
            if target is None:
                unresolved.append(f"{m}:{line}: cannot resolve '{spec}'")
                continue
            t = os.path.relpath(target, src)
            if t not in mods:
                continue  # not TypeScript (a .json, a .css) or outside src: imports nothing back
            graph[m].add(t)
            where.setdefault((m, t), (line, spec))
    return graph, where, unresolved


def one_cycle(graph, group):
    """A shortest cycle through the group's first module, inside the group."""
    start, inside = group[0], set(group)
    back = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while back[path[-1]] is not None:
                    path.append(back[path[-1]])
                return path[::-1] + [start]
            if w in inside and w not in back:
                back[w] = v
                queue.append(w)
    return [start, start]


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    src = os.path.join(repo, "web", "src")
    graph, where, unresolved = graph_of(src)
    for u in unresolved:
        print(f"web/src/{u}")
    groups = cycles(graph) + [[m] for m in sorted(graph) if m in graph[m]]
    for group in groups:
        print("web/src: modules import each other: " + ", ".join(group))
        path = one_cycle(graph, group)
        for a, b in zip(path, path[1:]):
            line, spec = where[(a, b)]
            print(f"  web/src/{a}:{line} imports '{spec}' ({b})")
    edges = sum(len(v) for v in graph.values())
    print(f"TypeScript import cycles: {len(groups)} ({len(graph)} modules, {edges} imports)")
    if unresolved:
        return 2
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
