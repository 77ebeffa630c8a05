"""Root-parallel ISMCTS against one worker at the same seconds per move: paired deals, seats swapped.

    python benchmarks/parallel_strength.py caprice 2 0.3 25        # game, players, seconds per move, deals
    python benchmarks/parallel_strength.py citadels 3 0.5 50 ":rollout=heuristic:depth=30"

Two players only: seat 0 and seat 1 swap between the two games of a deal. Prints, after each deal, the share of
games the 2-worker bot won (ties shared) with a Wilson 95% interval. Issue "Faster search" (new hard against today's
hard at equal time).
"""

from __future__ import annotations

import sys
import time

from meeple.arena.match import play_bots
from meeple.arena.ratings import wilson


def main(game: str, players: int, seconds: float, deals: int, extra: str = "") -> None:
    new, old = f"ismcts:time={seconds}{extra}:workers=2", f"ismcts:time={seconds}{extra}"
    score, games, start = 0.0, 0, time.time()
    for deal in range(deals):
        for new_seat in (0, 1):
            specs = [new, old] if new_seat == 0 else [old, new]
            returns = play_bots(game, {"players": players}, 1000 + deal, specs).final_state.returns()
            winners = [s for s, r in enumerate(returns) if r == max(returns)]
            score += 1.0 / len(winners) if new_seat in winners else 0.0
            games += 1
        lo, hi = wilson(score, games)
        share = f"2 workers won {score / games:.3f} (95% {lo:.3f}-{hi:.3f})"
        print(f"{game}: {games} games, {share}, {time.time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:6])
