"""Marchand (yellow, A): take 1 gold; optionally (flag) gold may pay a district's excess at resolution.

Rules: capital_lux_2.md "Tiles A / Marchand" and flag ``merchant_gold_covers_excess`` (CL1 rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import MAX_PAY, PayExcess
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Marchand(PowerTile):
    """Marchand: gold (worth 2 VP each; with the flag it can also save a district)."""

    tile_id = "marchand"
    name_fr = "Marchand"
    name_en = "Merchant"
    colour = 2
    config = "A"
    effect = N_(
        "Take 1 gold (2 VP). Variant merchant_gold_covers_excess: at resolution, pay gold equal to the excess "
        "to keep a district."
    )

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Whether the variant ``merchant_gold_covers_excess`` is on (shown only when it is)."""
        return {"gold_covers_excess": True} if st.game.params.merchant_gold_covers_excess else {}

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Take 1 gold."""
        st.gold[player] += 1

    def on_bust(self, st: CapitalLux2State, seat: int, district: int, excess: int) -> bool:
        """With the flag, a player (not ROB) with enough gold chooses to pay the excess or discard."""
        if not st.game.params.merchant_gold_covers_excess or seat >= st.n:
            return False
        if st.gold[seat] < excess or excess > MAX_PAY:
            return False
        st.stack.append(Decision(seat, self.tile_id, ("pay", district, excess)))
        return True

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Pay the excess, or discard the district."""
        _, d, excess = decision.data
        return [st.game.t_pay[d * MAX_PAY + excess - 1], st.game.t_discard[d]]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Pay the gold, or discard the whole City district."""
        _, d, _excess = decision.data
        if isinstance(action, PayExcess):
            st.gold[decision.player] -= action.gold
        else:
            st.discard_city_district(decision.player, d)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M(
            "{tile}: pay {gold} gold to keep your district, or discard it",
            tile=self.label_message,
            gold=decision.data[2],
        )
