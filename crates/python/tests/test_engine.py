"""thaiboard.engine: search results, the GIL released, stopping from another thread."""

import threading
import time

import pytest

from thaiboard import engine, pyffish


def test_search_finds_a_mate_in_one():
    # White: khun g6, ruea a1; Black: khun h8. Ra8 mates.
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 0 1"
    result = engine.search("makruk", fen, [], depth=4)
    assert result["best"] == "a1a8" and result["best_san"] == "Ra8#"
    assert result["score"] == {"mate": 1}
    assert result["pv"][0] == "a1a8" and result["pv_san"][0] == "Ra8#"
    assert result["best_thai"] == result["pv_thai"][0] and result["best_thai"].startswith("ร")


def test_search_after_moves_and_multipv():
    result = engine.search("makruk", None, ["e3e4", "e6e5"], depth=3, multipv=3)
    assert result["best"] in pyffish.legal_moves("makruk", "startpos", ["e3e4", "e6e5"])
    assert len(result["lines"]) == 3
    assert len({line["pv"][0] for line in result["lines"]}) == 3
    for line in result["lines"]:
        assert set(line["score"]) <= {"cp", "mate"} and len(line["pv_san"]) == len(line["pv_thai"]) >= 1
    assert result["depth"] >= 3 and result["nodes"] > 0


def test_makhos_and_cambodian():
    result = engine.search("makhos", None, ["b2-c3"], depth=3)
    assert result["best"] and result["pv_thai"] is None and "-" in result["best_san"]
    result = engine.search("cambodian", None, [], nodes=2000)
    assert result["best"] in pyffish.legal_moves("cambodian", "startpos", [])


def test_no_legal_move():
    # Black is checkmated.
    result = engine.search("makruk", "R6k/8/6K1/8/8/8/8/8 b - - 0 1", [], depth=2)
    assert result["best"] is None and result["pv"] == []


def test_stop_from_another_thread_while_the_gil_is_free():
    search = engine.Search("makruk")  # no limit: runs until stopped
    ticks = []
    timer = threading.Timer(0.5, search.stop)
    counter = threading.Thread(target=lambda: [ticks.append(time.sleep(0.01)) for _ in range(20)])
    started = time.monotonic()
    timer.start()
    counter.start()
    result = search.run()
    elapsed = time.monotonic() - started
    counter.join()
    assert search.stopped and result["best"] is not None
    assert 0.4 < elapsed < 10
    # The other Python thread ran while the search held no GIL.
    assert len(ticks) == 20


def test_search_needs_a_limit():
    with pytest.raises(ValueError, match="depth, nodes or movetime"):
        engine.search("makruk")


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(variant="chess", depth=1), "chess"),
        (dict(variant="makruk", fen="8/8/8/8/8/8/8/8 w - - 0 1", depth=1), "invalid FEN"),
        (dict(variant="makruk", moves=["e3e5"], depth=1), "move 1 'e3e5'"),
        (dict(variant="makruk", multipv=0, depth=1), "multipv"),
    ],
)
def test_bad_input_raises_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        engine.search(**kwargs)
