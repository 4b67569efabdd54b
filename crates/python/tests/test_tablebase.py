"""thaiboard.tablebase: small tables generated in a temporary directory and
probed in the shape of `thaiboard tb probe --json`."""

import pytest

from thaiboard import pyffish, tablebase


@pytest.fixture(scope="module")
def makruk_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("makruk-tables")
    assert tablebase.generate(d, "makruk", 3) > 0
    return d


@pytest.fixture(scope="module")
def makhos_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("makhos-tables")
    assert tablebase.generate(d, "makhos", 3) > 0
    return d


def test_makruk_probe_has_the_cli_shape(makruk_dir):
    # Khun and ruea against a bare khun, the count running.
    fen = "8/8/3k4/8/8/8/8/R3K3 w - 32 2 1"
    answer = tablebase.probe(makruk_dir, "makruk", fen)
    assert set(answer) == {"category", "dtm", "dtc", "plies_left", "moves"}
    assert answer["category"] == "win" and answer["dtm"] > 0
    ucis = sorted(m["uci"] for m in answer["moves"])
    assert ucis == sorted(pyffish.legal_moves("makruk", fen, []))
    for m in answer["moves"]:
        assert {"uci", "san", "category"} <= set(m)
        assert m["san"] == pyffish.get_san("makruk", fen, m["uci"])
    # Best first: the first move keeps the win (a loss for the opponent).
    assert answer["moves"][0]["category"] == "loss"


def test_makhos_probe_has_the_cli_shape(makhos_dir):
    answer = tablebase.probe(makhos_dir, "makhos", "W:WKa1,Kc1:BKh8", count=0)
    assert {"category", "moves"} <= set(answer)
    assert answer["category"] in ("win", "draw", "loss")
    assert all({"san", "category"} <= set(m) for m in answer["moves"])
    assert tablebase.probe(makhos_dir, "makhos", "W:WKa1:BKh8")["category"] == "draw"


def test_probe_errors(makruk_dir, tmp_path):
    with pytest.raises(ValueError, match="outside the tables"):
        tablebase.probe(makruk_dir, "makruk", pyffish.start_fen("makruk"))
    with pytest.raises(ValueError, match="invalid FEN"):
        tablebase.probe(makruk_dir, "makruk", "nonsense")
    with pytest.raises(ValueError):
        tablebase.probe(makruk_dir, "chess", "8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(OSError):
        tablebase.probe(tmp_path / "missing", "makruk", "8/8/3k4/8/8/8/8/R3K3 w - 32 2 1")
