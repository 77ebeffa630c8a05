"""What each seat sees of a Caprice position.

Public: the towers (bottom to top), the marker, the piece placed this turn, the supply, the bag size, every
player's number of symbols and exchanges, and the log of placements and moves. Private: the seat's own symbols and
the token it is drawing. At the end every player's symbols, scored order and points are revealed.

Rules: caprice.md §4-5 (hidden symbols), §10 (reveal).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

from meeple.games.caprice.actions import Move, Place, SkipMove
from meeple.games.caprice.const import DRAW, OVER, PHASES
from meeple.games.caprice.data import PIECE_TYPES, SPACES, SYMBOLS_PER_PLAYER
from meeple.games.caprice.rules import best_order

if TYPE_CHECKING:
    from meeple.games.caprice.state import CapriceState


class Exchange(TypedDict):
    """A symbol exchange at the deal (public). Rules: caprice.md §4."""

    draw: int
    """The draw (1-4) at which the seat exchanged."""
    set_aside: int
    """Tokens set aside by that exchange."""


class Reveal(TypedDict):
    """Every seat's symbols, orders and points, revealed at the end (public then). Rules: §10."""

    symbols: list[list[str]]
    orders: list[list[str]]
    points: list[int]


class CapriceObservation(TypedDict):
    """What ``player`` may know of a Caprice position (``observation(player)``).

    Pieces and symbols are named ``"DR"``, ``"DT"``, ``"LR"``, ``"LT"`` (dark/light, round/toothed); spaces are
    ``"A"``..``"F"``. Everything is public except the fields marked *own*.
    """

    game: Literal["caprice"]
    seat: int | None
    """``player``; None for the spectator."""
    players: int
    current_player: int
    phase: Literal["draw", "place", "move", "order", "over"]
    first_player: int
    symbol_order: Literal["best", "manual"]
    """Variant flag: the engine scores each player's best order, or each player chooses."""
    third_symbol_exchange: Literal["optional", "mandatory"]
    """Variant flag: whether the exchange at the third draw is a choice."""
    spaces: list[str]
    towers: list[list[str]]
    """Per space, the pieces bottom to top."""
    marker: str | None
    """The space holding the marker, or None."""
    just_placed: str | None
    """The space of the piece placed this turn, or None."""
    supply: dict[str, int]
    """Pieces left per type."""
    bag: int
    """Symbol tokens in the bag (never which)."""
    full_towers: int
    placements: int
    symbol_counts: list[int]
    """Symbols each seat holds (never which)."""
    exchanges: list[list[Exchange]]
    log: list[list[int | str]]
    """Placements and moves: ``[seat, "place", piece, space]``, ``[seat, "move", from, to]``, ``[seat, "skip"]``."""
    symbols: list[str] | None
    """My symbols (own); None for the spectator."""
    drawn_symbol: str | None
    """The token I am drawing (own, during my draw); else None."""
    can_exchange: bool
    """Own: I may exchange the token I am drawing."""
    best_order: list[str] | None
    """Own: the engine's best order of my symbols on the current towers (once I hold them all)."""
    points: int | None
    """Own: the points of ``best_order``."""
    order_chosen: list[str] | None
    """Own: the order I chose so far (manual variant)."""
    orders_done: list[int]
    """Symbols ordered per seat."""
    ender: int | None
    """The seat that ended the game, or None."""
    winner: int | None
    """The winning seat at the end, else None."""
    reveal: Reveal | None
    """None before the end."""


def _names(codes: list[int]) -> list[str]:
    return [PIECE_TYPES[c] for c in codes]


def _log(state: CapriceState) -> list[list[int | str]]:
    """Return the public log of placements and moves.

    Entries: ``[seat, "place", piece, space]``, ``[seat, "move", from, to]``, ``[seat, "skip"]`` (a turn where
    no piece could move has no skip entry).
    """
    out: list[list[int | str]] = []
    for seat, action in state.history:
        if isinstance(action, Place):
            out.append([seat, "place", action.piece, action.space])
        elif isinstance(action, Move):
            out.append([seat, "move", action.source, action.target])
        elif isinstance(action, SkipMove):
            out.append([seat, "skip"])
    return out


def build_observation(state: CapriceState, player: int | None) -> CapriceObservation:
    """Return the JSON-able observation of ``player`` (``None`` = spectator).

    Keys: ``game``, ``seat``, ``players``, ``current_player``, ``phase``, ``first_player``, ``spaces``,
    ``towers`` (names, bottom to top), ``marker`` and ``just_placed`` (space labels or None), ``supply``
    (name -> count), ``bag`` (tokens in the bag), ``full_towers``, ``placements``, ``symbol_counts``,
    ``exchanges`` (per seat ``{"draw": 1..4, "set_aside": n}``), ``log``, ``symbols`` (own, or None),
    ``drawn_symbol`` (own token being drawn, or None), ``can_exchange``, ``best_order`` and ``points`` (own, with
    the engine's best order on the current towers), ``order_chosen`` (own chosen order, manual variant),
    ``orders_done`` (symbols ordered per seat), ``ender``, ``winner`` and ``reveal`` (None before the end; then
    ``{"symbols", "orders", "points"}`` per seat).
    """
    over = state.phase == OVER
    n = state.game.num_players
    own = player is not None and 0 <= player < n
    obs: CapriceObservation = {
        "game": "caprice",
        "seat": player,
        "players": n,
        "current_player": state.current_player(),
        "phase": PHASES[state.phase],
        "first_player": state.first,
        "symbol_order": state.game.params.symbol_order,
        "third_symbol_exchange": state.game.params.third_symbol_exchange,
        "spaces": list(SPACES),
        "towers": [_names(t) for t in state.towers],
        "marker": SPACES[state.marker] if state.marker >= 0 else None,
        "just_placed": SPACES[state.placed] if state.placed >= 0 else None,
        "supply": {PIECE_TYPES[t]: state.supply[t] for t in range(len(PIECE_TYPES))},
        "bag": sum(state.bag),
        "full_towers": state.full,
        "placements": state.placements,
        "symbol_counts": [len(s) for s in state.symbols],
        "exchanges": [[Exchange(draw=slot + 1, set_aside=aside) for slot, aside in x] for x in state.exchanges],
        "log": _log(state),
        "symbols": None,
        "drawn_symbol": None,
        "can_exchange": False,
        "best_order": None,
        "points": None,
        "order_chosen": None,
        "orders_done": [len(o) if not over else SYMBOLS_PER_PLAYER for o in state.orders],
        "ender": state.ender if state.ender >= 0 else None,
        "winner": state.winner if over else None,
        "reveal": None,
    }
    if own:
        assert player is not None
        symbols = state.symbols[player]
        obs["symbols"] = _names(symbols)
        if state.phase == DRAW and state.player == player:
            obs["drawn_symbol"] = PIECE_TYPES[state.drawn]
            obs["can_exchange"] = state.can_exchange()
        if len(symbols) == SYMBOLS_PER_PLAYER:
            order, points = best_order(symbols, state.towers)
            obs["best_order"], obs["points"] = _names(list(order)), points
        obs["order_chosen"] = _names(state.orders[player]) if not over else None
    if over:
        obs["reveal"] = {
            "symbols": [_names(s) for s in state.symbols],
            "orders": [_names(o) for o in state.orders],
            "points": list(state.points),
        }
    return obs
