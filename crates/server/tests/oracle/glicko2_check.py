#!/usr/bin/env python3
"""The `glicko2` package (PyPI) as an independent Glicko-2: reads lines
`rating rd vol opp_rating opp_rd score` and prints `rating rd vol` after one
rating period with that single game."""
import sys

import glicko2

for line in sys.stdin:
    if not line.strip():
        continue
    r, rd, vol, orat, ord_, score = map(float, line.split())
    p = glicko2.Player(rating=r, rd=rd, vol=vol)
    p.update_player([orat], [ord_], [score])
    print(f"{p.rating:.9f} {p.rd:.9f} {p.vol:.9f}")
