"""Explorateur (green, C) — PROVISIONAL stand-in: look at the top 3 citizen cards, keep 1, the others go under.

Rules: capital_lux_2.md "Tiles B-D / Green / Explorateur" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import SelectCard
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

LOOK = 3


class Explorateur(PowerTile):
    """Explorateur: a chosen card from the top of the deck."""

    tile_id = "explorateur"
    name_fr = "Explorateur"
    name_en = "Explorer"
    colour = 3
    config = "C"
    provisional = True
    effect = N_("Look at the top 3 citizen cards, keep 1 in your hand and put the other 2 at the bottom of the deck.")

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when the deck and the discards are empty."""
        return st.can_draw()

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Draw up to 3 cards into the private peek area and ask which to keep."""
        peek: list[int] = []
        while len(peek) < LOOK and st.can_draw():
            peek.append(st.draw())
        st.peek = sorted(peek)
        st.peek_owner = player
        st.stack.append(Decision(player, self.tile_id, ("keep",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """The cards seen."""
        return [st.game.t_select[c] for c in st.peek]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Keep one; the others go to the bottom of the deck."""
        assert isinstance(action, SelectCard)
        rest = [c for c in st.peek if c != action.card]
        st.deck[0:0] = rest
        st.peek = []
        st.peek_owner = -1
        st.add_to_hand(decision.player, action.card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose the card to keep (the others go to the bottom of the deck)", tile=self.label_message)
