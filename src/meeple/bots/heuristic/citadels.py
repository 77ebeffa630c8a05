"""A greedy Citadels player that reads only its seat's observation and legal actions.

It picks the character that suits its situation (income colours, gold, hand, threats), takes gold or cards as its
hand needs, builds the best affordable district (income taken before building when it pays for a better district,
after building when the new district adds to it), and uses every power: the Assassin and the Thief aim at the
characters the leaders and the rich are likely to hold, the Magician swaps with a fuller hand or recycles useless
cards, the Warlord hits the leader cheaply, the Laboratory turns duplicates into gold, the Smithy refills an empty
hand, the Graveyard saves what it can.

Rules: citadels.md §5.2 (every power it uses is legal there; the bot never sees hidden state).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.view import SeatView
from meeple.games.citadels.actions import (
    Assassinate,
    BuildDistrict,
    ConfirmExchange,
    DeclineDestroy,
    DeclineRecover,
    DestroyDistrict,
    DiscardCharacter,
    DiscardForGold,
    DrawCards,
    EndTurn,
    ExchangeCards,
    KeepCard,
    PickCharacter,
    RecoverDistrict,
    Rob,
    SelectCard,
    SwapHands,
    TakeGold,
    TakeIncome,
    UseSmithy,
)
from meeple.games.citadels.data import (
    ARCHITECT,
    ASSASSIN,
    BISHOP,
    CHARACTER_COLOUR,
    COLOURS,
    KIND_COLOUR,
    KIND_COST,
    KIND_SCORE,
    KING,
    MAGICIAN,
    MERCHANT,
    PURPLE,
    THIEF,
    WARLORD,
)
from meeple.games.citadels.observation import CitadelsObservation, District, PublicSeat

Obs = CitadelsObservation


def _seat(obs: Obs) -> int:
    """The bot's own seat (a bot never plays the spectator's view)."""
    seat = obs["seat"]
    assert seat is not None
    return seat


A = TypeVar("A", bound=Action)


def _of(legal: list[Action], cls: type[A]) -> list[A]:
    return [a for a in legal if isinstance(a, cls)]


class CitadelsHeuristicBot(Bot):
    """The ``heuristic`` Citadels bot (seeded only to break exact ties at random)."""

    name = "heuristic"

    def select_action(self, view: SeatView) -> Action:
        """Return the greedy choice among ``view.legal_actions()``.

        Raises:
            ValueError: it is not this seat's turn (no legal action).
        """
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        if len(legal) == 1:
            return legal[0]
        obs = cast(CitadelsObservation, view.observation())  # this bot plays Citadels only
        for chooser in self._choosers():
            choice = chooser(obs, legal)
            if choice is not None:
                return choice
        return legal[0]

    def _choosers(self) -> tuple[Callable[[Obs, list[Action]], Action | None], ...]:
        return (
            self._draft,
            self._pending,
            self._power_first,
            self._mandatory,
            self._build_and_income,
            self._extras,
            self._end,
        )

    # ----------------------------------------------------------------- helpers
    @staticmethod
    def _me(obs: Obs) -> PublicSeat:
        seat = obs["seats"][_seat(obs)]
        return seat

    @staticmethod
    def _city_kinds(obs: Obs, seat: int) -> set[int]:
        return {d["kind"] for d in obs["seats"][seat]["city"]}

    @staticmethod
    def _leader(obs: Obs) -> int:
        """The other seat with the biggest city (then the most gold)."""
        others = [s for s in obs["seats"] if s["seat"] != obs["seat"]]
        best = max(others, key=lambda s: (s["city_size"], sum(d["score"] for d in s["city"]), s["gold"]))
        return int(best["seat"])

    def _useful_hand(self, obs: Obs) -> list[District]:
        city = self._city_kinds(obs, _seat(obs))
        return [d for d in obs["hand"] or [] if d["kind"] not in city]

    # ----------------------------------------------------------------- draft
    def _character_value(self, obs: Obs, c: int) -> float:
        me = self._me(obs)
        colours = [d["colour"] for d in me["city"]]
        useful = self._useful_hand(obs)
        gold, size, threshold = me["gold"], me["city_size"], obs["threshold"]
        others = [s for s in obs["seats"] if s["seat"] != obs["seat"]]
        richest = max((s["gold"] for s in others), default=0)
        leader_size = max((s["city_size"] for s in others), default=0)
        value = 0.0
        colour = CHARACTER_COLOUR[c]
        if colour >= 0:
            value += colours.count(COLOURS[colour]) + 0.5 * sum(
                1 for d in useful if d["kind"] >= 0 and KIND_COLOUR[d["kind"]] == colour
            )
        if c == ASSASSIN:
            value += 1.5 + (1.0 if leader_size >= threshold - 2 else 0.0)
        elif c == THIEF:
            value += 0.5 + richest / 3
        elif c == MAGICIAN:
            fullest = max((s["hand_size"] for s in others), default=0)
            value += 0.5 + (max(0, fullest - len(obs["hand"] or [])) / 1.5 if not useful else 0.0)
        elif c == KING:
            value += 1.2
        elif c == BISHOP:
            value += 0.5 + (1.5 if size >= threshold - 3 else 0.0)
        elif c == MERCHANT:
            value += 1.5
        elif c == ARCHITECT:
            value += 0.5 + (2.0 if gold >= 4 and useful else 0.0) + (1.0 if not useful else 0.0)
        elif c == WARLORD:
            value += 0.8 + (1.0 if leader_size >= threshold - 2 else 0.0)
        return float(value + self.rng.random() * 0.1)

    def _draft(self, obs: Obs, legal: list[Action]) -> Action | None:
        picks = _of(legal, PickCharacter)
        if picks:
            return max(picks, key=lambda a: self._character_value(obs, a.character))
        discards = _of(legal, DiscardCharacter)
        if discards:
            return min(discards, key=lambda a: self._character_value(obs, a.character))
        return None

    # ----------------------------------------------------------------- decisions
    def _card_value(self, obs: Obs, kind: int, char: int | None) -> float:
        me = self._me(obs)
        if kind in self._city_kinds(obs, _seat(obs)):
            return -10.0
        cost = KIND_COST[kind]
        value = float(KIND_SCORE[kind] - 0.6 * max(0, cost - int(me["gold"]) - 2))
        if KIND_COLOUR[kind] == PURPLE:
            value += 1.0
        if char is not None and CHARACTER_COLOUR[char] == KIND_COLOUR[kind]:
            value += 1.0
        return value

    def _pending(self, obs: Obs, legal: list[Action]) -> Action | None:
        pending = obs.get("pending")
        if not pending:
            return None
        turn = obs["turn"]
        char = turn["character"] if turn else None
        kind = pending["kind"]
        if kind == "keep_card":
            keeps = _of(legal, KeepCard)
            return max(keeps, key=lambda a: self._card_value(obs, a.kind, char)) if keeps else None
        if kind == "exchange":
            return self._exchange(obs, legal)
        if kind == "destroy":
            return self._destroy(obs, legal)
        if kind == "graveyard":
            recover = _of(legal, RecoverDistrict)
            if recover and self._me(obs)["gold"] >= 2:
                return recover[0]
            return _of(legal, DeclineRecover)[0] if _of(legal, DeclineRecover) else None
        return None

    def _useless_kinds(self, obs: Obs) -> set[int]:
        me = self._me(obs)
        city = self._city_kinds(obs, _seat(obs))
        return {d["kind"] for d in obs["hand"] or [] if d["kind"] in city or d["cost"] > me["gold"] + 5}

    def _exchange(self, obs: Obs, legal: list[Action]) -> Action | None:
        useless = self._useless_kinds(obs)
        for a in _of(legal, SelectCard):
            if a.kind in useless:
                return a
        confirm = _of(legal, ConfirmExchange)
        return confirm[0] if confirm else None

    def _destroy(self, obs: Obs, legal: list[Action]) -> Action | None:
        gold = self._me(obs)["gold"]
        leader = self._leader(obs)
        targets = [a for a in _of(legal, DestroyDistrict) if a.seat == leader]
        affordable = [a for a in targets if KIND_COST[a.kind] - 1 <= max(0, gold - 1)]
        leader_size = obs["seats"][leader]["city_size"]
        if affordable and (leader_size >= obs["threshold"] - 3 or any(KIND_COST[a.kind] == 1 for a in affordable)):
            return max(affordable, key=lambda a: KIND_SCORE[a.kind] - (KIND_COST[a.kind] - 1))
        decline = _of(legal, DeclineDestroy)
        return decline[0] if decline else None

    # ----------------------------------------------------------------- turn
    def _likely_target(self, obs: Obs, priority: tuple[int, ...], exclude: set[int]) -> int | None:
        chars = obs["characters"]
        excluded = set(chars["faceup"]) | set(obs["my_characters"]) | set(obs["my_discarded"]) | exclude
        for c in priority:
            if c not in excluded and c in chars["in_round"]:
                return c
        return None

    def _power_first(self, obs: Obs, legal: list[Action]) -> Action | None:
        kills = _of(legal, Assassinate)
        if kills:
            leader = obs["seats"][self._leader(obs)]
            near_end = leader["city_size"] >= obs["threshold"] - 2
            priority = (
                (ARCHITECT, BISHOP, KING, MERCHANT, WARLORD) if near_end else (MERCHANT, KING, ARCHITECT, WARLORD)
            )
            target = self._likely_target(obs, priority, set())
            for a in kills:
                if a.character == target:
                    return a
        robs = _of(legal, Rob)
        if robs:
            killed = obs["characters"]["assassinated"]
            rich = (MERCHANT, KING, ARCHITECT, BISHOP, WARLORD)
            target = self._likely_target(obs, rich, {killed} if killed else set())
            for rob in robs:
                if rob.character == target:
                    return rob
        swaps = _of(legal, SwapHands)
        if swaps:
            mine = len(obs["hand"] or [])
            best = max(swaps, key=lambda a: obs["seats"][a.seat]["hand_size"])
            if obs["seats"][best.seat]["hand_size"] >= mine + 2 and not self._useful_hand(obs):
                return best
        if _of(legal, ExchangeCards) and self._useless_kinds(obs) and (turn := obs["turn"]) and turn["action_taken"]:
            return _of(legal, ExchangeCards)[0]
        return None

    def _mandatory(self, obs: Obs, legal: list[Action]) -> Action | None:
        gold, draw = _of(legal, TakeGold), _of(legal, DrawCards)
        if not gold and not draw:
            return None
        if not draw:
            return gold[0]
        if not gold:
            return draw[0]
        useful = self._useful_hand(obs)
        me = self._me(obs)
        if not useful or (len(useful) == 1 and me["gold"] >= useful[0]["cost"] + 2):
            return draw[0]
        return gold[0]

    def _build_and_income(self, obs: Obs, legal: list[Action]) -> Action | None:
        builds = _of(legal, BuildDistrict)
        income = _of(legal, TakeIncome)
        turn = obs["turn"]
        char = turn["character"] if turn else None
        if builds:
            best = max(builds, key=lambda a: self._card_value(obs, a.kind, char))
            if income and char is not None and CHARACTER_COLOUR[char] != KIND_COLOUR[best.kind]:
                return income[0]  # income now may pay for more; the new district would not add to it
            return best
        if income:
            return income[0]
        return None

    def _extras(self, obs: Obs, legal: list[Action]) -> Action | None:
        useless = self._useless_kinds(obs)
        for a in _of(legal, DiscardForGold):
            if a.kind in useless:
                return a
        smithy = _of(legal, UseSmithy)
        if smithy and self._me(obs)["gold"] >= 5 and not self._useful_hand(obs):
            return smithy[0]
        return None

    def _end(self, obs: Obs, legal: list[Action]) -> Action | None:
        end = _of(legal, EndTurn)
        return end[0] if end else None
