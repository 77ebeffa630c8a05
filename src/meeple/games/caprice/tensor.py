"""Caprice's observation tensor: the towers piece by piece, the supply, your symbols and the public record.

Built from :class:`~meeple.games.caprice.observation.CapriceObservation` only. Seats are relative to the observer
(slot 0 = me; :func:`meeple.core.tensor.relative`). Field by field: ``layout(players).describe()``; docs/research.md.

Rules: caprice.md §1-§11 (towers of at most 4 pieces, the red marker, symbols and orders).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.tensor import TensorBuffer, TensorLayout, TensorWriter, relative
from meeple.games.caprice.const import DRAW, OVER
from meeple.games.caprice.data import (
    MAX_HEIGHT,
    NUM_SPACES,
    NUM_TYPES,
    PIECE_INDEX,
    PIECES_PER_TYPE,
    SPACE_INDEX,
    SYMBOLS_PER_PLAYER,
    TOKENS_PER_TYPE,
)
from meeple.games.caprice.observation import CapriceObservation
from meeple.games.caprice.rules import best_order

if TYPE_CHECKING:
    from meeple.games.caprice.state import CapriceState

PHASES = ("draw", "place", "move", "order", "over")


def layout(players: int) -> TensorLayout:
    """Return the layout for ``players`` seats (2-4)."""
    t = TensorLayout()
    t.add("towers", NUM_SPACES * MAX_HEIGHT * NUM_TYPES, "space A-F x level 0-3 from the bottom x piece DR,DT,LR,LT")
    t.add("marker", NUM_SPACES, "the red marker's space (its top piece cannot move)")
    t.add("just_placed", NUM_SPACES, "the space of the piece just placed this turn")
    t.add("supply", NUM_TYPES, f"pieces left in the supply per type / {PIECES_PER_TYPE}")
    t.add("bag", 1, f"symbol tokens left in the bag / {NUM_TYPES * TOKENS_PER_TYPE}")
    t.add("progress", 2, "full towers / 6, placements / 24")
    t.add("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES))
    t.add("current_player", players, "seat to move (relative)")
    t.add("first_player", players, "first player (relative)")
    t.add("symbol_counts", players, f"symbols held per seat (relative) / {SYMBOLS_PER_PLAYER}")
    t.add("exchanges", players, "third-symbol exchanges made per seat (relative) / 4")
    t.add("orders_done", players, "seat (relative) has fixed its order")
    t.add("variants", 2, "symbol_order is manual; third_symbol_exchange is mandatory")
    t.add("my_symbols", NUM_TYPES, f"my symbols per type / {SYMBOLS_PER_PLAYER}")
    t.add("drawn_symbol", NUM_TYPES, "the symbol I just drew (keep or exchange)")
    t.add("can_exchange", 1, "I may exchange the symbol just drawn")
    t.add("best_order", SYMBOLS_PER_PLAYER * NUM_TYPES, "my best order: position 1-4 from the bottom x type")
    t.add("order_chosen", SYMBOLS_PER_PLAYER * NUM_TYPES, "my manual order so far: position x type")
    t.add("my_points", 1, "points my symbols score now / 10")
    t.add("ender", players, "seat (relative) whose move ended the game")
    t.add("winner", players, "winning seat (relative), at the end")
    t.add("reveal", players * (NUM_TYPES + 1), "at the end: per seat (relative) its symbols per type / 4, points / 10")
    return t


def encode(obs: CapriceObservation, out: TensorWriter) -> None:
    """Fill ``out`` (a writer of :func:`layout`) from one seat's observation."""
    n = obs["players"]
    me = obs["seat"]
    for s, tower in enumerate(obs["towers"]):
        for level, piece in enumerate(tower):
            out.one_hot("towers", (s * MAX_HEIGHT + level) * NUM_TYPES + PIECE_INDEX[piece])
    out.one_hot("marker", SPACE_INDEX.get(obs["marker"] or ""))
    out.one_hot("just_placed", SPACE_INDEX.get(obs["just_placed"] or ""))
    for piece, count in obs["supply"].items():
        out.set("supply", count / PIECES_PER_TYPE, PIECE_INDEX[piece])
    out.set("bag", obs["bag"] / (NUM_TYPES * TOKENS_PER_TYPE))
    out.put("progress", [obs["full_towers"] / NUM_SPACES, obs["placements"] / (NUM_SPACES * MAX_HEIGHT)])
    out.one_hot("phase", PHASES.index(obs["phase"]))
    out.one_hot("current_player", relative(obs["current_player"], me, n))
    out.one_hot("first_player", relative(obs["first_player"], me, n))
    for seat in range(n):
        slot = relative(seat, me, n)
        out.set("symbol_counts", obs["symbol_counts"][seat] / SYMBOLS_PER_PLAYER, slot)
        out.set("exchanges", len(obs["exchanges"][seat]) / 4, slot)
        out.set("orders_done", float(bool(obs["orders_done"][seat])), slot)
    out.put("variants", [obs["symbol_order"] == "manual", obs["third_symbol_exchange"] == "mandatory"])
    for symbol in obs["symbols"] or ():
        out.add("my_symbols", PIECE_INDEX[symbol], 1 / SYMBOLS_PER_PLAYER)
    if obs["drawn_symbol"]:
        out.one_hot("drawn_symbol", PIECE_INDEX[obs["drawn_symbol"]])
    out.set("can_exchange", float(obs["can_exchange"]))
    for i, symbol in enumerate(obs["best_order"] or ()):
        out.one_hot("best_order", i * NUM_TYPES + PIECE_INDEX[symbol])
    for i, symbol in enumerate(obs["order_chosen"] or ()):
        out.one_hot("order_chosen", i * NUM_TYPES + PIECE_INDEX[symbol])
    out.set("my_points", (obs["points"] or 0) / 10)
    if obs["ender"] is not None:
        out.one_hot("ender", relative(obs["ender"], me, n))
    if obs["winner"] is not None:
        out.one_hot("winner", relative(obs["winner"], me, n))
    reveal = obs["reveal"]
    if reveal is not None:
        for seat in range(n):
            base = relative(seat, me, n) * (NUM_TYPES + 1)
            for symbol in reveal["symbols"][seat]:
                out.add("reveal", base + PIECE_INDEX[symbol], 1 / SYMBOLS_PER_PLAYER)
            out.set("reveal", reveal["points"][seat] / 10, base + NUM_TYPES)


