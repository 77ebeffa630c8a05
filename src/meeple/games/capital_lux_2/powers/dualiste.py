"""Dualiste (green, D) — PROVISIONAL stand-in: draw 1 card, then take one extra play (no chaining).

Rules: capital_lux_2.md "Tiles B-D / Green / Dualiste" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import PlayToCapital, PlayToCity
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Dualiste(PowerTile):
    """Dualiste: one more card and one more play."""

    tile_id = "dualiste"
    name_fr = "Dualiste"
    name_en = "Dualist"
    colour = 3
    config = "D"
    provisional = True
    effect = N_(
        "Draw 1 card, then take one extra play (a card to your City or to the Capital, with its power). "
        "During that extra play the Dualiste only draws: no further extra play."
    )

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when there is nothing to draw and nothing to play."""
        return st.can_draw() or (bool(st.hand[player]) and not st.extra_play)

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Draw, then ask for the extra play (unless this is already the extra play)."""
        if st.can_draw():
            st.add_to_hand(player, st.draw())
        if st.hand[player] and not st.extra_play:
            st.stack.append(Decision(player, self.tile_id, ("extra",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Any normal play of a hand card."""
        return st.play_actions(decision.player)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Make the extra play (its Capital power triggers; a Dualiste there only draws)."""
        assert isinstance(action, (PlayToCity, PlayToCapital))
        st.extra_play = True
        try:
            st.play_card(decision.player, action.card, isinstance(action, PlayToCapital))
        finally:
            st.extra_play = False

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: make your extra play", tile=self.label_message)
