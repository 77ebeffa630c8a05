"""Sentinelle (yellow, D) — PROVISIONAL stand-in: your Sentinel limits a bust to the loss of the highest card.

Rules: capital_lux_2.md "Tiles B-D / Yellow / Sentinelle" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.games.capital_lux_2.rules import highest_cards
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

POST = "sentinel"


class Sentinelle(PowerTile):
    """Sentinelle: a protected City district for the next resolution."""

    tile_id = "sentinelle"
    name_fr = "Sentinelle"
    name_en = "Sentinel"
    colour = 2
    config = "D"
    provisional = True
    effect = N_(
        "Place your Sentinel on one of your City districts (moving it if already placed). At the next resolution, "
        "if that district busts you discard only its highest card. Then the Sentinel is removed."
    )
    material = N_("1 Sentinel per player")

    def setup(self, st: CapitalLux2State) -> None:
        """No Sentinel placed."""
        st.mat[POST] = [-1] * st.n

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask where to post the Sentinel."""
        st.stack.append(Decision(player, self.tile_id, ("place",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Any of your City districts."""
        return list(st.game.t_district)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Post the Sentinel."""
        assert isinstance(action, ChooseDistrict)
        st.mat[POST][decision.player] = action.district

    def on_bust(self, st: CapitalLux2State, seat: int, district: int, excess: int) -> bool:
        """A guarded district loses only its highest card (equal highest: the one placed last)."""
        if seat >= st.n or st.mat[POST][seat] != district:
            return False
        card = highest_cards(st.city[seat][district])[-1]
        st.city[seat][district].remove(card)
        st.discard.append(card)
        return True

    def after_resolution(self, st: CapitalLux2State) -> None:
        """Remove every Sentinel."""
        st.mat[POST] = [-1] * st.n

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Where each Sentinel stands (public; -1 = not placed)."""
        return {"sentinels": list(st.mat[POST])}

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose your City district to guard", tile=self.label_message)
