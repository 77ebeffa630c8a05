"""A heuristic Caprice bot: builds towers that match its own symbols and spoils what the others seem to want.

Each placement is evaluated together with the best optional move that may follow it; a position is worth

    max over my symbol orders of (points + 0.15 x height of each open tower that so far matches the order)
    - 0.6 x max over opponents of their estimated points,

where an opponent's estimate gives each piece at height ``i`` the probability, learnt from the public log, that
this opponent wants that piece type at position ``i`` (smoothed counts of the pieces it placed or moved
there). An action that ends the game is taken when the bot's true points beat every opponent's estimated final
points (sampled hands from the unseen tokens), and avoided otherwise. The bot always exchanges a third copy and,
under ``symbol_order="manual"``, chooses its best order.

It reads only ``view.observation()`` and ``view.legal_actions()``. Rules: caprice.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.rng import Rng
from meeple.core.view import SeatView
from meeple.games.caprice.actions import ExchangeSymbol, Move, OrderSymbol, Place, SkipMove
from meeple.games.caprice.data import (
    MAX_HEIGHT,
    NUM_TYPES,
    PIECE_INDEX,
    PIECE_TYPES,
    SPACE_INDEX,
    TOKENS_PER_TYPE,
    TOWERS_TO_END,
)
from meeple.games.caprice.observation import CapriceObservation
from meeple.games.caprice.rules import best_order, distinct_orders, order_points, tower_points

Tower = tuple[int, ...]

ON_TRACK = 0.15
"""Bonus per piece of an open tower that so far matches one of my orders."""
SPOIL = 0.6
"""Weight of the best opponent's estimated points."""
MOVE_WEIGHT = 1.5
"""Weight of a piece an opponent moved (a deliberate choice) in its preference counts."""
SAMPLES = 24
"""Sampled hands per opponent to estimate its final points."""
PRIOR = 2.0
"""Laplace prior of every (position, type) cell of an opponent's preference counts (damps noise)."""
END_BONUS = 1000.0


T = TypeVar("T")


def _own(value: T | None) -> T:
    """An own field of the bot's observation (a seat's observation always has it, never the spectator's)."""
    assert value is not None
    return value


class _Evaluator:
    """Values of positions for one decision, with per-tower caches."""

    def __init__(self, obs: CapriceObservation, rng: Rng) -> None:
        self.me: int = _own(obs["seat"])
        self.n: int = obs["players"]
        self.symbols = [PIECE_INDEX[s] for s in _own(obs["symbols"])]
        self.orders = distinct_orders(tuple(sorted(self.symbols)))
        self.towers: list[Tower] = [tuple(PIECE_INDEX[p] for p in t) for t in obs["towers"]]
        self.opponents = [s for s in range(self.n) if s != self.me]
        self.q = self._preferences(obs["log"])
        self._mine: dict[Tower, list[float]] = {}
        self._theirs: dict[Tower, list[float]] = {}
        self._random = rng
        self._final_cache: dict[tuple[Tower, ...], float] = {}
        self.base_mine = [0.0] * len(self.orders)
        self.base_theirs = [0.0] * len(self.opponents)
        for t in self.towers:
            self._add(self.base_mine, self.mine(t), 1)
            self._add(self.base_theirs, self.theirs(t), 1)

    @staticmethod
    def _add(acc: list[float], vec: Sequence[float], sign: int) -> None:
        for i, v in enumerate(vec):
            acc[i] += sign * v

    def _preferences(self, log: list[list[Any]]) -> dict[int, list[list[float]]]:
        counts = {s: [[PRIOR] * NUM_TYPES for _ in range(MAX_HEIGHT)] for s in self.opponents}
        towers: list[list[int]] = [[] for _ in self.towers]
        for entry in log:
            seat, kind = entry[0], entry[1]
            if kind == "place":
                piece, dst, weight = PIECE_INDEX[entry[2]], SPACE_INDEX[entry[3]], 1.0
            elif kind == "move":
                piece, dst, weight = towers[SPACE_INDEX[entry[2]]].pop(), SPACE_INDEX[entry[3]], MOVE_WEIGHT
            else:
                continue
            height = len(towers[dst])
            towers[dst].append(piece)
            if seat in counts:
                counts[seat][height][piece] += weight
        return {s: [[c / sum(row) for c in row] for row in rows] for s, rows in counts.items()}

    def mine(self, tower: Tower) -> list[float]:
        vec = self._mine.get(tower)
        if vec is None:
            vec = []
            k = len(tower)
            for order in self.orders:
                value = float(tower_points(order, tower))
                if 0 < k < MAX_HEIGHT and order[:k] == tower:
                    value += ON_TRACK * k
                vec.append(value)
            self._mine[tower] = vec
        return vec

    def theirs(self, tower: Tower) -> list[float]:
        vec = self._theirs.get(tower)
        if vec is None:
            vec = [sum(self.q[s][i][p] for i, p in enumerate(tower)) for s in self.opponents]
            self._theirs[tower] = vec
        return vec

    def value(self, changed: dict[int, Tower]) -> float:
        """Value of the current towers with the towers of ``changed`` replaced."""
        mine = list(self.base_mine)
        theirs = list(self.base_theirs)
        for i, t in changed.items():
            old = self.towers[i]
            self._add(mine, self.mine(old), -1)
            self._add(mine, self.mine(t), 1)
            self._add(theirs, self.theirs(old), -1)
            self._add(theirs, self.theirs(t), 1)
        return max(mine) - SPOIL * (max(theirs) if theirs else 0.0)

    def final_value(self, changed: dict[int, Tower]) -> float:
        """Value of ending the game on these towers: large if my points beat every opponent's estimate."""
        towers = [changed.get(i, t) for i, t in enumerate(self.towers)]
        _, mine = best_order(self.symbols, towers)
        key = tuple(towers)
        theirs = self._final_cache.get(key)
        if theirs is None:
            theirs = self._estimate_opponents(towers)
            self._final_cache[key] = theirs
        return (END_BONUS if mine > theirs else -END_BONUS) + mine

    def _estimate_opponents(self, towers: list[Tower]) -> float:
        """Return the best opponent's expected points, over hands sampled from the tokens I cannot see."""
        pool: list[int] = []
        for t in range(NUM_TYPES):
            pool += [t] * (TOKENS_PER_TYPE - self.symbols.count(t))
        best = 0.0
        for _ in self.opponents:
            total = 0
            for _ in range(SAMPLES):
                hand = self._random.sample(pool, 4)
                total += max(order_points(o, towers) for o in distinct_orders(tuple(sorted(hand))))
            best = max(best, total / SAMPLES)
        return best


