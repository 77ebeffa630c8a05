"""Clerc (pink, A): move the lowest card of one non-pink Capital district to the same district of your City.

Rules: capital_lux_2.md "Tiles A / Clerc" (CL1; keeping the non-pink restriction is our choice, flag
``clerc_excludes_pink``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import TakeCard
from meeple.games.capital_lux_2.data import PINK
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.games.capital_lux_2.rules import lowest_cards
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


def _districts(st: CapitalLux2State) -> list[int]:
    if st.game.params.clerc_excludes_pink:
        return [d for d in range(4) if d != PINK]
    return [0, 1, 2, 3]


def _candidates(st: CapitalLux2State) -> list[int]:
    out: list[int] = []
    for d in _districts(st):
        out += lowest_cards(st.capital[d])
    return out


class Clerc(PowerTile):
    """Clerc: take a low Capital card into your City."""

    tile_id = "clerc"
    name_fr = "Clerc"
    name_en = "Cleric"
    colour = 1
    config = "A"
    effect = N_(
        "Move the lowest card of one non-pink Capital district to the same district of your City "
        "(equal lowest cards: you choose). Variant clerc_excludes_pink=False: any Capital district."
    )

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when every (non-pink) Capital district is empty."""
        return any(st.capital[d] for d in _districts(st))

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Whether the variant ``clerc_excludes_pink=False`` (pink allowed too) is on (shown only when it is)."""
        return {} if st.game.params.clerc_excludes_pink else {"pink_allowed": True}

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which lowest card to take."""
        st.stack.append(Decision(player, self.tile_id, ("take",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """The lowest cards of the non-pink (or, with the variant, all) Capital districts."""
        return [st.game.t_take[c] for c in _candidates(st)]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Move the card from the Capital district to the same City district."""
        assert isinstance(action, TakeCard)
        d = st.capital_district_of(action.card)
        st.capital[d].remove(action.card)
        st.city[decision.player][d].append(action.card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M(
            "{tile}: choose the lowest card of a non-pink Capital district to move to your City",
            tile=self.label_message,
        )
