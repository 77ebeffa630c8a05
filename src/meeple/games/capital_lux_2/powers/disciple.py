"""Disciple (yellow, B) — PROVISIONAL stand-in: take 1 gold, plus 1 if your yellow City district is the highest.

Rules: capital_lux_2.md "Tiles B-D / Yellow / Disciple" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.capital_lux_2.data import YELLOW
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.games.capital_lux_2.rules import total
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Disciple(PowerTile):
    """Disciple: gold, more for the leading yellow district."""

    tile_id = "disciple"
    name_fr = "Disciple"
    name_en = "Disciple"
    colour = 2
    config = "B"
    provisional = True
    effect = N_(
        "Take 1 gold, plus 1 more if your yellow City district total is the highest (ties count; it must be at "
        "least 1; ROB counts in solo)."
    )

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Take 1 or 2 gold."""
        mine = total(st.city[player][YELLOW])
        best = max(total(st.city[q][YELLOW]) for q in range(st.np))
        st.gold[player] += 2 if mine >= 1 and mine == best else 1
