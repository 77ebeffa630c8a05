"""Missionnaire (pink, C) — PROVISIONAL stand-in: move the lowest card of one of your City districts to the Capital.

Rules: capital_lux_2.md "Tiles B-D / Pink / Missionnaire" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import TakeCard
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.games.capital_lux_2.rules import lowest_cards
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Missionnaire(PowerTile):
    """Missionnaire: sends one of your low City cards to raise a Capital MAX."""

    tile_id = "missionnaire"
    name_fr = "Missionnaire"
    name_en = "Missionary"
    colour = 1
    config = "C"
    provisional = True
    effect = N_("Move the lowest card of one of your City districts to the matching Capital district.")

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible with an empty City."""
        return any(st.city[player])

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which card."""
        st.stack.append(Decision(player, self.tile_id, ("take",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """The lowest cards of each of your City districts."""
        return [st.game.t_take[c] for d in range(4) for c in lowest_cards(st.city[decision.player][d])]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Move the card to the same Capital district."""
        assert isinstance(action, TakeCard)
        city = st.city[decision.player]
        d = next(i for i in range(4) if action.card in city[i])
        city[d].remove(action.card)
        st.capital[d].append(action.card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M(
            "{tile}: choose the lowest card of one of your City districts to move to the Capital",
            tile=self.label_message,
        )
