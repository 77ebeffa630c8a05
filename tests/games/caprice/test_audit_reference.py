"""Audit: the engine against an independent reference model of the turn rules (caprice.md §6-9, §10-14).

The reference tracks every piece by identity (not by space), so it states the rules as the spec does: "the piece
placed this turn", "the marked piece", "the marker comes off when a piece is placed or moved onto that piece's
tower", "the game ends at once when five towers have height 4". Random games are played with the engine and the
reference side by side; at every decision their legal actions, marker and end must agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations

import pytest

import meeple
from meeple.core import Rng
from meeple.games.caprice import Move, Place, SkipMove
from meeple.games.caprice.data import PIECE_TYPES, SPACES
from meeple.games.caprice.state import MOVE, OVER, PLACE, CapriceState


@dataclass
class Reference:
    """Pieces by identity: towers hold piece ids; ``kind[id]`` is its type."""

    players: int
    player: int
    towers: list[list[int]] = field(default_factory=lambda: [[] for _ in range(6)])
    kind: list[int] = field(default_factory=list)
    supply: list[int] = field(default_factory=lambda: [6, 6, 6, 6])
    marked: int | None = None  # id of the marked piece
    just_placed: int | None = None  # id of the piece placed this turn
    phase: str = "place"
    ender: int | None = None

    def full(self) -> int:
        return sum(len(t) == 4 for t in self.towers)

    def place_options(self) -> set[tuple[str, str]]:
        return {
            (PIECE_TYPES[p], SPACES[s])
            for p in range(4)
            if self.supply[p] > 0
            for s in range(6)
            if len(self.towers[s]) <= 3
        }

    def move_options(self) -> set[tuple[str, str]]:
        out = set()
        for s, tower in enumerate(self.towers):
            if not tower:
                continue
            top = tower[-1]
            if top == self.just_placed or top == self.marked:  # not the new piece, not the marked piece
                continue
            for d in range(6):
                if d != s and len(self.towers[d]) <= 3:
                    out.add((SPACES[s], SPACES[d]))
        return out

    def place(self, piece: int, space: int) -> None:
        tower = self.towers[space]
        if tower and tower[-1] == self.marked:
            self.marked = None  # a piece placed onto the marked piece's tower takes the marker off
        pid = len(self.kind)
        self.kind.append(piece)
        tower.append(pid)
        self.supply[piece] -= 1
        self.just_placed = pid
        if self.full() >= 5:
            self.phase, self.ender = "over", self.player
        elif self.move_options():
            self.phase = "move"
        else:
            self.end_turn()

    def move(self, src: int, dst: int) -> None:
        pid = self.towers[src].pop()
        self.towers[dst].append(pid)
        self.marked = pid  # the marker passes to the moved piece
        if self.full() >= 5:
            self.phase, self.ender = "over", self.player
        else:
            self.end_turn()

    def end_turn(self) -> None:
        self.just_placed = None
        self.phase = "place"
        self.player = (self.player + 1) % self.players

    def marker_space(self) -> str | None:
        for s, tower in enumerate(self.towers):
            if self.marked is not None and self.marked in tower:
                assert tower[-1] == self.marked, "the marked piece is always a top piece"
                return SPACES[s]
        return None


def reference_points(order: tuple[int, ...], towers: list[list[int]]) -> int:
    total = 0
    for tower in towers:
        matches = sum(1 for i, p in enumerate(tower) if order[i] == p)
        total += matches + (1 if len(tower) == 4 and matches == 4 else 0)
    return total


def reference_winner(points: list[int], ender: int) -> int:
    n = len(points)
    seats_after_ender = [(ender + k) % n for k in range(1, n + 1)]  # the ender comes last
    best = max(points)
    return next(s for s in seats_after_ender if points[s] == best)


Stats = dict[str, int]


def play_against_reference(players: int, seed: int, exchange: str, stats: Stats) -> CapriceState:
    game = meeple.load_game("caprice", players=players, third_symbol_exchange=exchange)
    state = game.new_initial_state(seed)
    assert isinstance(state, CapriceState)
    rng = Rng(seed * 13 + players)
    while state.phase not in (PLACE, MOVE):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    ref = Reference(players, state.current_player())
    while not state.is_terminal():
        assert state.current_player() == ref.player
        legal = state.legal_actions()
        if ref.phase == "place":
            assert state.phase == PLACE
            assert {(a.piece, a.space) for a in legal if isinstance(a, Place)} == ref.place_options()
            assert len(legal) == len(ref.place_options())
        else:
            assert state.phase == MOVE and ref.phase == "move"
            assert SkipMove() in legal
            assert {(a.source, a.target) for a in legal if isinstance(a, Move)} == ref.move_options()
            assert len(legal) == 1 + len(ref.move_options())
        # Prefer moves, so markers and towers dropping below four happen often.
        moves = [a for a in legal if isinstance(a, Move)]
        action = moves[rng.randrange(len(moves))] if moves and rng.random() < 0.7 else legal[rng.randrange(len(legal))]
        if isinstance(action, Move):
            src, dst = SPACES.index(action.source), SPACES.index(action.target)
            stats["off_full"] += len(state.towers[src]) == 4
            stats["onto_marker"] += ref.marked is not None and ref.marked in ref.towers[dst]
        elif isinstance(action, Place):
            stats["place_on_marker"] += ref.marked is not None and ref.marked in ref.towers[SPACES.index(action.space)]
        state.apply_action(action)
        if isinstance(action, Place):
            ref.place(PIECE_TYPES.index(action.piece), SPACES.index(action.space))
        elif isinstance(action, Move):
            ref.move(SPACES.index(action.source), SPACES.index(action.target))
        else:
            ref.end_turn()
        assert state.tower_names() == [[PIECE_TYPES[ref.kind[i]] for i in t] for t in ref.towers]
        assert state.space_name(state.marker) == ref.marker_space()
        assert state.supply == ref.supply
        assert (state.phase == OVER) == (ref.phase == "over")
    assert ref.ender is not None and state.ender == ref.ender
    stats["end_by_move"] += isinstance(state.history[-1][1], Move)
    stats["end_by_place"] += isinstance(state.history[-1][1], Place)
    towers = [list(t) for t in state.towers]
    points = [max(reference_points(o, towers) for o in permutations(h)) for h in state.symbols]
    assert state.points == points
    assert state.winner == reference_winner(points, ref.ender)
    assert state.returns() == [1.0 if s == state.winner else 0.0 for s in range(players)]
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_agrees_with_the_reference_model(players: int) -> None:
    stats: Stats = {k: 0 for k in ("off_full", "onto_marker", "place_on_marker", "end_by_move", "end_by_place")}
    for seed in range(50):
        play_against_reference(players, seed, "mandatory" if seed % 2 else "optional", stats)
    # The games really exercise the delicate cases.
    assert all(v > 0 for v in stats.values()), stats
