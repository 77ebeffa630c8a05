"""A toy game that exercises the core mechanisms: sealed bids and a two-step decision.

Each seat holds one hidden value card (1..9) and some coins. For each lot every seat commits a sealed bid
(sequential hidden commitments); the highest bid wins (ties: earliest in the bidding order) and is paid. The winner
then decides in two steps: keep the lot, or give it away and then choose to whom (a stack of pending decisions).
A seat scores its coins plus, per lot held, the value of its own card.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from meeple.core import (
    TERMINAL,
    Action,
    ActionCodec,
    Decision,
    Game,
    GameSpec,
    Rng,
    SealedCommitments,
    State,
    game_spec,
    register_game,
    register_spec,
)
from meeple.core.params import param
from meeple.core.snapshot import expect, expect_each_once, expect_int, expect_ints
from meeple.i18n import M, Message


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int


@dataclass(frozen=True, slots=True)
class Keep(Action):
    pass


@dataclass(frozen=True, slots=True)
class Give(Action):
    pass


@dataclass(frozen=True, slots=True)
class GiveTo(Action):
    seat: int


@dataclass(frozen=True)
class ToyParams:
    players: int = param(2, "number of players", low=2, high=4)
    lots: int = param(3, "lots sold", low=1, high=20)
    coins: int = param(4, "starting coins", low=0, high=100)


@register_game
class ToyAuction(Game[ToyParams]):
    name = "toy_auction"
    title = "Toy sealed auction"
    min_players = 2
    max_players = 4
    params_type = ToyParams

    @classmethod
    def rules_summary(cls) -> str:
        return (
            "Each seat holds one hidden value card (1..9) and some coins. For each lot every seat commits a sealed "
            "bid; the highest bid wins (ties: earliest in the bidding order) and is paid. The winner keeps the lot, "
            "or gives it away and then chooses to whom. A seat scores its coins plus, per lot held, its card's value."
        )

    def _make_codec(self) -> ActionCodec:
        actions: list[Action] = [Bid(i) for i in range(self.params.coins + 1)]
        actions += [Keep(), Give()] + [GiveTo(s) for s in range(self.params.players)]
        return ActionCodec([Bid, Keep, Give, GiveTo], actions)

    def _max_game_length(self) -> int:
        return self.params.lots * (self.params.players + 2)

    def _new_state(self, seed: int) -> ToyState:
        return ToyState(self, seed)

    def _state_from_body(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState.restore(self, data)


class ToyState(State[ToyAuction]):
    def __init__(self, game: ToyAuction, seed: int) -> None:
        super().__init__(game, seed)
        n = game.num_players
        self.deck = list(range(1, 10))
        self.rng.shuffle(self.deck)
        self.cards = [self.deck.pop() for _ in range(n)]
        self.coins = [game.params.coins] * n
        self.lots = [0] * n
        self.lot = 0
        self.bids: SealedCommitments[int] = SealedCommitments([(self.lot + i) % n for i in range(n)])
        self.stack: list[Decision] = []
        self.revealed: list[list[int]] = []

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.stack:
            return self.stack[-1].player
        pending = self.bids.pending_player()
        assert pending is not None
        return pending

    def is_terminal(self) -> bool:
        return self.lot >= self.game.params.lots

    def _legal_actions(self) -> list[Action]:
        codec = self.game.codec
        if self.stack:
            top = self.stack[-1]
            if top.kind == "keep_or_give":
                return [codec.intern(Keep()), codec.intern(Give())]
            return [codec.intern(GiveTo(s)) for s in range(self.game.num_players) if s != top.player]
        return [codec.intern(Bid(i)) for i in range(self.coins[self.current_player()] + 1)]

    def _apply(self, action: Action) -> None:
        player = self.current_player()
        if isinstance(action, Bid):
            self.bids.commit(player, action.amount)
            if self.bids.is_complete():
                self._resolve()
        elif isinstance(action, Keep):
            self.stack.pop()
            self.lots[player] += 1
            self._next_lot()
        elif isinstance(action, Give):
            self.stack.pop()
            self.stack.append(Decision(player, "give_to"))
        elif isinstance(action, GiveTo):
            self.stack.pop()
            self.lots[action.seat] += 1
            self._next_lot()

    def _resolve(self) -> None:
        bids = self.bids.reveal()
        order = self.bids.order
        winner = max(order, key=lambda s: (bids[s], -order.index(s)))
        self.coins[winner] -= bids[winner]
        self.revealed.append([bids[s] for s in range(self.game.num_players)])
        self.stack.append(Decision(winner, "keep_or_give"))

    def _next_lot(self) -> None:
        self.lot += 1
        n = self.game.num_players
        self.bids = SealedCommitments([(self.lot + i) % n for i in range(n)])

    def scores(self) -> list[float]:
        return [float(self.coins[s] + self.lots[s] * self.cards[s]) for s in range(self.game.num_players)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        scores = self.scores()
        best = max(scores)
        return [1.0 if s == best else 0.0 for s in scores]

    def observation(self, player: int | None) -> dict[str, Any]:
        return {
            "seat": player,
            "my_card": self.cards[player] if player is not None else None,
            "coins": list(self.coins),
            "lots": list(self.lots),
            "lot": self.lot,
            "bids": self.bids.view(player),
            "revealed": [list(r) for r in self.revealed],
            "pending": [d.to_json() for d in self.stack],
            "current_player": self.current_player(),
        }

    def _resample(self, player: int, rng: Rng) -> ToyState:
        other = self.clone()
        assert isinstance(other, ToyState)
        seats = [s for s in range(self.game.num_players) if s != player]
        unseen = sorted(self.deck + [self.cards[s] for s in seats])
        rng.shuffle(unseen)
        for s in seats:
            other.cards[s] = unseen.pop()
        other.deck = unseen
        for s in seats:  # other seats' sealed bids are unknown too
            if s in other.bids.values:
                other.bids.values[s] = rng.randrange(self.coins[s] + 1)
        return other

    def _copy_fields(self, other: State[ToyAuction]) -> None:
        assert isinstance(other, ToyState)
        other.deck = list(self.deck)
        other.cards = list(self.cards)
        other.coins = list(self.coins)
        other.lots = list(self.lots)
        other.lot = self.lot
        other.bids = self.bids.copy()
        other.stack = list(self.stack)
        other.revealed = [list(r) for r in self.revealed]

    def _restore_body(self, body: dict[str, Any]) -> None:
        # every value through its type: a wrong type changes it, and the restore check names it
        self.deck = [int(c) for c in body["deck"]]
        self.cards = [int(c) for c in body["cards"]]
        self.coins = [int(c) for c in body["coins"]]
        self.lots = [int(c) for c in body["lots"]]
        self.lot = int(body["lot"])
        self.bids = SealedCommitments.from_json(body["bids"], int)
        self.stack = [Decision.from_json(d) for d in body["stack"]]
        self.revealed = [[int(b) for b in r] for r in body["revealed"]]

    def check_consistency(self) -> None:
        n = self.game.num_players
        expect_each_once({"body.deck": self.deck, "body.cards": self.cards}, range(1, 10), "value card")
        expect(len(self.cards) == n and len(self.coins) == n and len(self.lots) == n, "body.cards", "one per seat")
        expect_ints(self.coins, "body.coins", 0, self.game.params.coins * n)
        expect_int(self.lot, "body.lot", 0, self.game.params.lots)
        expect(sum(self.lots) == len(self.revealed) - (1 if self.stack else 0), "body.lots", "one per lot sold")
        for d in self.stack:
            expect(d.kind in ("keep_or_give", "give_to") and 0 <= d.player < n and not d.data, "body.stack", "decision")

    def _body_to_json(self) -> dict[str, Any]:
        return {
            "deck": list(self.deck),
            "cards": list(self.cards),
            "coins": list(self.coins),
            "lots": list(self.lots),
            "lot": self.lot,
            "bids": self.bids.to_json(),
            "stack": [d.to_json() for d in self.stack],
            "revealed": [list(r) for r in self.revealed],
        }

    def _describe(self, action: Action, actor: int, perspective: int | None) -> Message:
        if isinstance(action, Bid):
            if perspective is not None and perspective != actor:
                return M("seal a bid")
            return M("bid {amount}", amount=action.amount)
        if isinstance(action, Keep):
            return M("keep the lot")
        if isinstance(action, Give):
            return M("give the lot away")
        if isinstance(action, GiveTo):
            return M("give the lot to seat {seat}", seat=action.seat)
        raise TypeError(action)


SPEC = register_spec(GameSpec("toy_auction"))
"""The toy game declares no companion; tests give it some with :func:`toy_companions`."""


@contextmanager
def toy_companions(**companions: Any) -> Iterator[GameSpec]:
    """Give the toy game companions (``heuristic_bot="module:Class"``...) for the duration of a ``with`` block."""
    old = game_spec("toy_auction")
    new = register_spec(replace(old, **companions))
    try:
        yield new
    finally:
        register_spec(old)
