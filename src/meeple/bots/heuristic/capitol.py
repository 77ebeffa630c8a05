"""A greedy Capitol bot: tall buildings where majorities can be won, bids worth the tile, draws by need.

It reads only ``view.observation()``, ``view.legal_actions()`` and Capitol's static data and pure rule functions.
Rules: capitol.md §5.2.
"""

from __future__ import annotations

from typing import cast

from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.view import SeatView
from meeple.games.capitol.actions import (
    AddToBid,
    DrawCard,
    Pass,
    PlaceBuilding,
    PlaceFloor,
    PlaceRoof,
    PlaceTile,
    PlayCard,
    SealBid,
)
from meeple.games.capitol.data import CARD_COLOUR, CARD_REP, CARD_TYPE, CARD_VALUE, COLOURS, FLOOR, PERMIT, ROOF
from meeple.games.capitol.observation import CapitolObservation, PlayerInfo
from meeple.games.capitol.rules import amphitheatre_bonus, permit_allows, score_zone

_ROOF_ID = {"none": 0, "round": 1, "triangular": 2}
_CARD_POINT = 0.6
"""Rough worth of one extra card in points (for amphitheatre bonuses)."""
_BID_PER_POINT = 2.2
"""Card value the bot is ready to bid per point a tile is expected to bring."""


def _seat(obs: CapitolObservation) -> int:
    """The bot's own seat (a bot never plays the spectator's view)."""
    seat = obs["seat"]
    assert seat is not None
    return seat


def _hand(obs: CapitolObservation) -> list[int]:
    """The bot's own hand (a seat's observation always has it)."""
    hand = obs["hand"]
    assert hand is not None
    return hand


def _offboard(me: PlayerInfo) -> list[tuple[int, str]]:
    """A seat's off-board buildings as ``(floors, roof short name)`` pairs."""
    return [(int(h), str(r)) for h, r in me["offboard"]]


class _Board:
    """The board of an observation as arrays (zone-major), with scoring what-ifs."""

    def __init__(self, obs: CapitolObservation) -> None:
        self.obs = obs
        self.me: int = _seat(obs)
        self.n = len(obs["players"])
        zones = obs["zones"]
        self.colours = [COLOURS.index(z["colour"]) for z in zones]
        self.roofs = [_ROOF_ID[z["roof"]] for z in zones]
        self.free: list[int] = [int(z["free"]) for z in zones]
        self.fountains: list[int] = [int(z["printed_fountains"] + z["fountain_tiles"]) for z in zones]
        self.large: list[str] = [str(z["large"]) for z in zones]
        self.floors: list[list[int]] = [[int(f) for f in z["floors"]] for z in zones]
        self.tall = [[0] * self.n for _ in zones]
        self.top = [0] * len(zones)
        for i, z in enumerate(zones):
            for owner, h in z["buildings"]:
                self.tall[i][owner] = max(self.tall[i][owner], h)
                self.top[i] = max(self.top[i], h)
        self.scorings_left: int = 5 - int(obs["round"])

    def relative(self, points: list[int]) -> float:
        """My points minus the best other seat's (a zero-sum-ish view of a zone)."""
        others = [p for s, p in enumerate(points) if s != self.me]
        return points[self.me] - (max(others) if others else 0) * 0.7

    def zone_value(self, z: int, floors: list[int], tall: list[int], fountains: int, temple: bool) -> float:
        return self.relative(score_zone(floors, tall, fountains, temple))

    def current(self, z: int) -> float:
        return self.zone_value(z, self.floors[z], self.tall[z], self.fountains[z], self.large[z] == "temple")

    def placement_gain(self, z: int, h: int) -> float:
        floors = list(self.floors[z])
        tall = list(self.tall[z])
        floors[self.me] += h
        tall[self.me] = max(tall[self.me], h)
        after = self.zone_value(z, floors, tall, self.fountains[z], self.large[z] == "temple")
        return (after - self.current(z)) * self.scorings_left + 0.3 * h

    def fountain_gain(self, z: int) -> float:
        after = self.zone_value(z, self.floors[z], self.tall[z], self.fountains[z] + 1, self.large[z] == "temple")
        return (after - self.current(z)) * self.scorings_left

    def temple_gain(self, z: int) -> float:
        after = self.zone_value(z, self.floors[z], self.tall[z], self.fountains[z], True)
        return (after - self.current(z)) * self.scorings_left

    def amph_gain(self, z: int) -> float:
        bonus = amphitheatre_bonus(self.floors[z], self.tall[z])
        others = max((b for s, b in enumerate(bonus) if s != self.me), default=0)
        return (bonus[self.me] - 0.5 * others) * _CARD_POINT * max(0, self.scorings_left - 1)

    def allows(self, h: int, roof: int, z: int) -> bool:
        return permit_allows(h, roof, z, self.colours, self.roofs, self.top, self.free)

    def wanted_heights(self, colours: set[int]) -> set[int]:
        """Heights a new building should reach to enter zones of ``colours`` (1 for empty zones)."""
        out: set[int] = set()
        for z, c in enumerate(self.colours):
            if c in colours and self.free[z] > 0:
                out |= {1} if self.top[z] == 0 else {self.top[z], self.top[z] + 1}
        return out


