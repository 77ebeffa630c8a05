"""One bot against copies of another, seats rotated on paired deals: the first bot's win share and its interval.

Usage::

    python benchmarks/level_strength.py GAME PLAYERS TARGET OPPONENT DEALS [JOBS]
    python benchmarks/level_strength.py citadels 3 hard heuristic 100 2
    python benchmarks/level_strength.py caprice 2 ismcts:time=0.3:workers=2 ismcts:time=0.3 25   # JOBS 1: timed bots

Every deal (a seed) is played PLAYERS times, TARGET taking each seat in turn and OPPONENT every other seat, so seat
order and deal luck cancel out. A game's win is shared among its tied winners. The fair share is 1/PLAYERS; the
95% Wilson interval is over games (an approximation: the games of a deal are not independent). Also prints the mean
seconds TARGET spent per decision it was asked to make (forced moves included) and its longest move. Progress is
printed after every deal.

Issue "Faster search and faster engines": Citadels' ``hard`` against two ``heuristic`` bots at 3 players should win
at least 40% over at least 300 games with the interval above 33.3%, at no more than 1 s per move.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from meeple.arena.match import play_match
from meeple.arena.ratings import wilson
from meeple.bots import make_bot
from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.rng import derive_seed
from meeple.core.view import SeatView


class _Timed(Bot):
    """Wraps a bot and adds up the seconds of its :meth:`select_action` calls (forced moves included)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__()
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.longest = 0.0
        self.moves = 0

    def select_action(self, view: SeatView) -> Action:
        start = time.perf_counter()
        action = self.bot.select_action(view)
        took = time.perf_counter() - start
        self.seconds += took
        self.longest = max(self.longest, took)
        self.moves += 1
        return action


def play_deal(game: str, players: int, target: str, opponent: str, deal: int) -> tuple[float, float, float, int]:
    """Play one deal with the target in every seat; return (wins, target seconds, longest move, target decisions)."""
    wins, seconds, longest, moves = 0.0, 0.0, 0.0, 0
    for seat in range(players):
        specs = [target if s == seat else opponent for s in range(players)]
        bots = [make_bot(spec, game, seed=derive_seed(deal, "bot", s)) for s, spec in enumerate(specs)]
        timed = _Timed(bots[seat])
        bots[seat] = timed
        result = play_match(game, {"players": players}, 10_000 + deal, bots, labels=specs)
        returns = result.final_state.returns()
        best = max(returns)
        winners = [s for s, r in enumerate(returns) if r == best]
        wins += 1.0 / len(winners) if seat in winners else 0.0
        seconds, longest, moves = seconds + timed.seconds, max(longest, timed.longest), moves + timed.moves
    return wins, seconds, longest, moves


def main(argv: list[str]) -> None:
    """Run the match of the command line (see the module docstring)."""
    game, players, target, opponent, deals = argv[0], int(argv[1]), argv[2], argv[3], int(argv[4])
    jobs = int(argv[5]) if len(argv) > 5 else 1
    wins, seconds, longest, moves, games, start = 0.0, 0.0, 0.0, 0, 0, time.time()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_deal, game, players, target, opponent, deal) for deal in range(deals)]
        for future in futures:
            w, s, most, m = future.result()
            wins, seconds, moves, games = wins + w, seconds + s, moves + m, games + players
            longest = max(longest, most)
            low, high = wilson(wins, games)
            print(
                f"{game} {players}p, {target} vs {opponent}: {games} games, {target} won {wins / games:.3f} "
                f"(95% {low:.3f}-{high:.3f}; fair share {1 / players:.3f}), {seconds / max(moves, 1):.3f} s/move "
                f"(longest {longest:.2f} s), "
                f"{time.time() - start:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main(sys.argv[1:])
