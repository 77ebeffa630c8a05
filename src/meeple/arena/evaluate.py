"""The evaluation protocol for a policy: paired, seat-rotated deals against fixed line-ups, with intervals.

How to report a result (docs/research.md): ``evaluate(policy, "citadels", players=3, opponent="heuristic")`` plays
``deals`` deals; each deal is played once per seat, the policy taking that seat and copies of ``opponent`` every
other seat, so seat order and deal luck cancel out. It reports:

- the **win share**: the mean of the policy's ``"win"`` reward (a win shared by k seats counts 1/k), with its 95 %
  Wilson interval over games (an approximation: the games of a deal are not independent) and the **fair share**
  (1/players; solo Capital Lux 2: none, the rate of beating ROB);
- the **mean score** (the game's points) and the **mean margin** (own points minus the best other seat's; solo:
  minus ROB's), as :mod:`meeple.core.rewards` defines them.

Line-ups: :data:`LINEUPS` (``random``, ``heuristic``, ``hard``), any bot spec, or any policy (a ``Bot``, a policy
function, a trained checkpoint: :mod:`meeple.bots.checkpoint`), copies of which take every other seat. Results are
reproducible: deal ``seed + i``, bots seeded with :func:`~meeple.core.rng.derive_seed` of the deal (never the deal's
own seed), a ``Bot`` object reseeded the same way before each game.

Rules: issue "For researchers, round two" (an evaluation protocol); benchmarks/level_strength.py (the same paired
match).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from meeple.arena.match import play_match
from meeple.arena.ratings import wilson
from meeple.bots.base import Bot
from meeple.bots.policy import Policy, as_bot
from meeple.core.errors import InvalidParameterError
from meeple.core.registry import load_game
from meeple.core.rewards import final_rewards
from meeple.core.rng import Rng, derive_seed
from meeple.i18n.message import M

LINEUPS: tuple[str, ...] = ("random", "heuristic", "hard")
"""The standard opponents, weakest first; report at least ``heuristic``."""


@dataclass(frozen=True)
class Evaluation:
    """A policy's result against one line-up.

    Attributes:
        game: the game's name.
        players: the player count.
        params: every game parameter.
        policy: the policy's label.
        opponent: the line-up's label: its bot spec, or the name given to another policy (None in a solo game: the
            game runs the opponent).
        deals: deals played; games = deals x seats.
        games: games played.
        first_seed: deal ``i`` is seed ``first_seed + i``.
        win_share: the policy's mean win reward (shared wins split), in [0, 1].
        low: lower end of the 95 % Wilson interval of ``win_share``.
        high: upper end.
        fair_share: 1/players (what a seat of equal strength gets), None in solo.
        mean_score: the policy's mean points.
        mean_margin: the policy's mean margin (own points minus the best other's; solo: minus the opponent's).
    """

    game: str
    players: int
    params: dict[str, Any]
    policy: str
    opponent: str | None
    deals: int
    games: int
    first_seed: int
    win_share: float
    low: float
    high: float
    fair_share: float | None
    mean_score: float
    mean_margin: float

    def to_json(self) -> dict[str, Any]:
        """Every field, as JSON data."""
        return asdict(self)


def _seat_bot(policy: Policy, game: str, seed: int, reseed: bool) -> Bot:
    """``policy`` as the bot of one seat: a spec built anew with ``seed``; a ``Bot`` object or a function as it is.

    ``reseed``: set the bot's generator to ``Rng(seed)`` (always for the evaluated seat, as before opponents could be
    objects; for an opponent only when it is not a spec, so that a spec's own seeding, ``easy``'s ``seed + 1``,
    stays as it was).
    """
    bot = as_bot(policy, game, seed)
    if reseed or not isinstance(policy, str):
        bot.rng = Rng(seed)
    return bot


def evaluate(
    policy: Policy,
    game: str,
    opponent: Policy = "heuristic",
    deals: int = 100,
    seed: int = 0,
    label: str | None = None,
    on_game: Callable[[int], None] | None = None,
    opponent_label: str | None = None,
    **params: Any,
) -> Evaluation:
    """Play ``policy`` against copies of ``opponent`` on ``deals`` paired, seat-rotated deals.

    Args:
        policy: a bot spec, a ``Bot`` or a policy function (:mod:`meeple.bots.policy`; a trained checkpoint is one).
        game: a registered game name.
        opponent: the policy in every other seat: a bot spec (:data:`LINEUPS`; each seat gets its own bot), a
            ``Bot`` object or a policy function (one object plays every other seat: it must keep no state between
            calls but its generator, reseeded before each game); ignored in a solo game.
        deals: how many deals (each is played once per seat).
        seed: the first deal's seed.
        label: the policy's name in the result (default: the spec, or the object's name).
        on_game: called with the number of games done after each game (progress).
        opponent_label: the line-up's name in the result (default: the spec, or the object's name).
        **params: the game's parameters (``players``, flags).

    Raises:
        InvalidParameterError: bad game, parameters, policy or opponent, or ``deals`` < 1.
        IllegalActionError: the policy chose an action that is not legal.
    """
    loaded = load_game(game, **params)
    if deals < 1:
        raise InvalidParameterError(M("deals must be at least 1, not {deals}", deals=deals))
    n = loaded.num_players
    game_params = loaded.params_dict()
    as_bot(opponent, loaded.name)  # an unknown spec or a wrong kind fails before any game
    wins: list[float] = []
    scores: list[float] = []
    margins: list[float] = []
    for deal in range(seed, seed + deals):
        for seat in range(n):
            bots = [
                _seat_bot(policy if s == seat else opponent, loaded.name, derive_seed(deal, "bot", s), s == seat)
                for s in range(n)
            ]
            result = play_match(loaded.name, game_params, deal, bots).final_state
            wins.append(final_rewards(result, "win")[seat])
            scores.append(final_rewards(result, "score")[seat])
            margins.append(final_rewards(result, "score_margin")[seat])
            if on_game is not None:
                on_game(len(wins))
    low, high = wilson(sum(wins), len(wins))
    name = label or _label(policy, loaded.name)
    return Evaluation(
        game=loaded.name,
        players=n,
        params=game_params,
        policy=str(name),
        opponent=None if n == 1 else (opponent_label or _label(opponent, loaded.name)),
        deals=deals,
        games=len(wins),
        first_seed=seed,
        win_share=statistics.fmean(wins),
        low=low,
        high=high,
        fair_share=None if n == 1 else 1.0 / n,
        mean_score=statistics.fmean(scores),
        mean_margin=statistics.fmean(margins),
    )


def _label(policy: Policy, game: str) -> str:
    return policy if isinstance(policy, str) else str(as_bot(policy, game).name)


def evaluate_lineups(
    policy: Policy,
    game: str,
    opponents: tuple[str, ...] = ("random", "heuristic"),
    deals: int = 100,
    seed: int = 0,
    label: str | None = None,
    **params: Any,
) -> list[Evaluation]:
    """:func:`evaluate` against each line-up of ``opponents`` (the same deals for each); a solo game plays once."""
    lineups = opponents[:1] if load_game(game, **params).num_players == 1 else opponents
    return [evaluate(policy, game, o, deals=deals, seed=seed, label=label, **params) for o in lineups]


def summary_line(result: Evaluation | Mapping[str, Any]) -> str:
    """One line in English for logs and docs: ``wins 41.0% [36.2%, 46.0%] of 300 games against heuristic ...``."""
    r = result.to_json() if isinstance(result, Evaluation) else dict(result)
    against = f"against {r['opponent']} (fair share {r['fair_share']:.1%})" if r["opponent"] else "against the game"
    return (
        f"{r['policy']}: wins {r['win_share']:.1%} [{r['low']:.1%}, {r['high']:.1%}] of {r['games']} games {against}; "
        f"mean score {r['mean_score']:.2f}, mean margin {r['mean_margin']:+.2f}"
    )
