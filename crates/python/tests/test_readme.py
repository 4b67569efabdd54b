"""The README's example bot runs: a random player against the engine."""

import contextlib
import io
import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def test_readme_bot_plays_a_game():
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## A bot against the engine", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    moves, result = out.getvalue().strip().splitlines()
    assert len(moves.split()) > 4 and result.startswith("result: ")
