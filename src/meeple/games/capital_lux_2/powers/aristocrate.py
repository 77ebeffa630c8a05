"""Aristocrate (yellow, C) — PROVISIONAL stand-in: put an Aristocrat tile on a City district (+2 MAX there).

Rules: capital_lux_2.md "Tiles B-D / Yellow / Aristocrate" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

LEFT = "aristo_left"
ON = "aristo_on"
TILES_PER_PLAYER = 2


class Aristocrate(PowerTile):
    """Aristocrate: permanent +2 MAX on one of your City districts per tile."""

    tile_id = "aristocrate"
    name_fr = "Aristocrate"
    name_en = "Aristocrat"
    colour = 2
    config = "C"
    provisional = True
    effect = N_(
        "Put one of your Aristocrat tiles on one of your City districts: it permanently gives you +2 MAX there. "
        "If you have none left, take 1 gold instead."
    )
    material = N_("2 Aristocrat tiles per player")
    has_max_bonus = True

    def setup(self, st: CapitalLux2State) -> None:
        """Give each player 2 Aristocrat tiles."""
        st.mat[LEFT] = [TILES_PER_PLAYER] * st.n
        st.mat[ON] = [0] * (4 * st.n)

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask where to put a tile, or take 1 gold if none is left."""
        if st.mat[LEFT][player] > 0:
            st.stack.append(Decision(player, self.tile_id, ("place",)))
        else:
            st.gold[player] += 1

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Any of your City districts."""
        return list(st.game.t_district)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Place the tile."""
        assert isinstance(action, ChooseDistrict)
        st.mat[LEFT][decision.player] -= 1
        st.mat[ON][4 * decision.player + action.district] += 1

    def max_bonus(self, st: CapitalLux2State, seat: int, district: int) -> int:
        """+2 MAX per tile on that district (players only)."""
        return 2 * st.mat[ON][4 * seat + district] if seat < st.n else 0

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Tiles left and placed, per player (public)."""
        return {
            "aristocrats_left": list(st.mat[LEFT]),
            "aristocrats_on": [st.mat[ON][4 * s : 4 * s + 4] for s in range(st.n)],
        }

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose your City district for an Aristocrat tile (+2 MAX)", tile=self.label_message)
