"""A heuristic bot for Capital Lux 2: keeps City districts under the Capital, uses powers, drafts by need.

It reads only ``view.observation()`` and ``view.legal_actions()`` plus static card data.

Against ROB (solo) it evaluates each move by projecting the round's resolution: ROB's City after its visible hand
and reserve are placed (ROB's placement test), face-down modifiers, busts and the bonus of each district, with the
best split of the rest of its hand between City and Capital (districts are independent, so the split is searched
per district). It looks one step into the Agent's and the Clerc's choices (a negative modifier or a removed Capital
card can bust ROB, whose placement test ignores face-down modifiers) and weighs the chance that ROB's next flip is
its third red card.
"""

from __future__ import annotations

from typing import cast

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
from meeple.games.capital_lux_2.data import CARD_COLOUR, CARD_VALUE, DEFAULT_AGENT_MODIFIERS, ROB_RED_LIMIT
from meeple.games.capital_lux_2.observation import CapitalLux2Observation, Pending

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


_ROB_REDS = 4
"""Red cards in the default ROB deck (the bot cannot see the deck's composition)."""


class _Ctx:
    """What the bot derives from one observation."""

    def __init__(self, obs: CapitalLux2Observation) -> None:
        self.obs = obs
        seat = obs["seat"]
        assert seat is not None  # a bot never plays the spectator's view
        self.me: int = seat
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
        self.solo: bool = bool(obs.get("solo"))
        self.placed_modifiers: list[int] = [
            int(i["value"])
            for d in obs["capital"]
            for i in d["face_down"]
            if i["kind"] == "modifier" and i["value"] != "hidden"
        ]
        self.mods: list[int] = [known[d] + 4 * unknown[d] for d in range(4)]
        """Face-down value on each Capital district (solo: the player placed the modifiers; unseen cards ~4)."""
        self.tops: list[list[int]] = [sorted(c["value"] for c in d["cards"]) for d in obs["capital"]]
        self.tops_max: list[int] = [t[-1] if t else 0 for t in self.tops]
        self.rob_reserve: list[int] = [c["id"] for c in obs["rob"]["reserve"]] if self.solo else []
        rob_hand = [c["id"] for c in obs["rob"]["hand"] if c is not None] if self.solo else []
        self.rob_hand_values: list[list[int]] = [
            [CARD_VALUE[c] for c in rob_hand if CARD_COLOUR[c] == d] for d in range(4)
        ]
        self.my_bonus: list[int] = [self.limit[d] - self.cap[d] - known[d] + 2 * unknown[d] for d in range(4)]
        """Tile bonuses to the player's own MAX (Aristocrate)."""

    def others_best(self, d: int) -> int:
        if self.solo:
            return self.rob_final(self.cap)[d]
        return max((c[d] for i, c in enumerate(self.cities) if i != self.me), default=0)

    def rob_final(self, cap: list[int]) -> list[int]:
        """ROB's City totals once its reserve is placed against the visible Capital totals ``cap`` (FR solo)."""
        return [self.rob_final_d(d, cap[d]) for d in range(4)]

    def rob_final_d(self, d: int, cap_d: int, city_d: int | None = None) -> int:
        """ROB's City total in district ``d`` after its reserve placement (highest first) under a Capital total."""
        out = self.cities[1][d] if city_d is None else city_d
        for v in sorted((CARD_VALUE[c] for c in self.rob_reserve if CARD_COLOUR[c] == d), reverse=True):
            if out + v <= cap_d:
                out += v
        return out

    def district_diff(self, d: int, mine_d: int, cap_d: int, mods_d: int, top: int) -> float:
        """Projected (own - ROB) points of district ``d`` at the resolution: City totals, busts and the bonus.

        ROB's two visible hand cards are assumed played this round (to its City if they fit, else to the Capital).
        """
        rob_city = self.cities[1][d]
        for v in self.rob_hand_values[d]:
            if rob_city + v <= cap_d:
                rob_city += v
            else:
                cap_d += v
                top = max(top, v)
        limit = cap_d + mods_d
        me = mine_d if mine_d <= limit + self.my_bonus[d] else 0
        rob = self.rob_final_d(d, cap_d, rob_city)
        them = rob if rob <= limit else 0
        diff = float(me - them)
        if me > them and me >= 1:
            diff += top
        elif them > me and them >= 1:
            diff -= top
        return diff

    def plan_d(self, d: int, hand: list[int], mine_d: int, cap_d: int, mods_d: int, top: int) -> float:
        """Best projected value of district ``d`` over every split of the hand's ``d`` cards into City / Capital.

        Districts are independent in the projection, so the best plan of a hand is the sum of the districts' plans.
        """
        values = [CARD_VALUE[c] for c in hand if CARD_COLOUR[c] == d]
        power = POWER_VALUE.get(self.tiles[d], 1.0)
        best = -1e9
        for mask in range(1 << len(values)):
            to_cap = [v for i, v in enumerate(values) if mask >> i & 1]
            to_city = sum(values) - sum(to_cap)
            value = self.district_diff(d, mine_d + to_city, cap_d + sum(to_cap), mods_d, max([top, *to_cap]))
            best = max(best, value + power * len(to_cap))
        return best

    def p_round_ends_next(self) -> float:
        """Chance that ROB's next flip is its third red card (default deck: 4 red cards), ending the round."""
        rob = self.obs["rob"]
        if rob["red_cards"] != ROB_RED_LIMIT - 1 or rob["deck_left"] <= 0:
            return 0.0
        reds_left = max(0, _ROB_REDS - int(rob["red_cards"]))
        return min(1.0, reds_left / int(rob["deck_left"]))

    def last_turn(self, hand: list[int], mine: list[int], cap: list[int], tops: list[int]) -> float:
        """Projected value when only one more card of ``hand`` can be played and the rest go to the City."""
        city = list(mine)
        for c in hand:
            city[CARD_COLOUR[c]] += CARD_VALUE[c]

        def value(city: list[int], cap: list[int], tops: list[int]) -> float:
            return sum(self.district_diff(d, city[d], cap[d], self.mods[d], tops[d]) for d in range(4))

        best = value(city, cap, tops)
        for c in hand:
            d, v = CARD_COLOUR[c], CARD_VALUE[c]
            city2, cap2, tops2 = list(city), list(cap), list(tops)
            city2[d] -= v
            cap2[d] += v
            tops2[d] = max(tops2[d], v)
            best = max(best, value(city2, cap2, tops2) + POWER_VALUE.get(self.tiles[d], 1.0))
        return best

    def plan(
        self,
        hand: list[int] | None = None,
        mine: list[int] | None = None,
        cap: list[int] | None = None,
        mods: list[int] | None = None,
        tops: list[int] | None = None,
    ) -> float:
        """Projected (own - ROB) value of the round with the best use of ``hand`` (defaults: the current position)."""
        hand = self.hand if hand is None else hand
        mine = self.mine if mine is None else mine
        cap = self.cap if cap is None else cap
        mods = self.mods if mods is None else mods
        tops = self.tops_max if tops is None else tops
        return sum(self.plan_d(d, hand, mine[d], cap[d], mods[d], tops[d]) for d in range(4))


