"""Why a Capital Lux 2 move is refused, in words the seat to move may read (``State.why_illegal``).

Every refused move gets a reason naming the rule that stops it: a pending choice first (a power tile's, a bonus
card's), then the phase (the draft keeps cards from the pack in hand, play puts a hand card in one's City or the
Capital), then the card itself. Each reason reads only what the seat to move knows: its pack and hand, the choices
offered to it, the public table.
Rules: capital_lux_2.md §7 (draft), §8 (play), §9 (powers), §11 (bonus cards), solo (ROB's bonus card).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.const import BONUS, PH_DRAFT, PH_PLAY, ROB_BONUS
from meeple.games.capital_lux_2.powers import POWERS
from meeple.games.capital_lux_2.vocabulary import CARD
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


def why_illegal(st: CapitalLux2State, action: Action) -> Message:
    """Return why ``action`` (not legal now) is refused: the pending choice or the phase, then the card."""
    if st.stack:
        return _why_decision(st, st.stack[-1], action)
    seat = st.current_player()
    match action:
        case KeepCard(card=card) if st.phase == PH_DRAFT:
            return M("{card} is not in the pack you hold", card=CARD[card])
        case KeepCard():
            return M("cards are kept during the draft at the start of a round")
        case PlayToCity(card=card) | PlayToCapital(card=card) if st.phase == PH_PLAY:
            if card not in st.hand[seat]:
                return M("{card} is not in your hand", card=CARD[card])
        case PlayToCity() | PlayToCapital() if st.phase == PH_DRAFT:
            return M("first keep a card of your pack: cards are played once the draft is over")
        case PlayToCity() | PlayToCapital():
            return M("cards are played one by one in the play phase")
    if isinstance(action, (KeepCard, PlayToCity, PlayToCapital)):
        return M("this move is not possible now")
    return M("this move answers a power tile's or a bonus card's choice, and none is pending now")


def _why_decision(st: CapitalLux2State, top: Decision, action: Action) -> Message:
    """A pending choice (a bonus card, ROB's bonus card, a power tile's step) is answered before anything else."""
    if top.kind in (BONUS, ROB_BONUS):
        if isinstance(action, TakeCard):
            if top.kind == BONUS:
                return M("{card} is not one of the equal highest Capital cards you may take", card=CARD[action.card])
            return M("{card} is not one of the equal lowest Capital cards ROB may take", card=CARD[action.card])
        return M("first choose the bonus card among the equal cards of the Capital")
    tile = POWERS[top.kind]
    offered = {type(a) for a in st.legal_actions()}
    if type(action) in offered:
        return M("this is not one of the choices {tile} offers now", tile=tile.label_message)
    return M("first finish the power of {tile}: choose one of the options it offers", tile=tile.label_message)
