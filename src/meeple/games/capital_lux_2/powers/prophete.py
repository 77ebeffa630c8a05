"""Prophète (pink, B) — PROVISIONAL stand-in: name a district; every other player moves its lowest card to the Capital.

Rules: capital_lux_2.md "Tiles B-D / Pink / Prophète" (our choice; the annex text is unknown). Not in solo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.games.capital_lux_2.rules import lowest_cards
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Prophete(PowerTile):
    """Prophète: strips the lowest card of one district from every opponent's City."""

    tile_id = "prophete"
    name_fr = "Prophète"
    name_en = "Prophet"
    colour = 1
    config = "B"
    solo_allowed = False
    provisional = True
    effect = N_(
        "Name a district. Every other player moves the lowest card of that City district to the matching Capital "
        "district (equal lowest: the one placed last)."
    )

    def _districts(self, st: CapitalLux2State, player: int) -> list[int]:
        return [d for d in range(4) if any(st.city[q][d] for q in range(st.np) if q != player)]

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when no other player has a City card."""
        return bool(self._districts(st, player))

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which district to name."""
        st.stack.append(Decision(player, self.tile_id, ("name",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Districts where at least one other player has a card."""
        return [st.game.t_district[d] for d in self._districts(st, decision.player)]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Move each other player's lowest card of that district to the Capital."""
        assert isinstance(action, ChooseDistrict)
        d = action.district
        for q in range(st.np):
            if q != decision.player and st.city[q][d]:
                card = lowest_cards(st.city[q][d])[-1]
                st.city[q][d].remove(card)
                st.capital[d].append(card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M(
            "{tile}: name a district; the other players lose its lowest City card to the Capital",
            tile=self.label_message,
        )
