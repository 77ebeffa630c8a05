"""Constants shared by the Capitol state modules: the phases of a round and the kinds of draw pile."""

from __future__ import annotations

CONSTRUCTION = 0
AUCTION = 1
END = 2
OVER = 3
PHASE_NAMES = ("construction", "improvement", "end", "over")

PILE_HIDDEN = 0
"""A draw pile in its dealt order: only its top card is public (its other cards pool with unseen hand cards)."""
PILE_PUBLIC = 1
"""A draw pile made by turning a discard pile over: its whole order follows from public history."""
PILE_SHUFFLED = 2
"""A draw pile made by shuffling a discard pile: its contents are public, its order (but the top) is not."""

PUBLIC = -1
"""A discard or draw-pile card whose identity follows from public history (``discard_seen``, ``pile_seen``)."""


def face_down(seat: int, colour: int = -1) -> int:
    """The ``discard_seen`` code of a card ``seat`` played face down (``played_card=face_down``, FR reading).

    Only ``seat`` knows the card; the others know its type (its discard pile) and, for a permit played with its
    action, its ``colour`` (0-2; -1 unknown): the code is ``seat * 4 + colour + 1``.
    """
    return seat * 4 + colour + 1


def seen_by(code: int) -> int:
    """The seat that knows a face-down card (-1 for ``PUBLIC``: everyone)."""
    return -1 if code == PUBLIC else code // 4


def seen_colour(code: int) -> int:
    """The colour everyone knows of a face-down permit (-1: not known, or not face down)."""
    return -1 if code == PUBLIC else code % 4 - 1
