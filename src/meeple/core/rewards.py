"""Final rewards as a choice: ``win``, ``rank``, ``score`` or ``score_margin`` (the adapters, ``meeple evaluate``).

Every reward is given once, at the end of the game (0 before); what each kind gives a seat:

- ``"win"``: the seat's share of the win: ``returns()[seat]`` divided by the number of seats whose return is 1, so a
  win shared by two seats gives 0.5 each and a game's reward sums to 1 (Citadels, Capitol and Capital Lux 2 share a
  tie their rules do not break; Caprice always breaks it). Capital Lux 2 solo: 1 if the player beats ROB, else 0.
- ``"rank"``: the share of the other seats this seat finished ahead of, a tie counting a half, in ``[0, 1]`` (1 = first
  alone, 0 = last alone). Seats are ordered by the game's own result first (``returns()``: its tie-breaks), then by
  ``scores()``. Solo: as ``"win"``.
- ``"score"``: the seat's final points, ``scores()[seat]`` (the game's own points).
- ``"score_margin"``: the seat's points minus the best of the other seats' (positive only for a seat ahead of
  everyone); Capital Lux 2 solo: the player's points minus ROB's (``opponent_score()``).

Scores are bounded by :data:`SCORE_BOUND` per game (the pyspiel ``min_utility`` / ``max_utility`` of the score
rewards): a generous bound on any game's points, well above the largest seen (docs/research.md).

Rules: issue "For researchers, round two" (graded rewards); each game's scoring in /work/shared/rules (citadels.md
§5.2, capitol.md §5.2 phase 3, capital_lux_2.md and caprice.md §14).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from meeple.core.errors import InvalidParameterError
from meeple.core.state import State
from meeple.i18n.message import M

RewardKind = Literal["win", "rank", "score", "score_margin"]
REWARDS: tuple[str, ...] = ("win", "rank", "score", "score_margin")
"""The kinds of final reward, in the order of the docs."""

SCORE_BOUND: dict[str, float] = {"citadels": 200.0, "capitol": 400.0, "capital_lux_2": 200.0, "caprice": 200.0}
"""Per game, a bound on any seat's points: ``score`` lies in ``[0, bound]``, ``score_margin`` in ``[-bound, bound]``."""


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """1-based ranks of comparable ``keys`` (1 = the greatest); equal keys share a rank ("1224" ranking)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def finish_ranks(state: State[Any]) -> list[int]:
    """1-based ranks of the seats of a finished game (1 = first).

    By ``returns()`` (the game's result and tie-breaks), then by ``scores()``; seats equal in both share a rank (the
    order of the ``"rank"`` reward).
    """
    returns, scores = state.returns(), state.scores()
    return competition_ranks([(returns[s], scores[s]) for s in range(len(returns))])


def check_reward(kind: Any) -> RewardKind:
    """Return ``kind`` if it is one of :data:`REWARDS`.

    Raises:
        InvalidParameterError: any other value (the message lists the allowed ones).
    """
    if kind not in REWARDS:
        raise InvalidParameterError(
            M("reward must be one of {allowed}, not {value}", allowed=", ".join(REWARDS), value=repr(kind))
        )
    result: RewardKind = kind
    return result


def reward_range(kind: str, game: str) -> tuple[float, float]:
    """The lowest and highest reward of ``kind`` in ``game`` (pyspiel's ``min_utility`` and ``max_utility``)."""
    bound = SCORE_BOUND.get(game, 1000.0)
    if kind == "score":
        return 0.0, bound
    if kind == "score_margin":
        return -bound, bound
    return 0.0, 1.0


def final_rewards(state: State[Any], kind: str) -> list[float]:
    """Each seat's reward of ``kind`` for ``state`` (all 0 before the end).

    Raises:
        InvalidParameterError: ``kind`` is not one of :data:`REWARDS`.
    """
    check_reward(kind)
    n = state.game.num_players
    if not state.is_terminal():
        return [0.0] * n
    returns = [float(r) for r in state.returns()]
    if kind == "win" or (kind == "rank" and n == 1):
        winners = sum(1 for r in returns if r >= 1.0)
        return [r / winners if winners > 1 else r for r in returns]
    scores = [float(s) for s in state.scores()]
    if kind == "score":
        return scores
    if kind == "score_margin":
        if n == 1:
            opponent = state.opponent_score()
            return [scores[0] - (opponent or 0.0)]
        return [scores[s] - max(scores[:s] + scores[s + 1 :]) for s in range(n)]
    keys = list(zip(returns, scores, strict=True))
    return [
        sum(1.0 if keys[s] > k else 0.5 if keys[s] == k else 0.0 for o, k in enumerate(keys) if o != s) / (n - 1)
        for s in range(n)
    ]
