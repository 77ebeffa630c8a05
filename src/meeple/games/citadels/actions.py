"""Citadels actions: frozen dataclasses with ``int`` fields, interned by the game's codec.

District cards are referred to by *kind* id (index into :data:`meeple.games.citadels.data.KINDS`): with no two
districts of one name in a city, a kind names a card of a city exactly, and in a hand any copy of a kind is as good
as another (the engine uses the lowest card id). Characters are numbers 1–8, seats are 0-based.

Rules: citadels.md §5.2 (draft, turn, characters, purple districts).
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.core import Action


@dataclass(frozen=True, slots=True)
class PickCharacter(Action):
    """Draft: keep this character (hidden from the other seats)."""

    character: int


@dataclass(frozen=True, slots=True)
class DiscardCharacter(Action):
    """Draft (2-player variant and the 7th player): put this character face down (hidden)."""

    character: int


@dataclass(frozen=True, slots=True)
class TakeGold(Action):
    """Mandatory action: take 2 gold from the bank."""


@dataclass(frozen=True, slots=True)
class DrawCards(Action):
    """Mandatory action: draw 2 district cards (Observatory: 3) and keep 1 (Library: 2)."""


@dataclass(frozen=True, slots=True)
class KeepCard(Action):
    """Keep one drawn card of this kind (the others go under the deck)."""

    kind: int


@dataclass(frozen=True, slots=True)
class BuildDistrict(Action):
    """Build a district of this kind from the hand, paying its cost."""

    kind: int


@dataclass(frozen=True, slots=True)
class TakeIncome(Action):
    """Take the colour income of the current character (once per turn, all at once)."""


@dataclass(frozen=True, slots=True)
class Assassinate(Action):
    """Assassin: kill this character (2–8) for the round."""

    character: int


@dataclass(frozen=True, slots=True)
class Rob(Action):
    """Thief: rob this character (3–8, not the killed one)."""

    character: int


@dataclass(frozen=True, slots=True)
class SwapHands(Action):
    """Magician: swap the whole hand with this seat's hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class ExchangeCards(Action):
    """Magician: start exchanging cards with the deck (then select cards one by one and confirm)."""


@dataclass(frozen=True, slots=True)
class SelectCard(Action):
    """Magician's exchange: add a hand card of this kind to the cards put under the deck."""

    kind: int


@dataclass(frozen=True, slots=True)
class ConfirmExchange(Action):
    """Magician's exchange: put the selected cards under the deck and draw as many."""


@dataclass(frozen=True, slots=True)
class CancelExchange(Action):
    """Magician's exchange: cancel it before confirming; the hand is unchanged and the power unused.

    He may still swap hands, not start another exchange this turn. [our choice] docs/decisions.md "Magician".
    """


@dataclass(frozen=True, slots=True)
class DiscardForGold(Action):
    """Laboratory: discard a hand card of this kind (under the deck) for 1 gold."""

    kind: int


@dataclass(frozen=True, slots=True)
class UseSmithy(Action):
    """Smithy: pay 3 gold, draw 3 cards."""


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn (the Warlord then decides whether to destroy a district)."""


@dataclass(frozen=True, slots=True)
class DestroyDistrict(Action):
    """Warlord, at the end of his turn: destroy the district of this kind in this seat's city."""

    seat: int
    kind: int


@dataclass(frozen=True, slots=True)
class DeclineDestroy(Action):
    """Warlord, at the end of his turn: destroy nothing."""


@dataclass(frozen=True, slots=True)
class RecoverDistrict(Action):
    """Graveyard: pay 1 gold and take the destroyed district into the hand."""


@dataclass(frozen=True, slots=True)
class DeclineRecover(Action):
    """Graveyard: let the destroyed district go under the deck."""


ACTION_TYPES: tuple[type[Action], ...] = (
    PickCharacter,
    DiscardCharacter,
    TakeGold,
    DrawCards,
    KeepCard,
    BuildDistrict,
    TakeIncome,
    Assassinate,
    Rob,
    SwapHands,
    ExchangeCards,
    SelectCard,
    ConfirmExchange,
    DiscardForGold,
    UseSmithy,
    EndTurn,
    DestroyDistrict,
    DeclineDestroy,
    RecoverDistrict,
    DeclineRecover,
    CancelExchange,
)
"""Every action class, in codec order (a new class goes last: the codes of the others never change)."""
