"""Savant (green, A): draw the top citizen card into your hand.

Rules: capital_lux_2.md "Tiles A / Savant" (CL1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Savant(PowerTile):
    """Savant: one more card in hand."""

    tile_id = "savant"
    name_fr = "Savant"
    name_en = "Scholar"
    colour = 3
    config = "A"
    effect = N_("Draw the top citizen card into your hand.")

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when the deck and the discards are empty."""
        return st.can_draw()

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Draw into hand."""
        st.add_to_hand(player, st.draw())
