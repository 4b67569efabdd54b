#!/usr/bin/env python3
"""Runs pyffish's own test suite (``test.py`` of its source package) with
every call for ``makruk`` and ``cambodian`` answered by ``thaiboard.pyffish``.

``test.py`` is not part of this project: it is taken from pyffish's sdist
at run time (``PYFFISH_TEST_PY`` names a copy; otherwise the sdist of the
installed pyffish version is fetched with ``pip download``). Calls for
other variants still go to pyffish, so the suite runs whole. Every routed
call is also made to pyffish, and the two answers are compared. Where
thaiboard raises and pyffish answers, the difference is reported and the
test goes on with pyffish's answer, so that its later cases still run.

Usage: ``python pyffish_suite.py`` prints a report and exits 1 if a test
that made a routed call failed or a routed answer differed.
"""

import importlib.util
import io
import os
import subprocess
import sys
import tarfile
import tempfile
import types
import unittest

import pyffish as real

import thaiboard.pyffish as ours

ROUTED_VARIANTS = ("makruk", "cambodian")
# Functions whose variant is their second argument.
VARIANT_SECOND = {"validate_fen", "get_fog_fen"}


def test_py_path():
    """The path of pyffish's test.py, from PYFFISH_TEST_PY or its sdist."""
    path = os.environ.get("PYFFISH_TEST_PY")
    if path:
        return path
    version = "%d.%d.%d" % real.version()
    tmp = tempfile.mkdtemp(prefix="pyffish-sdist-")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
         "--disable-pip-version-check", "-d", tmp, f"pyffish=={version}"],
        check=True,
    )
    (archive,) = [f for f in os.listdir(tmp) if f.endswith((".tar.gz", ".zip"))]
    with tarfile.open(os.path.join(tmp, archive)) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/test.py") and m.name.count("/") == 1)
        tar.extract(member, tmp)
    return os.path.join(tmp, member.name)


class Router(types.ModuleType):
    """Stands for pyffish in test.py: makruk/cambodian calls go to thaiboard."""

    def __init__(self):
        super().__init__("pyffish")
        self.__file__ = ours.__file__
        self.current_test = None
        self.routed = []  # (test, name, args, ours, pyffish)

    def __getattr__(self, name):
        attr = getattr(real, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def call(*args, **kwargs):
            i = 1 if name in VARIANT_SECOND else 0
            variant = args[i] if len(args) > i else None
            if variant not in ROUTED_VARIANTS:
                return attr(*args, **kwargs)
            try:
                got = getattr(ours, name)(*args, **kwargs)
            except Exception as e:  # reported, then raised into the test
                got = e
            try:
                expected = attr(*args, **kwargs)
            except Exception as e:
                expected = e
            self.routed.append((self.current_test, name, args, got, expected))
            if isinstance(got, Exception) and not isinstance(expected, Exception):
                # Reported as a difference; pyffish's answer lets the test
                # go on to its later cases.
                return expected
            if isinstance(got, Exception):
                raise got
            return got

        return call


class Result(unittest.TestResult):
    def __init__(self, router):
        super().__init__()
        self.router = router

    def startTest(self, test):
        self.router.current_test = test.id().split(".")[-1]
        super().startTest(test)


def same(got, expected, name):
    if isinstance(got, Exception) or isinstance(expected, Exception):
        return type(got) is type(expected)
    if name in ("is_immediate_game_end", "is_optional_game_end") and not expected[0]:
        return not got[0]  # pyffish's value is unset when the game does not end
    if name == "legal_moves":
        return sorted(got) == sorted(expected)
    return got == expected


def run_suite(stream=sys.stdout):
    """Runs the suite; returns (failed tests with routed calls, mismatches, report text)."""
    router = Router()
    spec = importlib.util.spec_from_file_location("pyffish_test_suite", test_py_path())
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("pyffish")
    sys.modules["pyffish"] = router
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["pyffish"] = saved
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = Result(router)
    suite.run(result)

    out = io.StringIO()
    by_test = {}
    for test, name, args, got, expected in router.routed:
        by_test.setdefault(test, []).append((name, args, got, expected))
    failures = {}
    for test, trace in result.failures + result.errors:
        failures.setdefault(test.id().split(".")[-1], []).append(trace)
    mismatches = [(t, n, a, g, e) for t, n, a, g, e in router.routed if not same(g, e, n)]
    print(f"pyffish {'.'.join(map(str, real.version()))} test.py: {result.testsRun} tests run, "
          f"{len(router.routed)} calls for makruk/cambodian answered by thaiboard.pyffish "
          f"in {len(by_test)} tests", file=out)
    for test in sorted(by_test):
        calls = by_test[test]
        names = sorted({n for n, *_ in calls})
        status = "FAILED" if test in failures else "ok"
        print(f"  {test}: {len(calls)} routed calls ({', '.join(names)}): {status}", file=out)
    failed_routed = {t: f for t, f in failures.items() if t in by_test}
    other_failures = sorted(t for t in failures if t not in by_test)
    if other_failures:
        print(f"  tests failing without any routed call (pyffish itself): {', '.join(other_failures)}", file=out)
    for test, traces in failed_routed.items():
        print(f"\nFAILED {test}:", file=out)
        for trace in traces:
            print(trace, file=out)
    print(f"\n{len(mismatches)} routed calls whose answers differ from pyffish's", file=out)
    for test, name, args, got, expected in mismatches:
        print(f"  {test}: {name}{args!r}: thaiboard {got!r}, pyffish {expected!r}", file=out)
    text = out.getvalue()
    stream.write(text)
    return failed_routed, mismatches, text


if __name__ == "__main__":
    failed, mismatches, _ = run_suite()
    sys.exit(1 if failed or mismatches else 0)
