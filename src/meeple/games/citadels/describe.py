"""Texts of Citadels actions, redacted for the seats that may not see their hidden part.

A text depends only on the action, its actor and the perspective (never on the state), so the history reads the
same at any later time. Hidden parts of another seat's action (the character picked or discarded, the card kept,
selected or discarded to the Laboratory) are replaced by "a character" / "a card".

Rules: architecture "Hidden information" (citadels.md §5.2: the draft is secret, drawn cards are private).
"""

from __future__ import annotations

from meeple.core import Action
from meeple.games.citadels.actions import (
    Assassinate,
    BuildDistrict,
    CancelExchange,
    ConfirmExchange,
    DeclineDestroy,
    DeclineRecover,
    DestroyDistrict,
    DiscardCharacter,
    DiscardForGold,
    DrawCards,
    EndTurn,
    ExchangeCards,
    KeepCard,
    PickCharacter,
    RecoverDistrict,
    Rob,
    SelectCard,
    SwapHands,
    TakeGold,
    TakeIncome,
    UseSmithy,
)
from meeple.games.citadels.vocabulary import DISTRICT, THE_CHARACTER
from meeple.i18n.message import M, Message

_FIXED: dict[type[Action], Message] = {
    TakeGold: M("take 2 gold"),
    DrawCards: M("draw cards"),
    TakeIncome: M("take income"),
    ExchangeCards: M("exchange cards with the deck"),
    ConfirmExchange: M("confirm the exchange"),
    CancelExchange: M("cancel the exchange (choose your power again)"),
    UseSmithy: M("use the Smithy: pay 3 gold, draw 3 cards"),
    EndTurn: M("end the turn"),
    DeclineDestroy: M("destroy nothing"),
    RecoverDistrict: M("pay 1 gold to take the destroyed district (Graveyard)"),
    DeclineRecover: M("let the destroyed district go (Graveyard)"),
}
_HIDDEN: dict[type[Action], Message] = {
    PickCharacter: M("pick a character"),
    DiscardCharacter: M("discard a character face down"),
    KeepCard: M("keep a card"),
    SelectCard: M("select a card for the exchange"),
    DiscardForGold: M("discard a card to the Laboratory for 1 gold"),
}


def describe(action: Action, actor: int, perspective: int | None) -> Message:
    """Return the text of ``action`` played by ``actor`` as ``perspective`` may see it (``None``: full text).

    Raises:
        TypeError: ``action`` is not a Citadels action.
    """
    fixed = _FIXED.get(type(action))
    if fixed is not None:
        return fixed
    if perspective is not None and perspective != actor:
        hidden = _HIDDEN.get(type(action))
        if hidden is not None:
            return hidden
    match action:
        case PickCharacter(character=c):
            return M("pick {character}", character=THE_CHARACTER[c])
        case DiscardCharacter(character=c):
            return M("discard {character} face down", character=THE_CHARACTER[c])
        case KeepCard(kind=k):
            return M("keep {district}", district=DISTRICT[k])
        case SelectCard(kind=k):
            return M("select {district} for the exchange", district=DISTRICT[k])
        case DiscardForGold(kind=k):
            return M("discard {district} to the Laboratory for 1 gold", district=DISTRICT[k])
        case BuildDistrict(kind=k):
            return M("build {district}", district=DISTRICT[k])
        case Assassinate(character=c):
            return M("assassinate {character}", character=THE_CHARACTER[c])
        case Rob(character=c):
            return M("rob {character}", character=THE_CHARACTER[c])
        case SwapHands(seat=seat):
            return M("swap hands with seat {seat}", seat=seat)
        case DestroyDistrict(kind=k, seat=seat):
            return M("destroy {district} in seat {seat}'s city", district=DISTRICT[k], seat=seat)
    raise TypeError(f"not a Citadels action: {action!r}")