class CapitalLux2HeuristicBot(Bot):
    """Greedy one-step evaluation of each legal action."""

    name = "heuristic"

    def select_action(self, view: SeatView) -> Action:
        """Return the legal action with the best heuristic value (ties: the first)."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ctx = _Ctx(cast(CapitalLux2Observation, view.observation()))  # this bot plays Capital Lux 2 only
        best = max(range(len(legal)), key=lambda i: (self._value(ctx, legal[i]), -i))
        return legal[best]

    # ------------------------------------------------------------------ evaluation
    def _value(self, ctx: _Ctx, a: Action) -> float:
        pending = ctx.obs["pending"]
        kind = pending["kind"] if pending else ""
        if ctx.solo:
            value = self._solo_value(ctx, kind, a)
            if value is not None:
                return value
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
        if isinstance(a, ChooseDistrict) and pending:  # a district is chosen for a pending decision
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

    def _solo_value(self, ctx: _Ctx, kind: str, a: Action) -> float | None:
        """Value of an action against ROB: the projected round after it, with the best use of the rest of the hand.

        None = fall back to the general rules.
        """
        if isinstance(a, KeepCard):
            first = ctx.obs["draft"]["first_pick"]
            kept = [first["id"]] if first else []
            return ctx.plan(hand=[*ctx.hand, *kept, a.card])
        if isinstance(a, (PlayToCity, PlayToCapital)):
            d, v = CARD_COLOUR[a.card], CARD_VALUE[a.card]
            hand = [c for c in ctx.hand if c != a.card]
            if isinstance(a, PlayToCity):
                mine = list(ctx.mine)
                mine[d] += v
                value = ctx.plan(hand=hand, mine=mine)
                cap, tops_max = ctx.cap, ctx.tops_max
            else:
                cap = list(ctx.cap)
                cap[d] += v
                tops = [list(t) for t in ctx.tops]
                tops[d] = sorted([*tops[d], v])
                value = self._solo_power(ctx, ctx.tiles[d], hand, cap, tops)
                mine = ctx.mine
                tops_max = [t[-1] if t else 0 for t in tops]
            p_end = ctx.p_round_ends_next()
            if p_end > 0 and hand:
                value = (1 - p_end) * value + p_end * ctx.last_turn(hand, mine, cap, tops_max)
            return value
        if isinstance(a, ChooseDistrict) and kind == "agent":
            drawn = next((t["state"].get("drawn_modifier") for t in ctx.obs["tiles"] if t["id"] == "agent"), None)
            if drawn is None:
                return None
            mods = list(ctx.mods)
            mods[a.district] += int(drawn)
            return ctx.plan(mods=mods)
        if isinstance(a, TakeCard) and kind in ("clerc", "rob_bonus", "mentaliste"):
            v = CARD_VALUE[a.card]
            d = next(i for i, dist in enumerate(ctx.obs["capital"]) if any(c["id"] == a.card for c in dist["cards"]))
            cap = list(ctx.cap)
            cap[d] -= v
            rest = list(ctx.tops[d])
            rest.remove(v)
            tmax = list(ctx.tops_max)
            tmax[d] = rest[-1] if rest else 0
            mine = list(ctx.mine)
            if kind == "clerc":
                mine[d] += v
            return ctx.plan(mine=mine, cap=cap, tops=tmax)
        return None

    @staticmethod
    def _solo_power(ctx: _Ctx, tile: str, hand: list[int], cap: list[int], tops: list[list[int]]) -> float:
        """Projected value after a Capital play, looking one step into the Agent's and the Clerc's choices."""
        tops_max = [t[-1] if t else 0 for t in tops]
        if tile == "clerc":
            best = None
            pink_ok = any(t["id"] == "clerc" and t["state"].get("pink_allowed") for t in ctx.obs["tiles"])
            for d in range(4):
                if (d == 1 and not pink_ok) or not tops[d]:
                    continue
                low = tops[d][0]
                cap2, mine2, tops2 = list(cap), list(ctx.mine), list(tops_max)
                cap2[d] -= low
                mine2[d] += low
                tops2[d] = tops[d][-1] if len(tops[d]) > 1 else 0
                value = ctx.plan(hand=hand, mine=mine2, cap=cap2, tops=tops2)
                best = value if best is None else max(best, value)
            if best is not None:
                return best
            return ctx.plan(hand=hand, cap=cap, tops=tops_max)
        if tile == "agent":
            pile = list(DEFAULT_AGENT_MODIFIERS)
            for m in ctx.placed_modifiers:
                if m in pile:
                    pile.remove(m)
            if not pile:
                return ctx.plan(hand=hand, cap=cap, tops=tops_max)
            total = 0.0
            for m in pile:
                options = []
                for d in range(4):
                    mods = list(ctx.mods)
                    mods[d] += m
                    options.append(ctx.plan(hand=hand, cap=cap, mods=mods, tops=tops_max))
                total += max(options)
            return total / len(pile)
        return ctx.plan(hand=hand, cap=cap, tops=tops_max) + POWER_VALUE.get(tile, 1.0)

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

    def _district_value(self, ctx: _Ctx, kind: str, pending: Pending, d: int) -> float:
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
