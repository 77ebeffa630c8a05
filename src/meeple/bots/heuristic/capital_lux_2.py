"""A heuristic bot for Capital Lux 2: keeps City districts under the Capital, uses powers, drafts by need.

It reads only ``view.observation()`` and ``view.legal_actions()`` plus static card data.
"""

from __future__ import annotations

from typing import Any

from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.view import SeatView
from meeple.games.capital_lux_2.actions import (
    ChooseDistrict,
    ChooseSeat,
    DiscardDistrict,
    GiveCard,
    KeepCard,
    PayExcess,
    PlayToCapital,
    PlayToCity,
    SelectCard,
    TakeCard,
)
from meeple.games.capital_lux_2.data import CARD_COLOUR, CARD_VALUE

POWER_VALUE = {
    "agent": 1.5,
    "clerc": 2.5,
    "marchand": 2.0,
    "savant": 2.5,
    "infiltre": 1.5,
    "recruteur": 1.0,
    "etranger": 2.0,
    "prophete": 2.0,
    "missionnaire": 0.5,
    "mentaliste": 1.0,
    "disciple": 2.5,
    "aristocrate": 2.5,
    "sentinelle": 1.5,
    "proselytiste": 2.5,
    "explorateur": 3.0,
    "dualiste": 3.0,
}
"""Rough worth in points of triggering each power."""


class _Ctx:
    """What the bot derives from one observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.me: int = int(obs["seat"])
        self.cap: list[int] = [int(d["total"]) for d in obs["capital"]]
        known = [0, 0, 0, 0]
        unknown = [0, 0, 0, 0]
        for d, district in enumerate(obs["capital"]):
            for item in district["face_down"]:
                if item["value"] == "hidden":
                    unknown[d] += 1
                else:
                    known[d] += item["value"]
        self.limit: list[int] = [self.cap[d] + known[d] - 2 * unknown[d] for d in range(4)]
        tiles = obs["tiles"]
        self.tiles = [t["id"] for t in tiles]
        aristo = next((t["state"] for t in tiles if t["id"] == "aristocrate"), None)
        if aristo is not None:
            for d in range(4):
                self.limit[d] += 2 * aristo["aristocrats_on"][self.me][d]
        self.cities: list[list[int]] = [[int(t) for t in c["totals"]] for c in obs["cities"]]
        self.mine: list[int] = self.cities[self.me]
        self.hand: list[int] = [c["id"] for c in obs.get("hand", [])]
        self.room: list[int] = [self.limit[d] - self.mine[d] for d in range(4)]

    def others_best(self, d: int) -> int:
        return max((c[d] for i, c in enumerate(self.cities) if i != self.me), default=0)


class CapitalLux2HeuristicBot(Bot):
    """Greedy one-step evaluation of each legal action."""

    name = "heuristic"

    def select_action(self, view: SeatView) -> Action:
        """Return the legal action with the best heuristic value (ties: the first)."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ctx = _Ctx(view.observation())
        best = max(range(len(legal)), key=lambda i: (self._value(ctx, legal[i]), -i))
        return legal[best]

    # ------------------------------------------------------------------ evaluation
    def _value(self, ctx: _Ctx, a: Action) -> float:
        pending = ctx.obs["pending"]
        kind = pending["kind"] if pending else ""
        if isinstance(a, KeepCard):
            return self._draft_value(ctx, a.card)
        if isinstance(a, PlayToCity):
            return self._city_value(ctx, a.card)
        if isinstance(a, PlayToCapital):
            return self._capital_value(ctx, a.card)
        if isinstance(a, TakeCard):
            return self._take_value(ctx, kind, a.card)
        if isinstance(a, SelectCard):
            return self._draft_value(ctx, a.card)
        if isinstance(a, GiveCard):
            return CARD_VALUE[a.card]
        if isinstance(a, ChooseDistrict):
            return self._district_value(ctx, kind, pending, a.district)
        if isinstance(a, ChooseSeat):
            if kind == "proselytiste":
                return float(ctx.obs["hand_sizes"][a.seat])
            return sum(ctx.cities[a.seat])
        if isinstance(a, PayExcess):
            return ctx.mine[a.district] - 2 * a.gold
        if isinstance(a, DiscardDistrict):
            return 0.0
        return 0.0

    def _draft_value(self, ctx: _Ctx, card: int) -> float:
        d, v = CARD_COLOUR[card], CARD_VALUE[card]
        fits = v <= ctx.room[d]
        held = sum(CARD_VALUE[c] for c in ctx.hand if CARD_COLOUR[c] == d)
        return v + (3.0 if fits and v + held <= ctx.room[d] + 4 else 0.0) + 0.5 * POWER_VALUE.get(ctx.tiles[d], 1.0)

    def _city_value(self, ctx: _Ctx, card: int) -> float:
        d, v = CARD_COLOUR[card], CARD_VALUE[card]
        after = ctx.mine[d] + v
        if after > ctx.limit[d]:
            return -ctx.mine[d] - v - 2.0
        gain = float(v)
        best = ctx.others_best(d)
        top = max((c["value"] for c in ctx.obs["capital"][d]["cards"]), default=0)
        if after > best >= ctx.mine[d]:
            gain += 1.0 * top
        elif after == best:
            gain += 1.0
        return gain

    def _capital_value(self, ctx: _Ctx, card: int) -> float:
        d, v = CARD_COLOUR[card], CARD_VALUE[card]
        value = POWER_VALUE.get(ctx.tiles[d], 1.0)
        if ctx.mine[d] > 0 or any(CARD_COLOUR[c] == d and c != card for c in ctx.hand):
            value += 0.4 * v
        if ctx.mine[d] > ctx.limit[d]:
            value += min(v, ctx.mine[d] - ctx.limit[d]) * 1.5
        return value

    def _take_value(self, ctx: _Ctx, kind: str, card: int) -> float:
        v = CARD_VALUE[card]
        if kind == "clerc":
            d = next(i for i, dist in enumerate(ctx.obs["capital"]) if any(c["id"] == card for c in dist["cards"]))
            return v if ctx.mine[d] + v <= ctx.limit[d] - v else -v
        if kind in ("mentaliste", "recruteur"):
            d = next(i for i, dist in enumerate(ctx.obs["capital"]) if any(c["id"] == card for c in dist["cards"]))
            return ctx.room[d] - ctx.others_best(d) * 0.2 - v * 0.1
        if kind == "missionnaire":
            d = CARD_COLOUR[card]
            return -ctx.room[d] - v * 0.1
        return -float(card)

    def _district_value(self, ctx: _Ctx, kind: str, pending: dict[str, Any], d: int) -> float:
        if kind == "agent":
            drawn = next((t["state"].get("drawn_modifier") for t in ctx.obs["tiles"] if t["id"] == "agent"), 0)
            if (drawn or 0) >= 0:
                return ctx.mine[d] - ctx.room[d]
            return ctx.others_best(d) - ctx.mine[d] * 2
        if kind in ("infiltre", "aristocrate", "sentinelle"):
            return ctx.mine[d] - ctx.room[d]
        if kind == "prophete":
            return ctx.others_best(d)
        if kind == "recruteur":
            return ctx.mine[d] - ctx.room[d]
        if kind == "etranger":
            seat = int(pending["data"][2])
            cap = ctx.cap[d]
            return ctx.cities[seat][d] - cap
        return -d