def _moves_after(towers: list[Tower], placed: int, marker: int) -> list[tuple[int, int]]:
    out = []
    for src, tower in enumerate(towers):
        if not tower or src == placed or src == marker:
            continue
        for dst, other in enumerate(towers):
            if dst != src and len(other) < MAX_HEIGHT:
                out.append((src, dst))
    return out


def _full_count(towers: Sequence[Tower]) -> int:
    return sum(1 for t in towers if len(t) == MAX_HEIGHT)


class CapriceHeuristicBot(Bot):
    """Heuristic Caprice player (see the module docstring)."""

    name = "heuristic"

    def select_action(self, view: SeatView) -> Action:
        """Return the bot's choice among ``view.legal_actions()``."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        if len(legal) == 1:
            return legal[0]
        obs = cast(CapriceObservation, view.observation())  # this bot plays Caprice only
        phase = obs["phase"]
        if phase == "draw":
            return next((a for a in legal if isinstance(a, ExchangeSymbol)), legal[0])
        if phase == "order":
            return self._order(obs, legal)
        ev = _Evaluator(obs, self.rng)
        if phase == "place":
            return self._place(obs, legal, ev)
        return self._move(obs, legal, ev)

    def _order(self, obs: CapriceObservation, legal: list[Action]) -> Action:
        symbols = [PIECE_INDEX[s] for s in _own(obs["symbols"])]
        chosen = tuple(PIECE_INDEX[s] for s in _own(obs["order_chosen"]))
        towers = [[PIECE_INDEX[p] for p in t] for t in obs["towers"]]
        fitting = [o for o in distinct_orders(tuple(sorted(symbols))) if o[: len(chosen)] == chosen]
        best = max(fitting, key=lambda o: order_points(o, towers))
        wanted = PIECE_TYPES[best[len(chosen)]]
        return next((a for a in legal if isinstance(a, OrderSymbol) and a.symbol == wanted), legal[0])

    def _best_move_value(self, ev: _Evaluator, changed: dict[int, Tower], placed: int, marker: int) -> float:
        towers = [changed.get(i, t) for i, t in enumerate(ev.towers)]
        best = ev.value(changed)
        full = _full_count(towers)
        for src, dst in _moves_after(towers, placed, marker):
            after = dict(changed)
            after[src] = towers[src][:-1]
            after[dst] = towers[dst] + (towers[src][-1],)
            ends = full - (len(towers[src]) == MAX_HEIGHT) + (len(after[dst]) == MAX_HEIGHT) >= TOWERS_TO_END
            best = max(best, ev.final_value(after) if ends else ev.value(after))
        return best

    def _place(self, obs: CapriceObservation, legal: list[Action], ev: _Evaluator) -> Action:
        marker = SPACE_INDEX[obs["marker"]] if obs["marker"] else -1
        full = _full_count(ev.towers)
        best_action, best_value = legal[0], -float("inf")
        for action in legal:
            if not isinstance(action, Place):
                continue
            space = SPACE_INDEX[action.space]
            tower = ev.towers[space] + (PIECE_INDEX[action.piece],)
            changed = {space: tower}
            if full + (len(tower) == MAX_HEIGHT) >= TOWERS_TO_END:
                value = ev.final_value(changed)
            else:
                value = self._best_move_value(ev, changed, space, -1 if marker == space else marker)
            value += self.rng.random() * 1e-6
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def _move(self, obs: CapriceObservation, legal: list[Action], ev: _Evaluator) -> Action:
        full = _full_count(ev.towers)
        best_action, best_value = legal[0], -float("inf")
        for action in legal:
            if isinstance(action, SkipMove):
                value = ev.value({})
            elif isinstance(action, Move):
                src, dst = SPACE_INDEX[action.source], SPACE_INDEX[action.target]
                changed = {src: ev.towers[src][:-1], dst: ev.towers[dst] + (ev.towers[src][-1],)}
                ends = full - (len(ev.towers[src]) == MAX_HEIGHT) + (len(changed[dst]) == MAX_HEIGHT)
                value = ev.final_value(changed) if ends >= TOWERS_TO_END else ev.value(changed)
            else:
                continue
            value += self.rng.random() * 1e-6
            if value > best_value:
                best_action, best_value = action, value
        return best_action


__all__ = ["CapriceHeuristicBot"]
