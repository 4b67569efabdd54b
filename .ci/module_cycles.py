#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a cycle.

Each source file of `crates/*/src` is a module; there is an edge A -> B when
A's code (comments and unit-test modules left out) names `crate::B...` or
`super::B...`. A module and its own submodules are not an edge. Prints every
strongly connected group of two or more modules and exits 1 if there is one.

    python3 .ci/module_cycles.py [REPOSITORY]
"""
import os
import re
import sys


def module_of(src, path):
    parts = os.path.relpath(path, src)[:-3].split(os.sep)
    if parts[-1] in ("lib", "main", "mod"):
        parts = parts[:-1]
    return tuple(parts)


def edges(src):
    files = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs
             if f.endswith(".rs") and os.sep + "bin" not in d]
    mods = {module_of(src, f): f for f in files}
    graph = {m: set() for m in mods}
    for m, path in mods.items():
        text = open(path, encoding="utf-8").read()
        text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
        text = re.sub(r"//[^\n]*", "", text)
        for root, names in re.findall(r"\b(crate|super)::((?:\w+::)*\w+)", text):
            base = () if root == "crate" else m[:-1]
            names = names.split("::")
            target = next((base + tuple(names[:k]) for k in range(len(names), 0, -1)
                           if base + tuple(names[:k]) in mods), None)
            if target is None or target == m:
                continue
            nested = m[:len(target)] == target or target[:len(m)] == m
            if not nested:
                graph[m].add(target)
    return graph


def cycles(graph):
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    crates = os.path.join(repo, "crates")
    bad = 0
    for crate in sorted(os.listdir(crates)):
        src = os.path.join(crates, crate, "src")
        if not os.path.isdir(src):
            continue
        for group in cycles(edges(src)):
            bad += 1
            print(f"{crate}: modules import each other: " + ", ".join("::".join(m) or "lib" for m in group))
    print(f"module import cycles: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
