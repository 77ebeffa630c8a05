"""Mentaliste (pink, D) — PROVISIONAL stand-in: discard the lowest card of any Capital district (not the one played).

Rules: capital_lux_2.md "Tiles B-D / Pink / Mentaliste" (our choice; the annex text is unknown).
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


def _candidates(st: CapitalLux2State, played: int) -> list[int]:
    out: list[int] = []
    for d in range(4):
        out += lowest_cards([c for c in st.capital[d] if c != played])
    return out


class Mentaliste(PowerTile):
    """Mentaliste: lowers a Capital MAX by discarding a low card."""

    tile_id = "mentaliste"
    name_fr = "Mentaliste"
    name_en = "Mentalist"
    colour = 1
    config = "D"
    provisional = True
    effect = N_("Discard the lowest card of any Capital district, but not the card just played.")

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when the Capital holds no other card."""
        return bool(_candidates(st, card))

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which card to discard."""
        st.stack.append(Decision(player, self.tile_id, ("discard", card)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """The lowest card(s) of each district, the card just played excluded."""
        return [st.game.t_take[c] for c in _candidates(st, decision.data[1])]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Discard the card."""
        assert isinstance(action, TakeCard)
        st.capital[st.capital_district_of(action.card)].remove(action.card)
        st.discard.append(action.card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose the lowest card of a Capital district to discard", tile=self.label_message)
