"""pyffish's own test suite (test.py from its sdist) with every makruk and
cambodian call answered by thaiboard.pyffish (see pyffish_suite.py)."""

import os
import sys

import pytest

pytest.importorskip("pyffish")
sys.path.insert(0, os.path.dirname(__file__))
import pyffish_suite  # noqa: E402

# Where thaiboard refuses a FEN that pyffish reads: impossible positions of
# the suite (see the package README, "pyffish's test suite").
KNOWN = {
    # Black's khun in check by the bia on f5 with White to move.
    ("get_fen", "8/8/4k3/5P2/8/2RMK3/8/8 w - 126 41 50"),
}


def test_pyffish_suite_passes_with_thaiboard():
    failed, mismatches, report = pyffish_suite.run_suite()
    print(report)
    assert not failed, report
    unexpected = [m for m in mismatches if (m[1], m[2][1]) not in KNOWN]
    assert not unexpected, report
    assert all(isinstance(m[3], ValueError) for m in mismatches)
