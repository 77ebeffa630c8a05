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
from meeple.games.citadels.data import CHARACTER_NAMES, KIND_NAME

_FIXED: dict[type[Action], str] = {
    TakeGold: "take 2 gold",
    DrawCards: "draw cards",
    TakeIncome: "take income",
    ExchangeCards: "exchange cards with the deck",
    ConfirmExchange: "confirm the exchange",
    UseSmithy: "use the Smithy: pay 3 gold, draw 3 cards",
    EndTurn: "end the turn",
    DeclineDestroy: "destroy nothing",
    RecoverDistrict: "pay 1 gold to take the destroyed district (Graveyard)",
    DeclineRecover: "let the destroyed district go (Graveyard)",
}


def describe(action: Action, actor: int, perspective: int | None) -> str:
    """Return the text of ``action`` played by ``actor`` as ``perspective`` may see it (``None``: full text).

    Raises:
        TypeError: ``action`` is not a Citadels action.
    """
    fixed = _FIXED.get(type(action))
    if fixed is not None:
        return fixed
    hidden = perspective is not None and perspective != actor
    if isinstance(action, PickCharacter):
        return "pick a character" if hidden else f"pick the {CHARACTER_NAMES[action.character]}"
    if isinstance(action, DiscardCharacter):
        return (
            "discard a character face down"
            if hidden
            else (f"discard the {CHARACTER_NAMES[action.character]} face down")
        )
    if isinstance(action, KeepCard):
        return "keep a card" if hidden else f"keep {KIND_NAME[action.kind]}"
    if isinstance(action, SelectCard):
        return "select a card for the exchange" if hidden else f"select {KIND_NAME[action.kind]} for the exchange"
    if isinstance(action, DiscardForGold):
        what = "a card" if hidden else KIND_NAME[action.kind]
        return f"discard {what} to the Laboratory for 1 gold"
    if isinstance(action, BuildDistrict):
        return f"build {KIND_NAME[action.kind]}"
    if isinstance(action, Assassinate):
        return f"assassinate the {CHARACTER_NAMES[action.character]}"
    if isinstance(action, Rob):
        return f"rob the {CHARACTER_NAMES[action.character]}"
    if isinstance(action, SwapHands):
        return f"swap hands with seat {action.seat}"
    if isinstance(action, DestroyDistrict):
        return f"destroy {KIND_NAME[action.kind]} in seat {action.seat}'s city"
    raise TypeError(f"not a Citadels action: {action!r}")
