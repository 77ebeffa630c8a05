"""Final rewards as a choice: ``win``, ``rank``, ``score`` or ``score_margin``, raw or scaled to [-1, 1].

Every reward is given once, at the end of the game (0 before); what each kind gives a seat:

- ``"win"``: the seat's share of the win: ``returns()[seat]`` divided by the number of seats whose return is 1, so a
  win shared by two seats gives 0.5 each and a game's reward sums to 1 (Citadels, Capitol and Capital Lux 2 share a
  tie their rules do not break; Caprice always breaks it). Capital Lux 2 solo: 1 if the player beats ROB, else 0.
- ``"rank"``: the share of the other seats this seat finished ahead of, a tie counting a half, in ``[0, 1]`` (1 = first
  alone, 0 = last alone). Seats are ordered by the game's own result first (``returns()``: its tie-breaks), then by
  ``scores()``. Solo: as ``"win"``.
- ``"score"``: the seat's final points, ``scores()[seat]`` (the game's own points, never negative).
- ``"score_margin"``: the seat's points minus the best of the other seats' (positive only for a seat ahead of
  everyone); Capital Lux 2 solo: the player's points minus ROB's (``opponent_score()``).

**Scale** (``reward_scale``): ``"raw"`` (the default) gives the values above; ``"unit"`` divides each kind by its
bound for the game and player count (:func:`reward_bound`: 1 for ``win`` and ``rank``, the game's declared
``GameSpec.score_bound`` for ``score`` and ``GameSpec.margin_bound`` for ``score_margin``), so every kind lies in
``[-1, 1]`` (``score``, ``win`` and ``rank`` in ``[0, 1]``); a value past its bound, never seen when the bounds were
measured, is clipped to it.

The bounds are measured, not guessed: ``benchmarks/score_bounds.py`` plays hundreds of seeded games per game and
player count (random and heuristic line-ups, a strong seat among weak ones for the largest scores and margins) and
each game's spec declares the largest value seen times 1.25 (docs/research.md, "Rewards", gives the table);
``tests/core/test_rewards.py`` plays games and checks them. They are pyspiel's ``min_utility`` / ``max_utility``.

The **utility type** of each kind (:func:`utility`): ``win`` sums to 1 over the seats and ``rank`` to
``players / 2`` (constant-sum, two players and more); ``score_margin`` at two players sums to 0 (zero-sum); every
other case (``score``, ``score_margin`` at three players and more, any solo game) is general-sum.

Rules: issues "For researchers, round two" (graded rewards) and "round three" (scaled rewards, utility types);
each game's scoring in /work/shared/rules (citadels.md §5.2, capitol.md §5.2 phase 3, capital_lux_2.md §13 and
caprice.md §10-14).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import game_spec
from meeple.core.state import State
from meeple.i18n.message import M

RewardKind = Literal["win", "rank", "score", "score_margin"]
REWARDS: tuple[str, ...] = ("win", "rank", "score", "score_margin")
"""The kinds of final reward, in the order of the docs."""

RewardScale = Literal["raw", "unit"]
REWARD_SCALES: tuple[str, ...] = ("raw", "unit")
"""The scales of a reward: the game's own values, or divided by the kind's bound (in ``[-1, 1]``)."""
UtilityType = Literal["zero_sum", "constant_sum", "general_sum"]


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


def check_reward_scale(scale: Any) -> RewardScale:
    """Return ``scale`` if it is one of :data:`REWARD_SCALES`.

    Raises:
        InvalidParameterError: any other value (the message lists the allowed ones).
    """
    if scale not in REWARD_SCALES:
        raise InvalidParameterError(
            M(
                "reward_scale must be one of {allowed}, not {value}",
                allowed=", ".join(REWARD_SCALES),
                value=repr(scale),
            )
        )
    result: RewardScale = scale
    return result


def score_bounds(game: Game[Any]) -> tuple[float, float]:
    """The game's declared bounds on a seat's points and on its margin, for its player count.

    ``GameSpec.score_bound`` and ``GameSpec.margin_bound`` (measured: see the module docstring); points lie in
    ``[0, score bound]``, margins in ``[-margin bound, margin bound]``.

    Raises:
        InvalidParameterError: the game declares no bound for this player count (the message names the fields).
    """
    spec = game_spec(game.name)
    n = game.num_players
    score, margin = spec.score_bound.get(n), spec.margin_bound.get(n)
    if score is None or margin is None:
        raise InvalidParameterError(
            M(
                "{game} declares no score bound for {n} players (GameSpec.score_bound and margin_bound)",
                game=game.name,
                n=n,
            )
        )
    return float(score), float(margin)


def reward_bound(kind: str, game: Game[Any]) -> float:
    """The largest absolute value of the raw reward ``kind`` in ``game`` (what ``"unit"`` divides by).

    1 for ``win`` and ``rank``; the declared score bound for ``score``, the margin bound for ``score_margin``.

    Raises:
        InvalidParameterError: an unknown kind, or a score kind in a game that declares no bound.
    """
    check_reward(kind)
    if kind in ("win", "rank"):
        return 1.0
    score, margin = score_bounds(game)
    return score if kind == "score" else margin


def reward_range(kind: str, game: Game[Any], scale: str = "raw") -> tuple[float, float]:
    """The lowest and highest reward of ``kind`` in ``game`` at ``scale`` (pyspiel's ``min_utility`` / ``max_utility``).

    Raises:
        InvalidParameterError: an unknown kind or scale, or a score kind in a game that declares no bound.
    """
    bound = 1.0 if check_reward_scale(scale) == "unit" else reward_bound(kind, game)
    return (-bound, bound) if kind == "score_margin" else (0.0, bound)


def utility(kind: str, players: int) -> tuple[UtilityType, float | None]:
    """The utility type of ``kind`` at ``players`` seats and its sum over the seats (None: general-sum).

    ``win``: constant-sum 1; ``rank``: constant-sum ``players / 2`` (each pair of seats shares 1, over ``players - 1``);
    ``score_margin`` at 2 players: zero-sum; everything else, and every solo game, general-sum. The same at either
    scale (``"unit"`` leaves ``win`` and ``rank`` as they are and scales, and clips, both margins alike).

    Raises:
        InvalidParameterError: an unknown kind.
    """
    check_reward(kind)
    if players >= 2 and kind == "win":
        return "constant_sum", 1.0
    if players >= 2 and kind == "rank":
        return "constant_sum", players / 2
    if players == 2 and kind == "score_margin":
        return "zero_sum", 0.0
    return "general_sum", None


def final_rewards(state: State[Any], kind: str, scale: str = "raw") -> list[float]:
    """Each seat's reward of ``kind`` for ``state`` at ``scale`` (all 0 before the end).

    Raises:
        InvalidParameterError: ``kind`` is not one of :data:`REWARDS`, ``scale`` not one of
            :data:`REWARD_SCALES`, or ``"unit"`` in a game that declares no score bound.
    """
    check_reward(kind)
    if check_reward_scale(scale) == "unit" and kind in ("score", "score_margin"):
        bound = reward_bound(kind, state.game)
        return [max(-1.0, min(1.0, r / bound)) for r in _raw_rewards(state, kind)]
    return _raw_rewards(state, kind)


def _raw_rewards(state: State[Any], kind: str) -> list[float]:
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