class CapitolHeuristicBot(Bot):
    """Greedy Capitol player (see the module docstring)."""

    name = "heuristic"

    def select_action(self, view: SeatView) -> Action:
        """Return the greedy choice among ``view.legal_actions()``."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = cast(CapitolObservation, view.observation())  # this bot plays Capitol only
        board = _Board(obs)
        first = legal[-1]
        if isinstance(first, PlaceBuilding):
            return max(legal, key=lambda a: self._placement(board, a))
        if isinstance(first, PlaceFloor):
            return self._floor(board, obs, legal)
        if isinstance(first, PlaceRoof):
            return self._roof(board, obs, legal)
        if isinstance(first, PlaceTile):
            return self._tile(board, obs, legal)
        if isinstance(first, DrawCard):
            return self._draw(board, obs, legal)
        if any(isinstance(a, SealBid) for a in legal):
            return self._bid(board, obs, legal)
        return self._construct(board, obs, legal)

    # ---------------------------------------------------------------- construction
    @staticmethod
    def _placement(board: _Board, a: Action) -> float:
        return board.placement_gain(a.zone, a.height) if isinstance(a, PlaceBuilding) else -1e9

    def _hand_colours(self, obs: CapitolObservation) -> set[int]:
        return {CARD_COLOUR[c] for c in _hand(obs) if CARD_TYPE[c] == PERMIT}

    def _construct(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        me = obs["players"][board.me]
        complete = [(h, _ROOF_ID["round" if r == "R" else "triangular"]) for h, r in _offboard(me) if r != "-"]
        incomplete = [h for h, r in _offboard(me) if r == "-"]
        plays = [a for a in legal if isinstance(a, PlayCard) and a.act]
        best: tuple[float, Action] | None = None
        for a in plays:
            assert isinstance(a, PlayCard)
            t = CARD_TYPE[a.card]
            low = -0.01 * CARD_VALUE[a.card]  # spend low cards first
            if t == PERMIT:
                gains = [
                    board.placement_gain(z, h)
                    for h, roof in complete
                    for z in range(len(board.colours))
                    if board.colours[z] == CARD_COLOUR[a.card] and board.allows(h, roof, z)
                ]
                score = max(gains, default=-1.0)
                score = score + 1.0 if score > 0 else -1.0
            elif t == ROOF:
                wanted = board.wanted_heights(self._hand_colours(obs))
                score = 1.5 if any(h in wanted for h in incomplete) else -1.0
            else:
                wanted = board.wanted_heights(self._hand_colours(obs)) or {1, 2}
                need = any(h + 1 <= max(wanted) for h in incomplete) or not incomplete
                score = 1.0 if need and len(incomplete) < 3 else -1.0
            if score > 0 and (best is None or score + low > best[0]):
                best = (score + low, a)
        if best is not None:
            return best[1]
        return next(a for a in legal if isinstance(a, Pass))

    def _floor(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        wanted = board.wanted_heights(self._hand_colours(obs)) or {1, 2, 3}
        goal = max(wanted)
        onto = [a for a in legal if isinstance(a, PlaceFloor) and 0 < a.onto < goal]
        if onto:
            return max(onto, key=lambda a: a.onto if isinstance(a, PlaceFloor) else 0)
        return legal[0]  # start a new building

    def _roof(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        colours = self._hand_colours(obs) or {0, 1, 2}

        def fit(a: Action) -> float:
            assert isinstance(a, PlaceRoof)
            zones = range(len(board.colours))
            ok = [z for z in zones if board.colours[z] in colours and board.allows(a.height, a.roof, z)]
            return (10 if ok else 0) + max((board.placement_gain(z, a.height) for z in ok), default=0) + a.height * 0.1

        return max(legal, key=fit)

    # ---------------------------------------------------------------- improvement
    def _tile(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        pending = obs["pending"]
        assert pending is not None  # a tile to place is a pending decision
        kind = pending["data"][0]
        gain = {3: board.fountain_gain, 2: board.temple_gain, 1: board.amph_gain}[kind]
        return max(legal, key=lambda a: gain(a.zone) if isinstance(a, PlaceTile) else 0)

    def _tile_value(self, board: _Board, obs: CapitolObservation) -> float:
        lot = obs["auction"]["lot"]
        assert lot is not None  # bidding: a lot is up
        kind = obs["auction"]["lots"][lot]
        zones = range(len(board.colours))
        if kind == "fountain":
            return max((board.fountain_gain(z) for z in zones if board.free[z] > 0), default=0.0)
        if kind == "temple":
            return max((board.temple_gain(z) for z in zones if board.large[z] == "none"), default=0.0)
        return max((board.amph_gain(z) for z in zones if board.large[z] == "none"), default=0.0)

    def _bid(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        hand = sorted(_hand(obs), key=lambda c: (-CARD_VALUE[c], c))
        total = sum(CARD_VALUE[c] for c in hand)
        target = min(self._tile_value(board, obs) * _BID_PER_POINT, 0.45 * total)
        plan: list[int] = []
        amount = 0
        if target >= 3:
            for c in hand:
                if amount >= target:
                    break
                plan.append(c)
                amount += CARD_VALUE[c]
        draft = [CARD_REP[c] for c in obs["auction"]["my_draft"] or []]  # the engine picks the copies: compare kinds
        for c in plan:
            if CARD_REP[c] in draft:
                draft.remove(CARD_REP[c])
                continue
            for a in legal:
                if isinstance(a, AddToBid) and CARD_REP[a.card] == CARD_REP[c]:
                    return a
        return next(a for a in legal if isinstance(a, SealBid))

    # ---------------------------------------------------------------- end phase
    def _draw(self, board: _Board, obs: CapitolObservation, legal: list[Action]) -> Action:
        me = obs["players"][board.me]
        hand = _hand(obs)
        has = [sum(1 for c in hand if CARD_TYPE[c] == t) for t in range(3)]
        complete = [(h, _ROOF_ID["round" if r == "R" else "triangular"]) for h, r in _offboard(me) if r != "-"]
        incomplete = [h for h, r in _offboard(me) if r == "-"]

        def need(a: Action) -> float:
            assert isinstance(a, DrawCard)
            top = obs["piles"][a.pile]["top"]
            value = 0.1 * CARD_VALUE[top] if top is not None else 0.0
            if a.pile == PERMIT and top is not None:
                colour = CARD_COLOUR[top]
                fits = any(
                    board.colours[z] == colour and board.allows(h, r, z)
                    for h, r in complete
                    for z in range(len(board.colours))
                )
                return value + (3.0 if fits else 1.2) - 0.4 * has[PERMIT]
            if a.pile == ROOF:
                return value + (2.5 if incomplete else 0.8) - 0.8 * has[ROOF]
            if a.pile == FLOOR:
                return value + (2.0 if obs["floor_supply"] >= 2 else 0.2) - 0.6 * has[FLOOR]
            return value

        return max(legal, key=need)
