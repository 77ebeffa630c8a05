"""CPU seconds per move of the ``hard`` level on fixed positions of every game, and the moves it chose.

Usage::

    python benchmarks/hard_move_time.py [SEEDS] > out.json

Plays ``hard`` once on the positions of seeded random games of 4 players at 20%, 50% and 80% of a game's length
(positions with one legal move are left out). Prints JSON ``{game: [seconds per move, [action codes]]}``: run it with
two builds (pure Python and compiled, or two checkouts via ``PYTHONPATH``) and compare the times and that the moves
are the same (``hard`` has an iteration budget: a faster engine makes it quicker, not different).
"""

from __future__ import annotations

import json
import sys
import time

import meeple
from meeple.bots import make_bot
from meeple.core import SeatView
from meeple.core.testing import random_position


def main(seeds: int) -> dict[str, tuple[float, list[int]]]:
    """Return ``{game: (mean CPU seconds per move, codes of the moves)}`` over ``seeds`` games' positions."""
    out = {}
    for name in meeple.registered_games():
        game = meeple.load_game(name, players=4)
        length = len(random_position(game, 5, game.info.max_game_length).history)
        moves, seconds = [], 0.0
        for seed in range(seeds):
            for stage in (0.2, 0.5, 0.8):
                state = random_position(game, seed, int(length * stage))
                if state.is_terminal() or len(state.legal_actions()) < 2:
                    continue
                bot = make_bot("hard", name, seed=seed)
                view = SeatView(state, state.current_player())
                start = time.process_time()
                action = bot.select_action(view)
                seconds += time.process_time() - start
                moves.append(game.codec.encode(action))
        out[name] = (seconds / len(moves), moves)
    return out


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)))
