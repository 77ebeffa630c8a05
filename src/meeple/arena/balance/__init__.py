"""Per-game balance features, extracted from the end of each tournament game, and their summaries.

An extractor receives the terminal state and may use **public information only**: the spectator observation
``state.observation(None)``, the spectator texts of the actions (:func:`public_history`) and the spectator
observations along a replay of the game (:func:`replay_public`); never hidden fields. It returns::

    {"seat": {question: [[label, ...] for each seat]},   # e.g. the characters each seat played
     "game": {question: label},                          # e.g. the configuration of the game
     "values": {name: number}}                           # optional, e.g. the solo margin against ROB

Every game also gets the seat question ``turn position`` (1st = the seat of the first action of the game), which
is the first-player advantage when the first player is not seat 0.

The report then gives, per seat question, the win rate of the seat-games that carry each label (a seat that built
three districts counts once for each), and per game question, the games, the first seat's win rate and the mean
winning score for each label. A game without an extractor gets only the generic report (seats, bots, lengths).
A game declares its extractor, and the question it answers, in its ``GameSpec`` (``balance``, ``balance_question``);
the built-in games' extractors live beside this module, one per game (``meeple.arena.balance.<game>:features``), as
their heuristic bots and renderers do (docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.core.registry import game_spec
from meeple.core.state import SPECTATOR, State

Features = dict[str, Any]
Extractor = Callable[[State[Any]], Features]

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def balance_question(game: str) -> str:
    """Return the sentence saying what ``game``'s balance features answer ("" if it has no extractor)."""
    spec = game_spec(game)
    return spec.balance_question if spec.balance else ""


def public_history(state: State[Any]) -> list[tuple[int, str]]:
    """Return the history as ``(seat, text)`` pairs, as a spectator sees it."""
    return [(p, state.action_to_string(a, SPECTATOR, p)) for p, a in state.history]


def replay_public(
    state: State[Any], want: Callable[[int, str], bool] | None = None
) -> Iterator[tuple[int, str, Mapping[str, Any] | None]]:
    """Replay ``state``'s game from its seed; yield ``(seat, spectator text, spectator observation after it)``.

    The replay starts from ``game.new_initial_state(state.seed)``, so ``state`` must be a game played from its
    initial state (as every tournament game is).

    Args:
        state: a state (its seed, parameters and history are replayed; it is not modified).
        want: compute the observation only for the actions where ``want(seat, text)`` is true (None for the others);
            by default after every action.
    """
    replay = state.game.new_initial_state(state.seed)
    for p, a in state.history:
        text = replay.action_to_string(a, SPECTATOR, p)
        replay.apply_action(a)
        yield p, text, replay.observation(None) if want is None or want(p, text) else None


def turn_positions(state: State[Any]) -> list[list[str]]:
    """Return each seat's position in the order of play, counted from the seat of the game's first action."""
    n = state.game.num_players
    first = state.history[0][0] if state.history else 0
    return [[ORDINALS[(s - first) % n] if n <= len(ORDINALS) else str((s - first) % n + 1)] for s in range(n)]


def extract_features(state: State[Any]) -> Features:
    """Return the balance features of a finished game (only ``turn position`` when the game has no extractor).

    An extractor that fails (a game whose observation changed) yields an ``"error"`` entry rather than losing the
    game's result.
    """
    out: Features = {"seat": {"turn position": turn_positions(state)}, "game": {}}
    spec = game_spec(state.game.name)
    if spec.balance is None:
        return out
    try:
        found = spec.load("balance")(state)
    except Exception as exc:  # noqa: BLE001 - features are a bonus; keep the result
        return {**out, "error": f"{type(exc).__name__}: {exc}"}
    out["seat"].update(found.get("seat", {}))
    out["game"].update(found.get("game", {}))
    if found.get("values"):
        out["values"] = {str(k): float(v) for k, v in found["values"].items()}
    return out


def value_stats(features: Sequence[Features]) -> dict[str, tuple[int, float, float, float, float]]:
    """Aggregate the numeric ``values`` features: name -> ``(n, mean, standard deviation, min, max)``."""
    table: dict[str, list[float]] = {}
    for feats in features:
        for name, value in (feats.get("values") or {}).items():
            table.setdefault(name, []).append(float(value))
    out = {}
    for name, xs in table.items():
        mean = sum(xs) / len(xs)
        sd = (sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5 if len(xs) > 1 else 0.0
        out[name] = (len(xs), mean, sd, min(xs), max(xs))
    return out


@dataclass
class LabelStat:
    """Win statistics of one label of one balance question."""

    label: str
    n: int = 0
    wins: float = 0.0
    score_sum: float = 0.0
    first_seat_wins: float = 0.0
    best_score_sum: float = 0.0


def win_credit(returns: Sequence[float]) -> list[float]:
    """Return each seat's share of the win: ``returns`` normalised to sum to 1 (0 for all if nobody won)."""
    total = sum(returns)
    if total <= 0:
        return [0.0] * len(returns)
    return [r / total for r in returns]


def seat_question_stats(
    features: Sequence[Features], returns: Sequence[Sequence[float]], scores: Sequence[Sequence[float]]
) -> dict[str, list[LabelStat]]:
    """Aggregate the seat questions: per question, one :class:`LabelStat` per label, by descending count."""
    table: dict[str, dict[str, LabelStat]] = {}
    for feats, ret, sc in zip(features, returns, scores, strict=True):
        credit = win_credit(ret)
        for question, per_seat in feats.get("seat", {}).items():
            stats = table.setdefault(question, {})
            for seat, labels in enumerate(per_seat):
                for label in labels if isinstance(labels, list) else [labels]:
                    st = stats.setdefault(str(label), LabelStat(str(label)))
                    st.n += 1
                    st.wins += credit[seat]
                    st.score_sum += sc[seat]
    return {q: sorted(s.values(), key=lambda st: (-st.n, st.label)) for q, s in table.items()}


def game_question_stats(
    features: Sequence[Features], returns: Sequence[Sequence[float]], scores: Sequence[Sequence[float]]
) -> dict[str, list[LabelStat]]:
    """Aggregate the game questions: per label, games, first seat's win credit, mean best score."""
    table: dict[str, dict[str, LabelStat]] = {}
    for feats, ret, sc in zip(features, returns, scores, strict=True):
        credit = win_credit(ret)
        for question, label in feats.get("game", {}).items():
            st = table.setdefault(question, {}).setdefault(str(label), LabelStat(str(label)))
            st.n += 1
            st.first_seat_wins += credit[0]
            st.best_score_sum += max(sc) if sc else 0.0
            st.score_sum += sum(sc) / len(sc) if sc else 0.0
    return {q: sorted(s.values(), key=lambda st: (-st.n, st.label)) for q, s in table.items()}
