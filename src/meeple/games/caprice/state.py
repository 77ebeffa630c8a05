"""The state of a game of Caprice.

Pieces and symbols are type codes 0..3 (DR, DT, LR, LT); spaces are indices 0..5 (A..F). A turn is a placement
(phase "place") and then, if any piece may move, the optional move (phase "move"). Under
``third_symbol_exchange="optional"`` the setup has a "draw" phase: every third and fourth draw of a player is a
decision of that player (keep the token, or exchange it when it is a third copy), so the other seats cannot tell
a third copy from any other draw. Under ``symbol_order="manual"`` an "order" phase follows the end of play.

Rules: caprice.md §4-14.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.rng import Rng
from meeple.core.snapshot import expect, expect_int, expect_ints
from meeple.core.state import TERMINAL, State
from meeple.games.caprice.actions import ExchangeSymbol, KeepSymbol, Move, OrderSymbol, Place, SkipMove
from meeple.games.caprice.data import (
    MAX_HEIGHT,
    NUM_SPACES,
    NUM_TYPES,
    PIECE_INDEX,
    PIECE_TYPES,
    PIECES_PER_TYPE,
    SPACE_INDEX,
    SPACES,
    SYMBOLS_PER_PLAYER,
    TOKENS_PER_TYPE,
    TOWERS_TO_END,
)
from meeple.games.caprice.describe import describe
from meeple.games.caprice.hidden import draw_seat, resample_symbols
from meeple.games.caprice.rules import best_order, order_points, tie_break_winner
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.caprice.game import CapriceGame
    from meeple.games.caprice.observation import CapriceObservation

from meeple.games.caprice.const import (
    DRAW,
    MOVE,
    ORDER,
    OVER,
    PHASES,
    PLACE,
)
from meeple.games.caprice.observation import build_observation
from meeple.games.caprice.why import why_illegal


class CapriceState(State["CapriceGame"]):
    """A position of Caprice.

    Attributes:
        towers: per space, its pieces bottom to top (type codes).
        supply: pieces left in the supply, per type.
        bag: symbol tokens in the bag, per type (set-aside tokens are back in it).
        symbols: per seat, the kept symbol tokens in draw order (hidden from the other seats until the end).
        exchanges: per seat, public ``[slot, tokens set aside]`` records of its exchanges (slot 0..3).
        phase: DRAW, PLACE, MOVE, ORDER or OVER.
        player: the seat to move.
        first: the first player.
        draws: completed draws of the setup.
        drawn: the token the drawing seat is looking at (phase DRAW), else -1.
        placed: the space of the piece placed this turn (phase MOVE), else -1.
        marker: the space whose top piece carries the red marker, or -1.
        full: the number of towers of height 4.
        placements: pieces placed so far.
        ender: the seat whose placement or move ended the game, or -1.
        orders: per seat, the chosen order (phase ORDER: the part chosen so far; at the end: the scored order).
        points: final points per seat (empty before the end).
        winner: the winning seat, or -1 before the end.
    """

    @classmethod
    def _empty(cls, game: CapriceGame) -> CapriceState:
        """An instance with no field set, for ``clone``/``restore`` (works compiled with mypyc too; core.State)."""
        return cls(game, 0, blank=True)

    def __init__(self, game: CapriceGame, seed: int, *, blank: bool = False) -> None:
        if blank:  # clone() and restore() set every field (see _empty)
            return
        super().__init__(game, seed)
        n = game.num_players
        self.towers: list[list[int]] = [[] for _ in range(NUM_SPACES)]
        self.supply: list[int] = [PIECES_PER_TYPE] * NUM_TYPES
        self.bag: list[int] = [TOKENS_PER_TYPE] * NUM_TYPES
        self.symbols: list[list[int]] = [[] for _ in range(n)]
        self.exchanges: list[list[list[int]]] = [[] for _ in range(n)]
        fp = game.params.first_player
        self.first: int = fp if fp >= 0 else self.rng.randrange(n)
        self.phase: int = DRAW
        self.player: int = self.first
        self.draws: int = 0
        self.drawn: int = -1
        self.placed: int = -1
        self.marker: int = -1
        self.full: int = 0
        self.placements: int = 0
        self.ender: int = -1
        self.orders: list[list[int]] = [[] for _ in range(n)]
        self.points: list[int] = []
        self.winner: int = -1
        self._run_draws()

    # ------------------------------------------------------------------ setup (§4-5)
    def _draw_token(self) -> int:
        bag = self.bag
        r = self.rng.randrange(sum(bag))
        for t in range(NUM_TYPES):
            if r < bag[t]:
                bag[t] -= 1
                return t
            r -= bag[t]
        raise AssertionError("empty bag")  # pragma: no cover

    def _run_draws(self) -> None:
        """Draw tokens in turn order until a draw needs a decision or everyone holds 4 (§4)."""
        n = self.game.num_players
        optional = self.game.params.third_symbol_exchange == "optional"
        while self.draws < SYMBOLS_PER_PLAYER * n:
            seat, slot = draw_seat(self.draws, self.first, n)
            token = self._draw_token()
            if optional and slot >= 2:
                self.phase, self.player, self.drawn = DRAW, seat, token
                return
            third = not optional and self.symbols[seat].count(token) >= 2
            self._receive(seat, slot, token, third)
        self.phase, self.player, self.drawn = PLACE, self.first, -1

    def _receive(self, seat: int, slot: int, token: int, exchange: bool) -> None:
        """Give ``token`` to ``seat``, or set it aside, draw until another symbol comes and return them (§5).

        Set-aside tokens go back into the bag right after that redraw (docs/decisions.md "Caprice").
        """
        if exchange:
            aside = 1
            new = self._draw_token()
            while new == token:
                aside += 1
                new = self._draw_token()
            self.bag[token] += aside
            self.exchanges[seat].append([slot, aside])
            token = new
        self.symbols[seat].append(token)
        self.draws += 1

    def can_exchange(self) -> bool:
        """Return True if the drawn token is a copy of a symbol the drawer already holds twice (§5)."""
        return self.drawn >= 0 and self.symbols[self.player].count(self.drawn) >= 2

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        """Return the seat to move, or TERMINAL."""
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        """Return True once the game is over (and, under manual order, every order is chosen)."""
        return self.phase == OVER

    def _legal_actions(self) -> list[Action]:
        game = self.game
        phase = self.phase
        towers = self.towers
        if phase == PLACE:
            open_spaces = [s for s in range(NUM_SPACES) if len(towers[s]) < MAX_HEIGHT]
            table = game.place_table
            return [table[p][s] for p in range(NUM_TYPES) if self.supply[p] for s in open_spaces]
        if phase == MOVE:
            return [game.skip_action, *self._moves()]
        if phase == DRAW:
            if self.can_exchange():
                return [game.keep_action, game.exchange_action]
            return [game.keep_action]
        remaining = self._unordered(self.player)
        return [game.order_table[t] for t in sorted(set(remaining))]

    def _why_illegal(self, action: Action) -> Message | None:
        """A move refused by the rules, in words (``why.py``; §5-§10)."""
        return why_illegal(self, action)

    def _moves(self) -> list[Action]:
        """Return the legal moves (§7): a top piece not placed this turn, not marked, onto another open space."""
        towers = self.towers
        table = self.game.move_table
        placed, marker = self.placed, self.marker
        open_spaces = [d for d in range(NUM_SPACES) if len(towers[d]) < MAX_HEIGHT]
        out: list[Action] = []
        for src in range(NUM_SPACES):
            if towers[src] and src != placed and src != marker:
                row = table[src]
                out += [row[d] for d in open_spaces if d != src]
        return out

    def _apply(self, action: Action) -> None:
        match action:
            case Place(piece=piece, space=space):
                self._place(PIECE_INDEX[piece], SPACE_INDEX[space])
            case Move(source=source, target=target):
                self._move(SPACE_INDEX[source], SPACE_INDEX[target])
            case SkipMove():
                self._next_turn()
            case KeepSymbol() | ExchangeSymbol():
                seat, slot = draw_seat(self.draws, self.first, self.game.num_players)
                token, self.drawn = self.drawn, -1
                self._receive(seat, slot, token, isinstance(action, ExchangeSymbol))
                self._run_draws()
            case OrderSymbol(symbol=symbol):
                self._order(PIECE_INDEX[symbol])
            case _:
                raise AssertionError(f"not a Caprice action: {action!r}")

    def _place(self, piece: int, space: int) -> None:
        """Place a piece (§6); the marker comes off that tower (§8); the end is checked (§9)."""
        tower = self.towers[space]
        tower.append(piece)
        self.supply[piece] -= 1
        self.placements += 1
        if self.marker == space:
            self.marker = -1
        if len(tower) == MAX_HEIGHT:
            self.full += 1
            if self.full >= TOWERS_TO_END:
                self._end()
                return
        self.placed = space
        self.phase = MOVE
        if not self._any_move():  # §7: the move is optional, and here impossible
            self._event(self.player, M("no piece can move: the turn passes"))
            self._next_turn()

    def _any_move(self) -> bool:
        towers = self.towers
        open_count = sum(1 for t in towers if len(t) < MAX_HEIGHT)
        for src in range(NUM_SPACES):
            if towers[src] and src != self.placed and src != self.marker:
                if open_count - (1 if len(towers[src]) < MAX_HEIGHT else 0) > 0:
                    return True
        return False

    def _move(self, src: int, dst: int) -> None:
        """Move a top piece (§7); the marker goes on it (§8); the end is checked (§9)."""
        source = self.towers[src]
        if len(source) == MAX_HEIGHT:
            self.full -= 1
        target = self.towers[dst]
        target.append(source.pop())
        self.marker = dst
        if len(target) == MAX_HEIGHT:
            self.full += 1
            if self.full >= TOWERS_TO_END:
                self._end()
                return
        self._next_turn()

    def _next_turn(self) -> None:
        self.placed = -1
        self.phase = PLACE
        self.player = (self.player + 1) % self.game.num_players

    def _end(self) -> None:
        """The game ends at once (§9): score, or let every player choose an order first (manual variant)."""
        self.ender = self.player
        self.placed = -1
        if self.game.params.symbol_order == "manual":
            self.phase = ORDER
            self.player = (self.ender + 1) % self.game.num_players
            self._next_orderer()
        else:
            self._finish()

    def _unordered(self, seat: int) -> list[int]:
        remaining = list(self.symbols[seat])
        for t in self.orders[seat]:
            remaining.remove(t)
        return remaining

    def _order(self, symbol: int) -> None:
        self.orders[self.player].append(symbol)
        self._next_orderer()

    def _next_orderer(self) -> None:
        """Fill in the forced last symbol and pass to the next seat after the ender that has not ordered.

        Every player makes exactly three choices (even when they are forced), so the number of decisions does not
        reveal a hand of identical symbols.
        """
        n = self.game.num_players
        for _ in range(n + 1):
            order = self.orders[self.player]
            if len(order) < SYMBOLS_PER_PLAYER - 1:
                return
            if len(order) == SYMBOLS_PER_PLAYER - 1:
                order.extend(self._unordered(self.player))
            if all(len(o) == SYMBOLS_PER_PLAYER for o in self.orders):
                self._finish()
                return
            self.player = (self.player + 1) % n
        raise AssertionError("no seat left to order")  # pragma: no cover

    def _finish(self) -> None:
        """Score every player (§10-13) and find the winner (§14)."""
        n = self.game.num_players
        if self.game.params.symbol_order == "best":
            results = [best_order(self.symbols[s], self.towers) for s in range(n)]
            self.orders = [list(o) for o, _ in results]
            self.points = [p for _, p in results]
        else:
            self.points = [order_points(self.orders[s], self.towers) for s in range(n)]
        self.winner = tie_break_winner(self.points, self.ender)
        self.phase = OVER

    def returns(self) -> list[float]:
        """Return 1.0 for the winner (ties are always broken, §14), 0.0 for the others; all 0.0 before the end."""
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        return [1.0 if s == self.winner else 0.0 for s in range(n)]

    def scores(self) -> list[float]:
        """Return the final points per seat; all 0.0 before the end (the symbols are hidden until then)."""
        if self.phase != OVER:
            return [0.0] * self.game.num_players
        return [float(p) for p in self.points]

    def shown_key(self, player: int) -> Hashable:
        """What chance and hidden choices have shown ``player`` (``State.shown_key``; caprice.md §4-5, §7).

        Only the symbol tokens are hidden: they are drawn (and exchanged) before play and shown at the final
        scoring. Its parts: whether play or the ordering of the symbols has begun (orders are hidden until the
        scoring), the draws made, the tokens left in the bag, the orders' lengths and the final points; the
        pieces' placements and moves are public and show nothing (nor does "no piece can move: the turn passes").
        """
        stage = PLACE if self.phase == MOVE else self.phase  # place and move alternate: one stage
        orders = tuple(len(order) for order in self.orders)
        return (stage, self.draws, sum(self.bag), orders, tuple(self.points))

    def observation(self, player: int | None) -> CapriceObservation:
        """Return what ``player`` may see (see :func:`meeple.games.caprice.observation.build_observation`)."""
        return build_observation(self, player)

    # ------------------------------------------------------------------ hidden information
    def _resample(self, player: int, rng: Rng) -> CapriceState:
        other = self.clone()
        assert isinstance(other, CapriceState)
        if self.phase == OVER:
            return other  # everything is revealed
        n = self.game.num_players
        own_pending = self.drawn if self.phase == DRAW and self.player == player else -1
        other_pending = self.phase == DRAW and self.player != player
        hands, pending, bag = resample_symbols(
            player,
            self.symbols[player],
            own_pending,
            other_pending,
            self.draws,
            self.first,
            n,
            self.exchanges,
            self.game.params.third_symbol_exchange == "mandatory",
            rng,
        )
        other.symbols = hands
        other.bag = bag
        if self.phase == DRAW:
            other.drawn = pending
        if self.phase == ORDER:
            for s in range(n):
                if s != player and self.orders[s]:
                    shuffled = list(hands[s])
                    rng.shuffle(shuffled)
                    other.orders[s] = shuffled[: len(self.orders[s])]
        return other

    def _copy_fields(self, other: State[CapriceGame]) -> None:
        assert isinstance(other, CapriceState)
        other.towers = [list(t) for t in self.towers]
        other.supply = list(self.supply)
        other.bag = list(self.bag)
        other.symbols = [list(s) for s in self.symbols]
        other.exchanges = [[list(e) for e in x] for x in self.exchanges]
        other.first = self.first
        other.phase = self.phase
        other.player = self.player
        other.draws = self.draws
        other.drawn = self.drawn
        other.placed = self.placed
        other.marker = self.marker
        other.full = self.full
        other.placements = self.placements
        other.ender = self.ender
        other.orders = [list(o) for o in self.orders]
        other.points = list(self.points)
        other.winner = self.winner

    def _body_to_json(self) -> dict[str, Any]:
        return {
            "towers": [list(t) for t in self.towers],
            "supply": list(self.supply),
            "bag": list(self.bag),
            "symbols": [list(s) for s in self.symbols],
            "exchanges": [[list(e) for e in x] for x in self.exchanges],
            "first": self.first,
            "phase": PHASES[self.phase],
            "player": self.player,
            "draws": self.draws,
            "drawn": self.drawn,
            "placed": self.placed,
            "marker": self.marker,
            "placements": self.placements,
            "ender": self.ender,
            "orders": [list(o) for o in self.orders],
            "points": list(self.points),
            "winner": self.winner,
        }

    def _restore_body(self, body: dict[str, Any]) -> None:
        self.towers = [[int(p) for p in t] for t in body["towers"]]
        self.supply = [int(c) for c in body["supply"]]
        self.bag = [int(c) for c in body["bag"]]
        self.symbols = [[int(t) for t in s] for s in body["symbols"]]
        self.exchanges = [[[int(v) for v in e] for e in x] for x in body["exchanges"]]
        self.first = int(body["first"])
        self.phase = PHASES.index(body["phase"])
        self.player = int(body["player"])
        self.draws = int(body["draws"])
        self.drawn = int(body["drawn"])
        self.placed = int(body["placed"])
        self.marker = int(body["marker"])
        self.full = sum(1 for t in self.towers if len(t) == MAX_HEIGHT)
        self.placements = int(body["placements"])
        self.ender = int(body["ender"])
        self.orders = [[int(t) for t in o] for o in body["orders"]]
        self.points = [int(p) for p in body["points"]]
        self.winner = int(body["winner"])

    def check_consistency(self) -> None:
        """Check a restored position: every piece and symbol token exactly once, heights and indices in range.

        Raises:
            InvalidStateError: the first broken invariant, naming the body field.

        Rules: caprice.md §3 (24 pieces, 6 per type; 20 symbol tokens, 5 per type; towers of at most 4 pieces).
        """
        n = self.game.num_players
        expect(len(self.towers) == NUM_SPACES, "body.towers", f"one tower a space ({NUM_SPACES})")
        for name in ("symbols", "exchanges", "orders"):
            expect(len(getattr(self, name)) == n, f"body.{name}", f"one entry per seat ({n})")
        expect_int(self.phase, "body.phase", DRAW, OVER)
        expect_int(self.player, "body.player", 0, n - 1)
        expect_int(self.first, "body.first", 0, n - 1)
        if self.phase == DRAW:
            expect_int(self.drawn, "body.drawn", 0, NUM_TYPES - 1)
        else:
            expect(self.drawn == -1, "body.drawn", "-1 outside the draw phase")
        expect_int(self.placed, "body.placed", -1, NUM_SPACES - 1)
        expect_int(self.marker, "body.marker", -1, NUM_SPACES - 1)
        expect_int(self.ender, "body.ender", -1, n - 1)
        expect_int(self.winner, "body.winner", -1, n - 1)
        expect_int(self.draws, "body.draws", 0, SYMBOLS_PER_PLAYER * n)
        expect(len(self.points) in (0, n), "body.points", f"empty, or one entry per seat ({n})")
        pieces = [0] * NUM_TYPES
        for i, tower in enumerate(self.towers):
            expect(len(tower) <= MAX_HEIGHT, f"body.towers[{i}]", f"at most {MAX_HEIGHT} pieces")
            expect_ints(tower, f"body.towers[{i}]", 0, NUM_TYPES - 1)
            for p in tower:
                pieces[p] += 1
        expect(sum(pieces) == self.placements, "body.placements", f"the pieces on the board ({sum(pieces)})")
        tokens = [0] * NUM_TYPES
        if self.drawn >= 0:
            tokens[self.drawn] += 1
        for s, held in enumerate(self.symbols):
            expect(len(held) <= SYMBOLS_PER_PLAYER, f"body.symbols[{s}]", f"at most {SYMBOLS_PER_PLAYER} tokens")
            expect_ints(held, f"body.symbols[{s}]", 0, NUM_TYPES - 1)
            for t in held:
                tokens[t] += 1
        for t in range(NUM_TYPES):
            expect_int(self.supply[t], f"body.supply[{t}]", 0, PIECES_PER_TYPE)
            expect(self.supply[t] + pieces[t] == PIECES_PER_TYPE, f"body.supply[{t}]", "with the board: 6 pieces")
            expect_int(self.bag[t], f"body.bag[{t}]", 0, TOKENS_PER_TYPE)
            expect(self.bag[t] + tokens[t] == TOKENS_PER_TYPE, f"body.bag[{t}]", "with the symbols held: 5 tokens")

    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        return describe(action, actor, perspective)

    # ------------------------------------------------------------------ helpers for tests and tools
    def tower_names(self) -> list[list[str]]:
        """Return the towers as piece names, bottom to top, in space order A..F."""
        return [[PIECE_TYPES[p] for p in t] for t in self.towers]

    def space_name(self, space: int) -> str | None:
        """Return the label of a space index, or None for -1."""
        return SPACES[space] if space >= 0 else None