# ---------------------------------------------------------------- the fast path: straight from the state


def values_from_state(state: CapriceState, me: int, layout: TensorLayout) -> list[float]:
    """The tensor of seat ``me`` read straight from the state: equal to :func:`encode` of ``observation(me)``.

    Reads only what ``build_observation(state, me)`` shows that seat (the public board, supply, bag count, counts
    of symbols and exchanges, and its own symbols, draw and order; everyone's symbols once the game is over), without
    building the observation (nor its public log, which the tensor does not hold). The test
    ``tests/games/test_tensor_fast_path.py`` compares the two on every decision of many games, for every seat.

    Args:
        state: the position.
        me: a seat (not a spectator: :func:`encode` serves those).
        layout: ``layout(players)``.
    """
    v = [0.0] * layout.size
    fill_from_state(state, me, layout, v)
    return v


def fill_from_state(state: CapriceState, me: int, layout: TensorLayout, v: TensorBuffer) -> None:
    """Write :func:`values_from_state` into ``v``, ``layout.size`` zeros: a list or a float buffer (item writes).

    Symbols are counted in quarters (``1 / SYMBOLS_PER_PLAYER``): exact in a float32 buffer as in Python floats.
    """
    n = state.game.num_players
    o = layout.starts
    towers = o["towers"]
    for s, tower in enumerate(state.towers):
        for level, piece in enumerate(tower):
            v[towers + (s * MAX_HEIGHT + level) * NUM_TYPES + piece] = 1.0
    if state.marker >= 0:
        v[o["marker"] + state.marker] = 1.0
    if state.placed >= 0:
        v[o["just_placed"] + state.placed] = 1.0
    supply = o["supply"]
    for t, count in enumerate(state.supply):
        v[supply + t] = count / PIECES_PER_TYPE
    v[o["bag"]] = sum(state.bag) / (NUM_TYPES * TOKENS_PER_TYPE)
    p = o["progress"]
    v[p], v[p + 1] = state.full / NUM_SPACES, state.placements / (NUM_SPACES * MAX_HEIGHT)
    over = state.phase == OVER
    v[o["phase"] + state.phase] = 1.0
    v[o["current_player"] + (state.current_player() - me) % n] = 1.0
    v[o["first_player"] + (state.first - me) % n] = 1.0
    counts, exchanges, done = o["symbol_counts"], o["exchanges"], o["orders_done"]
    for seat in range(n):
        slot = (seat - me) % n
        v[counts + slot] = len(state.symbols[seat]) / SYMBOLS_PER_PLAYER
        v[exchanges + slot] = len(state.exchanges[seat]) / 4
        v[done + slot] = float(over or bool(state.orders[seat]))
    params = state.game.params
    p = o["variants"]
    v[p], v[p + 1] = float(params.symbol_order == "manual"), float(params.third_symbol_exchange == "mandatory")
    symbols = state.symbols[me]
    for symbol in symbols:
        v[o["my_symbols"] + symbol] += 1 / SYMBOLS_PER_PLAYER
    if state.phase == DRAW and state.player == me:
        v[o["drawn_symbol"] + state.drawn] = 1.0
        v[o["can_exchange"]] = float(state.can_exchange())
    points = 0
    if len(symbols) == SYMBOLS_PER_PLAYER:
        order, points = best_order(symbols, state.towers)
        for i, symbol in enumerate(order):
            v[o["best_order"] + i * NUM_TYPES + symbol] = 1.0
    if not over:
        for i, symbol in enumerate(state.orders[me]):
            v[o["order_chosen"] + i * NUM_TYPES + symbol] = 1.0
    v[o["my_points"]] = (points or 0) / 10
    if state.ender >= 0:
        v[o["ender"] + (state.ender - me) % n] = 1.0
    if over:
        v[o["winner"] + (state.winner - me) % n] = 1.0
        for seat in range(n):
            base = o["reveal"] + ((seat - me) % n) * (NUM_TYPES + 1)
            for symbol in state.symbols[seat]:
                v[base + symbol] += 1 / SYMBOLS_PER_PLAYER
            v[base + NUM_TYPES] = state.points[seat] / 10
